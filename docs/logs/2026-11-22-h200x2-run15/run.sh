# 2 x H200: this session's final binary (new: no pinned row buffers beside
# the device top N, chunk timelines)
# against session 3's (old), one GPU and two, alternating.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
old=build/device-old/btforge
L=$out/logs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > $L/gpus.txt 2>&1
$new parity --backend cuda --strategy default --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $L/parity_default.log 2>&1; echo "parity default rc=$?"
$new sweep --backend cpu -o $L/sweep_cpu > $L/sweep_cpu.log 2>&1
$new sweep --backend cuda -o $L/sweep_1gpu > $L/sweep_1gpu.log 2>&1
$new sweep --backend cuda --devices all -o $L/sweep_2gpu > $L/sweep_2gpu.log 2>&1
$new sweep --backend cuda --max-chunk 4096 -o $L/sweep_small > $L/sweep_small.log 2>&1
for v in 1gpu 2gpu small; do cmp $L/sweep_cpu.csv $L/sweep_$v.csv && echo "quickstart csv: $v identical to cpu"; done
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 2048"
for r in 1 2 3; do
  $old $common --devices 0 > $L/old_1gpu_$r.log 2>&1
  $new $common --devices 0 --chunk-timeline $L/tl_new_1gpu_$r.csv > $L/new_1gpu_$r.log 2>&1
  $new $common --devices all --chunk-timeline $L/tl_new_2gpu_$r.csv > $L/new_2gpu_$r.log 2>&1
  $old $common --devices all > $L/old_2gpu_$r.log 2>&1
done
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv >> $L/gpus.txt 2>&1
for f in $L/old_* $L/new_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only|per device|setup" $f | sed 's/(2 GPUs: device 0: NVIDIA H200, sm_90; device 1: NVIDIA H200, sm_90, driver 13.0)/(2 GPUs)/; s/(device 0: NVIDIA H200, sm_90, driver 13.0)/(1 GPU)/; s/(context, module, uploads, indicators; the slowest device)//'; done
rm -f $L/sweep_*.json
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
