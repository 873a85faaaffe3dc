#!/usr/bin/env bash
# Device run 35: W (Note [May-signal bits of several bars]: the may-signal
# test answered for the next 32 / n_symbols bars at once, the EMA values
# carried from bar to bar) against B (the landed kernel, commit 979ca8c),
# alternating, three runs each; W's parity against the CPU reference of the
# binary (commit 979ca8c, same bits); ncu of both on the first launch of the
# large workload, with the stall reasons.
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
k() { echo "$PWD/build/kx4/$1/default_sweep.fatbin"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > "$out/gpu.txt"
for seed in 7 8; do
  "$bin" parity --backend cuda --kernels "$(k W)" --strategy default --seed $seed --symbols 4 \
    --bars 20000 --combinations 50000 > "$out/W_parity_$seed.log" 2>&1; grep -H "^verdict" "$out/W_parity_$seed.log"
done
for shape in "9 7" "10 1" "11 16"; do set -- $shape
  "$bin" parity --backend cuda --kernels "$(k W)" --strategy default --seed $1 --symbols $2 \
    --bars 5000 --combinations 20000 > "$out/W_parity_$1.log" 2>&1; grep -H "^verdict" "$out/W_parity_$1.log"
done
for r in 1 2 3; do for v in B W; do
  "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --skip-single-thread \
    --cpu-max-combinations 512 > "$out/${v}_$r.log" 2>&1
  printf '%s run %s %s\n' $v $r "$(grep -m1 '^cuda kernels only' "$out/${v}_$r.log")"
done; done | tee "$out/summary.txt"
for v in B W; do
  ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep --section WarpStateStats \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_branch_resolving.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio,sm__warps_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active \
    "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 > "$out/ncu_$v.log" 2>&1
  echo "== $v"; sed -n '/Section: Command line profiler metrics/,$p' "$out/ncu_$v.log" | grep -vE "^\s*-+\s*$" | grep -E "^\s+[a-zA-Z]" 
done | tee "$out/ncu_summary.txt"
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
