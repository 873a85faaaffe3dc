#!/usr/bin/env bash
# Note [Distinct outcomes] on two GPUs and at a million combinations:
#  1. the quickstart of every strategy on two devices (--devices 0,1: the
#     outcome keys written by both into one array) against the CPU's CSV
#     and table;
#  2. the 1M-combination workload (cpcv-1m.log's command) with the distinct
#     outcomes counted, timed end to end.
# Run from the repository root with the device build carried:
#   bash docs/logs/2026-11-28-h200-issue32/distinct-outcomes.sh build/device/host/cli/btforge > $OUT/distinct-outcomes.log
set -u
btforge=$1
out=$(mktemp -d)  # the result files stay on the machine: only the log comes back
nvidia-smi --query-gpu=name,driver_version --format=csv
for strategy in default sma_cross band_reversion xs_momentum; do
  "$btforge" sweep --backend cpu --strategy "$strategy" --threads 16 -o "$out/cpu_$strategy" > "$out/cpu_$strategy.out" 2>/dev/null
  "$btforge" sweep --backend cuda --devices 0,1 --strategy "$strategy" -o "$out/cuda2_$strategy" > "$out/cuda2_$strategy.out" 2>/dev/null
  if cmp -s "$out/cpu_$strategy.csv" "$out/cuda2_$strategy.csv" && \
     diff <(head -22 "$out/cpu_$strategy.out") <(head -22 "$out/cuda2_$strategy.out") > /dev/null; then
    echo "$strategy: two GPUs' csv and table = cpu's; $(head -1 "$out/cpu_$strategy.out")"
  else
    echo "$strategy: DIFFERENT"; head -3 "$out/cpu_$strategy.out" "$out/cuda2_$strategy.out"
  fi
done
/usr/bin/time -f 'wall %e s, max rss %M KB' "$btforge" sweep --backend cuda --devices 0 --strategy default \
  --grid spec/grids/default_bench_large.json --synthetic-bars 100000 --pbo --cpcv --walk-forward rolling:4 \
  --threads 16 -o "$out/big" 2>&1 | grep -v "^sweep:"
