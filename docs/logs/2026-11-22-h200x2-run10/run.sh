set -u
out=$1; mkdir -p $out
new=build/device/host/cli/btforge
old=build/kx2/btforge_run9
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $out/devices.log 2>&1
line() { grep -E "^cuda \(|^cuda kernels only|^cuda kernels per device" $1 | sed -E 's/\(device 0: NVIDIA H200.*driver 13.0\)//; s/\(2 GPUs.*driver 13.0\)//' | tr "\n" " "; }
for r in 1 2 3; do
  $new bench --backend cuda --devices 0 --workload large --skip-single-thread --cpu-max-combinations 2048 > $out/new_devices_0_run$r.log 2>&1
  echo "run $r new 1 GPU: $(line $out/new_devices_0_run$r.log)"
  $new bench --backend cuda --devices all --workload large --skip-single-thread --cpu-max-combinations 2048 > $out/new_devices_all_run$r.log 2>&1
  echo "run $r new 2 GPUs: $(line $out/new_devices_all_run$r.log)"
  $old bench --backend cuda --devices all --workload large --skip-single-thread --cpu-max-combinations 2048 > $out/old_devices_all_run$r.log 2>&1
  echo "run $r old 2 GPUs: $(line $out/old_devices_all_run$r.log)"
done
$new sweep --backend cpu -o $out/sweep_cpu > $out/sweep_cpu.log 2>&1
$new sweep --backend cuda --devices all -o $out/sweep_2gpu > $out/sweep_2gpu.log 2>&1
cmp $out/sweep_cpu.csv $out/sweep_2gpu.csv && echo "quickstart csv: 2 GPUs identical to cpu"
$new bench --backend cuda --devices all --skip-single-thread > $out/bench_standard_devices_all.log 2>&1
grep -E "identical|FAIL" $out/bench_standard_devices_all.log
rm -f $out/*.json $out/*.csv
tar czf $out/logs.tgz -C $out $(cd $out && ls *.log) && rm -f $out/*.log
