# 2 x H200: the merged bar exits (new) against session 3's binary (old) on one
# GPU, chunk timelines for one GPU (default chunks and one-wave chunks) and two.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
old=build/device-old/btforge
L=$out/logs
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > $L/gpus.txt 2>&1
$new parity --backend cuda --strategy default --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $L/parity_default.log 2>&1; echo "parity default rc=$?"
$new parity --backend cuda --strategy sma_cross --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $L/parity_sma_cross.log 2>&1; echo "parity sma_cross rc=$?"
$new sweep --backend cpu -o $L/sweep_cpu > $L/sweep_cpu.log 2>&1
$new sweep --backend cuda --devices all -o $L/sweep_2gpu > $L/sweep_2gpu.log 2>&1
cmp $L/sweep_cpu.csv $L/sweep_2gpu.csv && echo "quickstart csv: 2 GPUs identical to cpu"
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 2048"
for r in 1 2 3; do
  $old $common --devices 0 > $L/old_1gpu_$r.log 2>&1
  $new $common --devices 0 --chunk-timeline $L/tl_1gpu_$r.csv > $L/new_1gpu_$r.log 2>&1
  $new $common --devices all --chunk-timeline $L/tl_2gpu_$r.csv > $L/new_2gpu_$r.log 2>&1
  $new $common --devices 0 --max-chunk 104960 --chunk-timeline $L/tl_1gpu_wave_$r.csv > $L/new_1gpu_wave_$r.log 2>&1
done
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv >> $L/gpus.txt 2>&1
for f in $L/old_1gpu_* $L/new_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only|per device|setup" $f; done
rm -f $L/*.csv.json $L/sweep_*.json
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
