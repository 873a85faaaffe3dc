#!/usr/bin/env bash
# Where sma_cross lost its speed between 055f519 and 9b5b75c (issue 30, item 1): the binaries of 055f519 (before
# issues 13-19), c9768ca (the last before margin), aabd7c4 (margin and liquidation, optimized), e092074 (512-symbol
# reference and kernel variants) and b0a8c2f (now), each `cmake --preset device` with spec/generator.json's cubins
# cut to sm_90 (build/bisect/SHA/btforge), alternating, three rounds, on sma_cross's large workload
# (spec/grids/sma_cross_bench_large.json, the grid of issue 30's table); then ncu on one launch of each
# (131 072 combinations x 4 symbols x 20 000 bars, issue 30's frame). Last, an experiment for item 3: cubins of
# sma_cross and default compiled from generated/ as is ("base") and with the metrics' Welford update (a division
# per bar) replaced by plain sums ("sums": timing only, its Sharpe is not the reference's), loaded by --kernels
# into b0a8c2f's binary, alternating, three rounds (build/bisect/cubins/; nvcc -cubin --fmad=false -std=c++17
# -DBTFORGE_SYMBOL_CAPACITY=16 -DBTFORGE_KERNEL_SUFFIX= -arch=sm_90).
#   run.sh OUT
set -u
out=$1; mkdir -p "$out/bisect"
shas=(055f519 c9768ca aabd7c4 e092074 b0a8c2f)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0 > "$out/bisect/nvidia-smi.txt"
for r in 1 2 3; do
  for c in "${shas[@]}"; do
    build/bisect/$c/btforge bench --backend cuda --strategy sma_cross --grid spec/grids/sma_cross_bench_large.json \
      --skip-single-thread --cpu-max-combinations 1024 > "$out/bisect/${c}_$r.log" 2>&1
    echo "round $r $c: $(grep -h '^cuda kernels only' "$out/bisect/${c}_$r.log" | cut -d'(' -f1)"
  done
done
for c in "${shas[@]}"; do
  ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep \
    --metrics smsp__thread_inst_executed.sum,smsp__inst_executed.sum,gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,smsp__thread_inst_executed_per_inst_executed.ratio \
    build/bisect/$c/btforge bench --backend cuda --strategy sma_cross --grid spec/grids/sma_cross_bench_large.json \
      --bars 20000 --max-combinations 131072 --skip-single-thread --cpu-max-combinations 64 > "$out/bisect/ncu_$c.log" 2>&1
  echo "ncu $c: $(grep -E 'thread_inst_executed.sum|gpu__time_duration|registers_per_thread' "$out/bisect/ncu_$c.log" | awk '{print $1, $NF}' | tr '\n' ' ')"
done
for r in 1 2 3; do
  for s in sma_cross default; do
    for v in base sums; do
      build/bisect/b0a8c2f/btforge bench --backend cuda --strategy $s --grid spec/grids/${s}_bench_large.json \
        --kernels build/bisect/cubins/${s}_$v.cubin --skip-single-thread --cpu-max-combinations 1024 \
        > "$out/bisect/welford_${s}_${v}_$r.log" 2>&1
      echo "welford round $r $s $v: $(grep -h '^cuda kernels only' "$out/bisect/welford_${s}_${v}_$r.log" | cut -d'(' -f1)"
    done
  done
done
tar czf "$out/bisect.tgz" -C "$out" bisect && rm -rf "$out/bisect"
