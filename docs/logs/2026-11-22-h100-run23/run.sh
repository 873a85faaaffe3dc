# H100: the sweep kernel with the largest L1 (carveout preference MAX_L1;
# new) against the session's final binary (final), alternating, and ncu's
# launch statistics and L1 hit rates of the new one.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
final=build/device-final/btforge
L=$out/logs
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 2048"
for r in 1 2 3; do
  $final $common > $L/final_$r.log 2>&1
  $new $common > $L/new_$r.log 2>&1
done
$new sweep --backend cpu -o $L/sweep_cpu > $L/sweep_cpu.log 2>&1
$new sweep --backend cuda -o $L/sweep_cuda > $L/sweep_cuda.log 2>&1
cmp $L/sweep_cpu.csv $L/sweep_cuda.csv && echo "quickstart csv: cuda identical to cpu"
$new parity --backend cuda --strategy default --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $L/parity_default.log 2>&1; echo "parity default rc=$?"
for b in new final; do
  bin=$([ $b = new ] && echo $new || echo $final)
  ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --section LaunchStats \
    --metrics smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum,gpu__time_duration.sum \
    $bin bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread --cpu-max-combinations 256 > $L/ncu_$b.log 2>&1
done
for f in $L/final_* $L/new_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only" $f; done
for b in new final; do echo "== ncu $b"; grep -E "Shared Memory Configuration Size|issue_active|lookup_hit|lookup_miss|gpu__time" $L/ncu_$b.log; done
rm -f $L/sweep_*.json $L/*.csv
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
