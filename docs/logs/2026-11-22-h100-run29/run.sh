#!/usr/bin/env bash
# H100 run 29: scripts/gpu-check on the session's final binary (commit
# 42a2b84) and two more large benchmarks, for the targets table (median of 3).
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
bash scripts/gpu-check "$out/gc" "$bin" > "$out/gc_summary.txt" 2>&1
for r in 2 3; do
  "$bin" bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > "$out/large_$r.log" 2>&1
done
grep -h -E "^cuda \(|kernels only|ratio|cpu 16" "$out"/large_*.log "$out/gc/bench_large.log"
rm -rf "$out/gc/jit-cache"
tar czf "$out/gc.tgz" -C "$out" gc && rm -rf "$out/gc"
tar czf "$out/bench.tgz" -C "$out" large_2.log large_3.log && rm -f "$out"/large_*.log
