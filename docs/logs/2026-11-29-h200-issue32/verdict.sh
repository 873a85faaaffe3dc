#!/usr/bin/env bash
# Note [Effective number of trials] and Note [The verdict] on the GPU machine:
#  1. every strategy's quickstart with every test of the verdict (--pbo
#     --cpcv --spa: the effective trials from the cuda kernels' equity marks)
#     against the CPU's: the same CSV and validation file, byte for byte;
#  2. the 1M-combination workload with PBO, CPCV, walk-forward and --spa
#     (so the effective trials and the verdict), timed end to end;
#  3. the same run as four shards, three on cuda and the last quarter on
#     the CPU (its 262 144 combinations x 4 symbols x 100 000 bars on the 16
#     cores), merged: the CSV and validation file of step 2, byte for byte.
# Run from the repository root with the device build carried:
#   bash docs/logs/2026-11-29-h200-issue32/verdict.sh build/device/host/cli/btforge > $OUT/verdict.log
set -u
btforge=$1
out=$(mktemp -d)  # the result files stay on the machine: only the log comes back
nvidia-smi --query-gpu=name,driver_version --format=csv
for strategy in default sma_cross band_reversion xs_momentum; do
  "$btforge" sweep --backend cpu --strategy "$strategy" --pbo --cpcv --spa --threads 16 -o "$out/cpu_$strategy" > "$out/cpu_$strategy.out" 2>/dev/null
  "$btforge" sweep --backend cuda --strategy "$strategy" --pbo --cpcv --spa -o "$out/cuda_$strategy" > "$out/cuda_$strategy.out" 2>/dev/null
  if cmp -s "$out/cpu_$strategy.csv" "$out/cuda_$strategy.csv" && \
     cmp -s "$out/cpu_$strategy.validation.json" "$out/cuda_$strategy.validation.json"; then
    echo "$strategy: cuda's csv and validation file (--pbo --cpcv --spa) = cpu's"
  else
    echo "$strategy: DIFFERENT"; ls -l "$out"/*_"$strategy".*
  fi
  grep -A1 "^effective number of trials" "$out/cuda_$strategy.out"
  grep "^verdict" "$out/cuda_$strategy.out" | cut -c1-400
done
big=(--strategy default --grid spec/grids/default_bench_large.json --synthetic-bars 100000 --pbo --cpcv
     --walk-forward rolling:4 --spa --threads 16)
/usr/bin/time -f 'wall %e s, max rss %M KB' "$btforge" sweep --backend cuda --devices 0 "${big[@]}" -o "$out/big" 2>&1 \
  | grep -v "^sweep:" | grep -v "^ *[0-9]* *[0-9]* *[0-9]* " | cut -c1-400
for i in 0 1 2; do
  /usr/bin/time -f "shard $i/4 on cuda: wall %e s" "$btforge" sweep --backend cuda --devices 0 "${big[@]}" \
    --shard "$i/4" -o "$out/s$i" 2>&1 | grep "wall"
done
/usr/bin/time -f 'shard 3/4 on the cpu (16 threads): wall %e s' "$btforge" sweep --backend cpu "${big[@]}" \
  --shard 3/4 -o "$out/s3" 2>&1 | grep -E "wall|cells/s"
/usr/bin/time -f 'merge: wall %e s' "$btforge" merge "$out"/s0.shard "$out"/s1.shard "$out"/s2.shard "$out"/s3.shard \
  --threads 16 -o "$out/merged" 2>&1 | grep "wall"
for suffix in csv validation.json walkforward.csv; do
  if cmp -s "$out/big.$suffix" "$out/merged.$suffix"; then
    echo "merged (3 cuda shards + 1 cpu shard) $suffix = one cuda process's"
  else
    echo "merged $suffix: DIFFERENT"
  fi
done
python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))
e = v['effective_trials']
print('effective trials:', {k: e[k] for k in ('combinations', 'sampled', 'trials', 'silhouette_quality', 'expected_max_sharpe_annualized')})
print('naive expected max:', v['expected_max_sharpe_annualized'])
print('decision:', v['decision'])
for c in v['checks']: print('  ', c['test'], c.get('passed'), c['reading'])" "$out/big.validation.json"
