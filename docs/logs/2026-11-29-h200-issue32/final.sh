#!/usr/bin/env bash
# The session's last binary on the GPU machine:
#  1. every strategy's quickstart with --pbo --cpcv --spa --spa-benchmark
#     hold on cuda (the SPA's passes on the GPU) against the CPU's: the same
#     CSV and validation file, byte for byte;
#  2. the 1M-combination workload with every test of the verdict, against
#     cash and against buy and hold, timed end to end.
# Run from the repository root with the device build carried:
#   bash docs/logs/2026-11-29-h200-issue32/final.sh build/device/host/cli/btforge > $OUT/final.log
set -u
btforge=$1
out=$(mktemp -d)  # the result files stay on the machine: only the log comes back
nvidia-smi --query-gpu=name,driver_version --format=csv
for strategy in default sma_cross band_reversion xs_momentum; do
  v=(--pbo --cpcv --spa --spa-benchmark hold)
  "$btforge" sweep --backend cpu --strategy "$strategy" "${v[@]}" --threads 16 -o "$out/cpu_$strategy" > "$out/cpu_$strategy.out" 2>/dev/null
  "$btforge" sweep --backend cuda --strategy "$strategy" "${v[@]}" -o "$out/cuda_$strategy" > "$out/cuda_$strategy.out" 2>/dev/null
  if cmp -s "$out/cpu_$strategy.csv" "$out/cuda_$strategy.csv" && \
     cmp -s "$out/cpu_$strategy.validation.json" "$out/cuda_$strategy.validation.json"; then
    echo "$strategy: cuda's csv and validation file (--pbo --cpcv --spa --spa-benchmark hold) = cpu's"
  else
    echo "$strategy: DIFFERENT"; ls -l "$out"/*_"$strategy".*
  fi
  grep -A2 "^reality check, SPA" "$out/cuda_$strategy.out"
  grep "^verdict" "$out/cuda_$strategy.out" | cut -c1-300
done
big=(--strategy default --grid spec/grids/default_bench_large.json --synthetic-bars 100000 --pbo --cpcv
     --walk-forward rolling:4 --spa --threads 16)
for benchmark in cash hold; do
  /usr/bin/time -f "1M, every test, --spa-benchmark $benchmark: wall %e s, max rss %M KB" \
    "$btforge" sweep --backend cuda --devices 0 "${big[@]}" --spa-benchmark $benchmark -o "$out/big_$benchmark" 2>&1 \
    | grep -E "wall|cells/s|^verdict|^reality|^  best|^  StepM" | cut -c1-300
done
