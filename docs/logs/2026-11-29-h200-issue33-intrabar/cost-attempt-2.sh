#!/usr/bin/env bash
# The cost of --intrabar for the default strategy after attempt N (2: the
# predicate answers a bar that reaches no target and no new extreme before
# the trailing stop's divisions and the margin check): part 2 of
# ab-intrabar.sh for the default strategy only, three rounds, and ncu of
# its plain and _finer kernels.
#   bash docs/logs/2026-11-29-h200-issue33-intrabar/cost-attempt-2.sh BTFORGE > $OUT/cost-attempt-2.log
set -u
B=$1
out=$(mktemp -d)
for r in 1 2 3; do
  for v in plain finer; do
    extra=(); [[ $v == finer ]] && extra=(--finer-bars 60)
    "$B" bench --backend cuda --strategy default --workload large --max-combinations 262144 --skip-single-thread \
      --cpu-max-combinations 256 "${extra[@]}" > "$out/${v}_$r.log" 2>&1 || echo "FAIL $v $r"
  done
done
python3 - "$out" <<'PY'
import glob, re, statistics, sys
k = {"plain": [], "finer": []}; e = {"plain": [], "finer": []}
for p in sorted(glob.glob(sys.argv[1] + "/*.log")):
    v = p.rsplit("/", 1)[1].split("_")[0]; t = open(p).read()
    k[v].append(float(re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", t, re.M).group(1)))
    e[v].append(float(re.search(r"^cuda \(.*: ([0-9.e+-]+) s, ([0-9.e+-]+) cells/s$", t, re.M).group(2)))
for name, d in (("kernels only", k), ("end to end", e)):
    a, b = statistics.median(d["plain"]), statistics.median(d["finer"])
    print("default %-12s plain %.4e  finer %.4e  finer/plain %.3f  (plain %s, finer %s)" % (
        name, a, b, b / a, ["%.3e" % x for x in d["plain"]], ["%.3e" % x for x in d["finer"]]))
PY
for v in plain finer; do
  extra=(); [[ $v == finer ]] && extra=(--finer-bars 60)
  echo "ncu default $v:"
  ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep \
    --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum \
    "$B" bench --backend cuda --strategy default --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 "${extra[@]}" 2>&1 | grep -E "btforge_|inst_executed|registers|duration"
done
