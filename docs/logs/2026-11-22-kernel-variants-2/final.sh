set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
bash scripts/gpu-check "$out/gc" "$bin" > "$out/gc_summary.txt" 2>&1
for r in 2 3; do
  "$bin" bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > "$out/gc/bench_large_run$r.log" 2>&1
done
rm -rf "$out/gc/jit-cache" "$out"/gc/*.json
tar czf "$out/logs.tgz" -C "$out" gc && rm -rf "$out/gc"
tail -32 "$out/gc_summary.txt"
