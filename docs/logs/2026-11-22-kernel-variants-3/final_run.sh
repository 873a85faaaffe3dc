#!/usr/bin/env bash
# Device run 4: scripts/gpu-check on the landed binary, two more large
# benchmarks (median of 3 with gpu-check's), F5 (the landed kernel as a
# -lineinfo fatbin, SASS-identical) against L1 (F5 + __builtin_expect on the
# rare branches), ncu stall reasons for both, and F5's source counters.
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
bash scripts/gpu-check "$out/gc" "$bin" > "$out/gc_summary.txt" 2>&1
for r in 2 3; do
  "$bin" bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > "$out/large_$r.log" 2>&1
done
"$bin" bench --backend cuda --jit --jit-cache "$out/jit" --workload large --skip-single-thread --cpu-max-combinations 512 > "$out/large_jit_2.log" 2>&1
rm -rf "$out/jit"
ROUNDS="1 2 3" bash docs/logs/2026-11-22-kernel-variants-3/run_kx3b.sh "$out/kx" "F5 L1" "F5 L1" F5
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv > "$out/gpu_after.txt" 2>&1
tar czf "$out/gc.tgz" -C "$out" gc && rm -rf "$out/gc"
tar czf "$out/bench.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
