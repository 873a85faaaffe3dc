#!/usr/bin/env bash
# ncu on one launch of sma_cross's large grid (131 072 combinations x 20 000
# bars), 4 symbols (narrow) and 1 symbol (single), the binary before the
# bands (build/old3/btforge) and with them (build/device/host/cli/btforge).
set -u
NOW=$PWD/build/device/host/cli/btforge
BEFORE=$PWD/build/old3/btforge
G=$PWD/spec/grids/sma_cross_bench_large.json
mkdir -p "$OUT"; cd "$OUT"
M=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,smsp__sass_average_branch_targets_threads_uniform.pct,gpu__time_duration.sum,launch__registers_per_thread
for sym in 4 1; do
  for v in BEFORE NOW; do
    ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --metrics $M \
      ${!v} bench --backend cuda --strategy sma_cross --grid $G --symbols $sym --bars 20000 \
      --max-combinations 131072 --skip-single-thread --cpu-max-combinations 64 > ncu_${sym}_$v.log 2>&1
    echo "== $sym symbols $v"; grep -E "^\s+(smsp|l1tex|gpu__|launch__)" ncu_${sym}_$v.log
  done
done | tee ncu_summary.txt
