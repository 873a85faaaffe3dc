# H100: gpu-check of this session's final binary (new: no pinned row buffers
# beside the device top N, chunk timelines, --max-chunk), then the large
# benchmark alternating with session 3's binary (old).
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
old=build/device-old/btforge
L=$out/logs
bash scripts/gpu-check $L/gc $new > $L/gc_summary.txt 2>&1
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384"
for r in 1 2 3; do
  $old $common > $L/old_large_$r.log 2>&1
  [ $r -ge 2 ] && $new $common --chunk-timeline $L/tl_new_$r.csv > $L/new_large_$r.log 2>&1
done
$old bench --backend cuda --jit --jit-cache $L/jit-old --workload large --skip-single-thread --cpu-max-combinations 4096 > $L/old_large_jit.log 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv > $L/gpu_after.txt 2>&1
tail -30 $L/gc_summary.txt
for f in $L/gc/bench_large*.log $L/new_large_* $L/old_large_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only|setup|ratio" $f; done
rm -f $L/gc/*.json $L/gc/sanitized.csv $L/gc/sweep_*.csv; rm -rf $L/gc/jit-cache $L/jit-old
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
