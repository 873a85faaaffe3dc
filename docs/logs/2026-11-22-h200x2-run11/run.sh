set -u
out=$1; mkdir -p $out
bin=build/device/host/cli/btforge
$bin sweep --backend cpu -o $out/sweep_cpu > $out/sweep_cpu.log 2>&1
$bin sweep --backend cuda --devices all -o $out/sweep_2gpu > $out/sweep_2gpu.log 2>&1
cmp $out/sweep_cpu.csv $out/sweep_2gpu.csv && echo "quickstart csv: 2 GPUs identical to cpu"
for d in 0 all; do
  $bin bench --backend cuda --devices $d --workload large --skip-single-thread --cpu-max-combinations 2048 > $out/bench_devices_$d.log 2>&1
  grep -E "^cuda|ratio" $out/bench_devices_$d.log
done
rm -f $out/*.csv $out/*.json
