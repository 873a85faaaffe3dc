#!/usr/bin/env bash
# Finer bars (issue 33) on one GPU. Part 1: the kernels with the walk
# (B) against those before it (A, b592436) on the speed guard's large
# workload (4 symbols x 100 000 hourly bars, its first 262 144
# combinations), no finer bars, A and B alternating, two rounds. Part 2:
# the cost of --intrabar: B on the same workload without and with a
# synthetic path of 60 one-minute bars through every bar (bench
# --finer-bars 60, Note [Synthetic finer bars]), alternating, two rounds.
# Kernels-only and end-to-end cells/s (cells: the hourly bars x symbols x
# combinations in both). Then ncu's executed instructions of the default
# strategy's sweep kernel, B without and with the finer bars.
#   bash docs/logs/2026-11-29-h200-issue33-intrabar/ab-intrabar.sh A_BTFORGE B_BTFORGE > $OUT/ab-intrabar.log
set -u
A=$1; B=$2
out=$(mktemp -d)
run() {  # run LOG BIN [extra...]
  local log=$1 bin=$2; shift 2
  "$bin" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 "$@" > "$out/$log.log" 2>&1 || echo "FAIL $log"
}
for r in 1 2; do
  for s in default sma_cross band_reversion xs_momentum; do
    run "p1_${s}_A_$r" "$A" --strategy "$s"
    run "p1_${s}_B_$r" "$B" --strategy "$s"
    run "p2_${s}_plain_$r" "$B" --strategy "$s"
    run "p2_${s}_finer_$r" "$B" --strategy "$s" --finer-bars 60
  done
done
grep -h "^finer bars" "$out"/p2_default_finer_1.log
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
kern = collections.defaultdict(list); e2e = collections.defaultdict(list)
for p in sorted(glob.glob(sys.argv[1] + "/*.log")):
    text = open(p).read()
    part, rest = p.rsplit("/", 1)[1][:-4].split("_", 1)
    s, v, r = rest.rsplit("_", 2)
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", text, re.M)
    if m: kern[(part, s, v)].append(float(m.group(1)))
    m = re.search(r"^cuda \(.*: ([0-9.e+-]+) s, ([0-9.e+-]+) cells/s$", text, re.M)
    if m: e2e[(part, s, v)].append(float(m.group(2)))
def table(part, a, b, title):
    print(title)
    print("strategy        %-12s %-12s %s/%s kernels   %-12s %-12s %s/%s end-to-end" % (a, b, b, a, a, b, b, a))
    for s in ("default", "sma_cross", "band_reversion", "xs_momentum"):
        ka, kb = statistics.median(kern[(part, s, a)]), statistics.median(kern[(part, s, b)])
        ea, eb = statistics.median(e2e[(part, s, a)]), statistics.median(e2e[(part, s, b)])
        print("%-15s %.4e   %.4e   %.3f            %.4e   %.4e   %.3f" % (s, ka, kb, kb / ka, ea, eb, eb / ea))
        print("    kernels runs %s: %s; %s: %s" % (a, ["%.3e" % x for x in kern[(part, s, a)]], b,
                                                   ["%.3e" % x for x in kern[(part, s, b)]]))
table("p1", "A", "B", "part 1: no finer bars, b592436 (A) against the walk (B), kernels-only and end-to-end cells/s")
table("p2", "plain", "finer", "part 2: B without and with 60 finer bars per bar (the cost of --intrabar)")
PY
for v in plain finer; do
  extra=(); [[ $v == finer ]] && extra=(--finer-bars 60)
  echo "ncu default $v:"
  ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep \
    --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum \
    "$B" bench --backend cuda --strategy default --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 "${extra[@]}" 2>&1 | grep -E "btforge_|inst_executed|registers|duration"
done
