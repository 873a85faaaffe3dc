#!/usr/bin/env bash
# The cost of --intrabar after the legs of a bar joined the walk (issue 33,
# --intrabar-bounds): the default strategy's _finer kernels now read a
# finer bar through finer_bar_prices (Note [A bar as three legs]), which
# the plain kernels fold away (their PTX is unchanged). On the speed
# guard's large workload (4 symbols x 100 000 hourly bars, its first
# 262 144 combinations) without and with a synthetic path of 60 one-minute
# bars through every bar (bench --finer-bars 60), alternating, three
# rounds; kernels-only and end-to-end cells/s. Then ncu's executed
# instructions of the _finer sweep kernel.
#   bash docs/logs/2026-11-29-h200-issue33-bounds/finer-cost.sh BTFORGE > $OUT/finer-cost.log
set -u
B=$1
out=$(mktemp -d)
run() {  # run LOG [extra...]
  local log=$1; shift
  "$B" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 --strategy default "$@" > "$out/$log.log" 2>&1 || echo "FAIL $log"
}
for r in 1 2 3; do
  run "plain_$r"
  run "finer_$r" --finer-bars 60
done
grep -h "^finer bars" "$out"/finer_1.log
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
kern = collections.defaultdict(list); e2e = collections.defaultdict(list)
for p in sorted(glob.glob(sys.argv[1] + "/*.log")):
    text = open(p).read()
    v = p.rsplit("/", 1)[1][:-4].split("_")[0]
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", text, re.M)
    if m: kern[v].append(float(m.group(1)))
    m = re.search(r"^cuda \(.*: ([0-9.e+-]+) s, ([0-9.e+-]+) cells/s$", text, re.M)
    if m: e2e[v].append(float(m.group(2)))
for name, d in (("kernels only", kern), ("end to end", e2e)):
    if d["plain"] and d["finer"]:
        p, f = statistics.median(d["plain"]), statistics.median(d["finer"])
        print(f"default {name}: plain {p:.4g} cells/s, finer {f:.4g} cells/s, finer/plain {f/p:.3f} "
              f"(runs: {d['plain']} / {d['finer']})")
PY
for v in plain finer; do
  extra=""; [ $v = finer ] && extra="--finer-bars 60"
  ncu --kernel-name regex:btforge_default_sweep --launch-count 1 --metrics smsp__inst_executed.sum \
    "$B" bench --backend cuda --workload large --max-combinations 65536 --skip-single-thread \
    --cpu-max-combinations 64 --strategy default $extra 2>&1 | grep -E "btforge_default_sweep|inst_executed" | head -4
done
