set -u
out=$1; mkdir -p $out
bin=build/device/host/cli/btforge
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $out/devices.log 2>&1
for r in 1 2 3; do
  for d in 0 all; do
    $bin bench --backend cuda --devices $d --workload large --skip-single-thread --cpu-max-combinations 4096 > $out/bench_devices_${d}_run$r.log 2>&1
    echo "run $r devices $d: $(grep -E '^cuda \(|^cuda kernels only|setup' $out/bench_devices_${d}_run$r.log | tr '\n' ' ')"
  done
done
