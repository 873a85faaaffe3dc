# 2 x H200: session 5's final binary (commit 42a2b84), one GPU and two, alternating.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
L=$out/logs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > $L/gpus.txt 2>&1
$new sweep --backend cpu -o $L/sweep_cpu > $L/sweep_cpu.log 2>&1
$new sweep --backend cuda --devices all -o $L/sweep_2gpu > $L/sweep_2gpu.log 2>&1
cmp $L/sweep_cpu.csv $L/sweep_2gpu.csv && echo "quickstart csv: 2 GPUs identical to cpu"
$new bench --backend cuda --devices all --skip-single-thread > $L/bench_standard_2gpu.log 2>&1; grep -E "identical|FAIL" $L/bench_standard_2gpu.log
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 2048"
for r in 1 2 3; do
  $new $common --devices 0 > $L/1gpu_$r.log 2>&1
  $new $common --devices all --chunk-timeline $L/tl_2gpu_$r.csv > $L/2gpu_$r.log 2>&1
done
for f in $L/1gpu_* $L/2gpu_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only|per device" $f | sed 's/(2 GPUs: device 0: NVIDIA H200, sm_90; device 1: NVIDIA H200, sm_90, driver 13.0)/(2 GPUs)/; s/(device 0: NVIDIA H200, sm_90, driver 13.0)/(1 GPU)/'; done
rm -f $L/sweep_*.json
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
