#!/usr/bin/env bash
# The equity marks (72f109e) against the kernels before them (eb35b54), on
# one GPU: each strategy's large workload (the speed guard's: 4 symbols x
# 100 000 bars, here its first 262 144 combinations), A and B alternating,
# three rounds, kernels-only cells/s; then ncu's executed instructions of
# each plain sweep kernel's first launch, A and B.
#   bash docs/logs/2026-11-28-h200-issue32/ab-equity-marks.sh A_BTFORGE B_BTFORGE > $OUT/ab-equity-marks.log
set -u
A=$1; B=$2
out=$(mktemp -d)
for r in 1 2 3; do
  for s in default sma_cross band_reversion xs_momentum; do
    for v in A B; do
      bin=${!v}
      "$bin" bench --backend cuda --strategy "$s" --workload large --max-combinations 262144 --skip-single-thread \
        --cpu-max-combinations 256 > "$out/${s}_${v}_$r.log" 2>&1 || echo "FAIL $s $v $r"
    done
  done
done
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
fig = collections.defaultdict(list)
for p in sorted(glob.glob(sys.argv[1] + "/*.log")):
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", open(p).read(), re.M)
    s, v, r = p.rsplit("/", 1)[1][:-4].rsplit("_", 2)
    if m: fig[(s, v)].append(float(m.group(1)))
print("strategy        A median     B median     B/A    A runs / B runs")
for s in ("default", "sma_cross", "band_reversion", "xs_momentum"):
    a, b = fig[(s, "A")], fig[(s, "B")]
    print("%-15s %.4e   %.4e   %.3f  %s / %s" % (s, statistics.median(a), statistics.median(b),
          statistics.median(b) / statistics.median(a), ["%.3e" % x for x in a], ["%.3e" % x for x in b]))
PY
for s in xs_momentum default; do
  for v in A B; do
    bin=${!v}
    echo "ncu $s $v:"
    ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep \
      --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum \
      "$bin" bench --backend cuda --strategy "$s" --workload large --max-combinations 262144 --skip-single-thread \
      --cpu-max-combinations 256 2>&1 | grep -E "btforge_|inst_executed|registers|duration"
  done
done
