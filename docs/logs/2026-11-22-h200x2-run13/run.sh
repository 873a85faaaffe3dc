# 2 x H200: the top-N selection on a high-priority stream (new) against run
# 12's binary (r12), one GPU and two, with chunk timelines.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
r12=build/device-r12/btforge
L=$out/logs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > $L/gpus.txt 2>&1
$new parity --backend cuda --strategy default --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $L/parity_default.log 2>&1; echo "parity default rc=$?"
$new parity --backend cuda --strategy sma_cross --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $L/parity_sma_cross.log 2>&1; echo "parity sma_cross rc=$?"
$new sweep --backend cpu -o $L/sweep_cpu > $L/sweep_cpu.log 2>&1
$new sweep --backend cuda -o $L/sweep_1gpu > $L/sweep_1gpu.log 2>&1
$new sweep --backend cuda --devices all -o $L/sweep_2gpu > $L/sweep_2gpu.log 2>&1
cmp $L/sweep_cpu.csv $L/sweep_1gpu.csv && echo "quickstart csv: 1 GPU identical to cpu"
cmp $L/sweep_cpu.csv $L/sweep_2gpu.csv && echo "quickstart csv: 2 GPUs identical to cpu"
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 2048"
for r in 1 2 3; do
  $r12 $common --devices 0 --chunk-timeline $L/tl_r12_1gpu_$r.csv > $L/r12_1gpu_$r.log 2>&1
  $new $common --devices 0 --chunk-timeline $L/tl_new_1gpu_$r.csv > $L/new_1gpu_$r.log 2>&1
  $new $common --devices all --chunk-timeline $L/tl_new_2gpu_$r.csv > $L/new_2gpu_$r.log 2>&1
  $r12 $common --devices all --chunk-timeline $L/tl_r12_2gpu_$r.csv > $L/r12_2gpu_$r.log 2>&1
  [ $r -le 2 ] && $new $common --devices 0 --max-chunk 104960 --chunk-timeline $L/tl_new_1gpu_wave_$r.csv > $L/new_1gpu_wave_$r.log 2>&1
done
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv >> $L/gpus.txt 2>&1
for f in $L/r12_* $L/new_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only|per device" $f | sed 's/(2 GPUs: device 0: NVIDIA H200, sm_90; device 1: NVIDIA H200, sm_90, driver 13.0)/(2 GPUs)/; s/(device 0: NVIDIA H200, sm_90, driver 13.0)/(1 GPU)/'; done
rm -f $L/sweep_*.json
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
