# H100: gpu-check of this session's binary (merged bar exits, no pinned row
# buffers beside the device top N, high-priority selection, three chunks in
# flight below two waves), then the large benchmark alternating with
# session 3's binary (old), one-wave chunks, and ncu stall reasons and clock.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
old=build/device-old/btforge
L=$out/logs
bash scripts/gpu-check $L/gc $new > $L/gc_summary.txt 2>&1
common="bench --backend cuda --workload large --skip-single-thread"
for r in 2 3; do
  $new $common --cpu-max-combinations 16384 --chunk-timeline $L/tl_new_$r.csv > $L/new_large_$r.log 2>&1
  $old $common --cpu-max-combinations 16384 > $L/old_large_$r.log 2>&1
done
$old $common --cpu-max-combinations 16384 > $L/old_large_1.log 2>&1
for r in 1 2; do
  $new $common --cpu-max-combinations 2048 --max-chunk 104960 --chunk-timeline $L/tl_new_wave_$r.csv > $L/new_wave_$r.log 2>&1
done
ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep \
  --metrics sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_branch_resolving.ratio,smsp__average_warp_latency_issue_stalled_dispatch_stall.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_global_ld.sum \
  $new bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread --cpu-max-combinations 256 > $L/ncu_stalls.log 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu,power.draw --format=csv > $L/gpu_after.txt 2>&1
cat $L/gc_summary.txt | tail -30
for f in $L/new_large_* $L/old_large_* $L/new_wave_*; do echo "== $(basename $f)"; grep -E "^cuda \(|kernels only|setup|ratio" $f; done
grep -v "^==PROF==" $L/ncu_stalls.log | grep -E "smsp__|sm__cycles"
rm -f $L/gc/*.json $L/gc/sanitized.csv; rm -rf $L/gc/jit-cache
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
