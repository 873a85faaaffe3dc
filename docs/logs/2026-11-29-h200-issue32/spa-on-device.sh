#!/usr/bin/env bash
# Note [Bootstrap maxima on the device] on the GPU machine:
#  1. compute-sanitizer (memcheck) over a cuda sweep whose SPA passes run on
#     the device (sma_cross's quickstart, --spa 200);
#  2. every strategy's quickstart with --pbo --cpcv --spa on cuda (the SPA's
#     passes on the GPU) against the CPU's: the same CSV and validation file;
#  3. the 1M-combination workload with PBO, CPCV, walk-forward and --spa,
#     timed end to end, the passes on the GPU;
#  4. the same run as four cuda shards, merged twice: --pbo-backend cpu (the
#     CSCV and the 1 000 x 1 048 576 bootstrap on the 16 cores) and auto
#     (both on the GPU): the same validation file, byte for byte.
# Run from the repository root with the device build carried:
#   bash docs/logs/2026-11-29-h200-issue32/spa-on-device.sh build/device/host/cli/btforge > $OUT/spa-on-device.log
set -u
btforge=$1
out=$(mktemp -d)  # the result files stay on the machine: only the log comes back
nvidia-smi --query-gpu=name,driver_version --format=csv
compute-sanitizer --tool memcheck --print-limit 10 "$btforge" sweep --backend cuda --strategy sma_cross --spa 200 \
  -o "$out/sanitized" 2>&1 | grep -E "ERROR SUMMARY|reality check|passes on"
for strategy in default sma_cross band_reversion xs_momentum; do
  "$btforge" sweep --backend cpu --strategy "$strategy" --pbo --cpcv --spa --threads 16 -o "$out/cpu_$strategy" > "$out/cpu_$strategy.out" 2>/dev/null
  "$btforge" sweep --backend cuda --strategy "$strategy" --pbo --cpcv --spa -o "$out/cuda_$strategy" > "$out/cuda_$strategy.out" 2>/dev/null
  if cmp -s "$out/cpu_$strategy.csv" "$out/cuda_$strategy.csv" && \
     cmp -s "$out/cpu_$strategy.validation.json" "$out/cuda_$strategy.validation.json"; then
    echo "$strategy: cuda's csv and validation file (--pbo --cpcv --spa, the passes on the GPU) = cpu's"
  else
    echo "$strategy: DIFFERENT"; ls -l "$out"/*_"$strategy".*
  fi
  grep -A1 "^reality check, SPA" "$out/cuda_$strategy.out"
done
big=(--strategy default --grid spec/grids/default_bench_large.json --synthetic-bars 100000 --pbo --cpcv
     --walk-forward rolling:4 --spa --threads 16)
/usr/bin/time -f 'wall %e s, max rss %M KB' "$btforge" sweep --backend cuda --devices 0 "${big[@]}" -o "$out/big" 2>&1 \
  | grep -v "^sweep:" | grep -v "^ *[0-9]* *[0-9]* *[0-9]* " | grep -v "scans:" | cut -c1-300
for i in 0 1 2 3; do
  "$btforge" sweep --backend cuda --devices 0 "${big[@]}" --shard "$i/4" -o "$out/s$i" > /dev/null 2>&1
done
/usr/bin/time -f 'merge --pbo-backend cpu: wall %e s' "$btforge" merge "$out"/s?.shard --threads 16 --pbo-backend cpu \
  -o "$out/merged_cpu" 2>&1 | grep -E "wall|^reality"
/usr/bin/time -f 'merge --pbo-backend auto: wall %e s' "$btforge" merge "$out"/s?.shard --threads 16 \
  -o "$out/merged_gpu" 2>&1 | grep -E "wall|^reality"
for suffix in csv validation.json walkforward.csv; do
  if cmp -s "$out/merged_cpu.$suffix" "$out/merged_gpu.$suffix" && cmp -s "$out/big.$suffix" "$out/merged_gpu.$suffix"; then
    echo "$suffix: merged on the CPU = merged on the GPU = one cuda process"
  else
    echo "$suffix: DIFFERENT"
  fi
done
