set -u
out=$1; mkdir -p $out
bin=build/device/host/cli/btforge
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $out/devices.log 2>&1
for r in 1 2 3; do
  for d in 0 all; do
    $bin bench --backend cuda --devices $d --workload large --skip-single-thread --cpu-max-combinations 4096 > $out/bench_devices_${d}_run$r.log 2>&1
    echo "run $r devices $d: $(grep -E "^cuda contexts|^cuda \(|^cuda kernels only|setup" $out/bench_devices_${d}_run$r.log | tr "\n" " ")"
  done
done
$bin sweep --backend cpu -o $out/sweep_cpu > $out/sweep_cpu.log 2>&1
$bin sweep --backend cuda --devices all -o $out/sweep_2gpu > $out/sweep_2gpu.log 2>&1
cmp $out/sweep_cpu.csv $out/sweep_2gpu.csv && echo "quickstart csv: 2 GPUs identical to cpu" | tee $out/compare.log
$bin bench --backend cuda --devices all --skip-single-thread > $out/bench_standard_devices_all.log 2>&1
grep -E "identical|FAIL" $out/bench_standard_devices_all.log
rm -f $out/*.json $out/*.csv
$bin sweep --backend cuda --devices all -o $out/sweep_2gpu_b > $out/sweep_2gpu_b.log 2>&1
tail -3 $out/sweep_2gpu_b.log
