#!/usr/bin/env bash
# Issue 33, the default strategy's --intrabar cost: what its narrow kernel
# waits on, without finer bars (plain) and with a path of 60 finer bars
# through every bar (_finer). ncu's warp state statistics (stall reasons per
# issued instruction), memory workload (L1 hit rate of local loads) and
# occupancy; bench's large workload, first 65 536 combinations. A measurement
# for the next attempt's plan, not an attempt.
#   bash docs/logs/2026-11-30-h200-issue33-stalls/stalls.sh BTFORGE > stalls.log
B=${1:?usage: stalls.sh BTFORGE}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for f in "" "--finer-bars 60"; do
  echo "=== default, large, first 65536 combinations ${f:-without finer bars}"
  ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep \
    --section WarpStateStats --section MemoryWorkloadAnalysis_Tables --section Occupancy --section SchedulerStats \
    --metrics smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum \
    "$B" bench --backend cuda --workload large --max-combinations 65536 --skip-single-thread --cpu-max-combinations 64 \
    --strategy default $f 2>&1 | grep -v "^==PROF==" | sed -n '/btforge_default/,$p'
done
