#!/usr/bin/env bash
# Run 33: where the sweep kernel's latency comes from. L1 hit rates of the
# local (per-symbol state) and global (series) loads, L2 traffic, and the
# per-SASS-instruction stall samples of one launch of 65 536 combinations.
set -u
B=build/device/host/cli/btforge
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > $OUT/gpu.txt
args=(bench --backend cuda --workload large --max-combinations 65536 --skip-single-thread --cpu-max-combinations 128)
ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep \
  --metrics l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio \
  "$B" "${args[@]}" > $OUT/ncu_mem.log 2>&1
ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep --section SourceCounters --section WarpStateStats \
  -o $OUT/src "$B" "${args[@]}" > $OUT/ncu_src_run.log 2>&1
ncu -i $OUT/src.ncu-rep --page source --csv --print-source sass > $OUT/src_sass.csv 2> $OUT/src_sass.err
ncu -i $OUT/src.ncu-rep --page details > $OUT/src_details.txt 2>&1
gzip -f $OUT/src_sass.csv
ls -la $OUT
