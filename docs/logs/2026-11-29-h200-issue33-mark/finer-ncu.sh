#!/usr/bin/env bash
# Where --intrabar's cost goes (issue 33, item 4): ncu's counts of the default
# strategy's narrow kernel on bench's large workload (first 65 536
# combinations), without finer bars (the plain kernel) and with a path of 60
# finer bars through every bar (the _finer kernel).
#   bash docs/logs/2026-11-29-h200-issue33-mark/finer-ncu.sh [BTFORGE] > finer-ncu.log
B=${1:-build/device/host/cli/btforge}
for f in "" "--finer-bars 60"; do
  echo "=== default, large, first 65536 combinations ${f:-without finer bars}"
  ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep \
    --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_global_ld.sum,gpu__time_duration.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
    "$B" bench --backend cuda --workload large --max-combinations 65536 --skip-single-thread --cpu-max-combinations 64 \
    --strategy default $f 2>&1 | grep -v "^==PROF==" | sed -n '/btforge_default/,$p'
done
