# 2 x H200: chunks of equal cost (new: ordinals in a balanced order, chunks
# of at least two waves on several GPUs) against the committed binary (head:
# ordinal order, chunks of about a wave); new with --max-chunk 104960 runs
# the balanced order in one-wave chunks.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
head=build/device-head/btforge
L=$out/logs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > $L/gpus.txt 2>&1
$new sweep --backend cpu -o $L/sweep_cpu > $L/sweep_cpu.log 2>&1
$new sweep --backend cuda --devices all -o $L/sweep_2gpu > $L/sweep_2gpu.log 2>&1
cmp $L/sweep_cpu.csv $L/sweep_2gpu.csv && echo "quickstart csv: 2 GPUs identical to cpu"
$new bench --backend cuda --devices all --skip-single-thread > $L/bench_standard_2gpu.log 2>&1; grep -E "identical|FAIL" $L/bench_standard_2gpu.log
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 2048"
for r in 1 2 3; do
  $head $common --devices 0 > $L/head_1gpu_$r.log 2>&1
  $new $common --devices all --chunk-timeline $L/tl_new_2gpu_$r.csv > $L/new_2gpu_$r.log 2>&1
  $head $common --devices all --chunk-timeline $L/tl_head_2gpu_$r.csv > $L/head_2gpu_$r.log 2>&1
  $new $common --devices 0 > $L/new_1gpu_$r.log 2>&1
  [ $r -le 2 ] && $new $common --devices all --max-chunk 104960 --chunk-timeline $L/tl_new_2gpu_wave_$r.csv > $L/new_2gpu_wave_$r.log 2>&1
done
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv >> $L/gpus.txt 2>&1
for f in $L/head_* $L/new_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only|per device" $f | sed 's/(2 GPUs: device 0: NVIDIA H200, sm_90; device 1: NVIDIA H200, sm_90, driver 13.0)/(2 GPUs)/; s/(device 0: NVIDIA H200, sm_90, driver 13.0)/(1 GPU)/'; done
rm -f $L/sweep_*.json
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
