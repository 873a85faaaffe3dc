#!/usr/bin/env bash
# Note [Reality Check, SPA and StepM] and Note [Equity marks] on the GPU:
#  1. every strategy's quickstart with --spa (its equity marks from the cuda
#     kernels, 256 per combination) against the CPU's: the same CSV and
#     validation file, byte for byte;
#  2. the 1M-combination workload (distinct-outcomes.sh's command) with
#     --spa added, timed end to end, and its SPA block.
# Run from the repository root with the device build carried:
#   bash docs/logs/2026-11-28-h200-issue32/spa.sh build/device/host/cli/btforge > $OUT/spa.log
set -u
btforge=$1
out=$(mktemp -d)  # the result files stay on the machine: only the log comes back
nvidia-smi --query-gpu=name,driver_version --format=csv
for strategy in default sma_cross band_reversion xs_momentum; do
  "$btforge" sweep --backend cpu --strategy "$strategy" --spa --threads 16 -o "$out/cpu_$strategy" > "$out/cpu_$strategy.out" 2>/dev/null
  "$btforge" sweep --backend cuda --strategy "$strategy" --spa -o "$out/cuda_$strategy" > "$out/cuda_$strategy.out" 2>/dev/null
  if cmp -s "$out/cpu_$strategy.csv" "$out/cuda_$strategy.csv" && \
     cmp -s "$out/cpu_$strategy.validation.json" "$out/cuda_$strategy.validation.json"; then
    echo "$strategy: cuda's csv and validation file (--spa) = cpu's"
  else
    echo "$strategy: DIFFERENT"; ls -l "$out"/*_"$strategy".*
  fi
  grep -A3 "^reality check, SPA" "$out/cuda_$strategy.out"
done
/usr/bin/time -f 'wall %e s, max rss %M KB' "$btforge" sweep --backend cuda --devices 0 --strategy default \
  --grid spec/grids/default_bench_large.json --synthetic-bars 100000 --pbo --cpcv --walk-forward rolling:4 \
  --spa --threads 16 -o "$out/big" 2>&1 | grep -v "^sweep:"
python3 -c "
import json, sys
spa = json.load(open(sys.argv[1]))['spa']
spa['stepm_superior']['combination_ids'] = spa['stepm_superior']['combination_ids'][:10]
print(json.dumps(spa))" "$out/big.validation.json"
