#!/usr/bin/env bash
# Device run 34: B (the landed kernel, commit 979ca8c) against P (Note
# [Prefetched series]: the next sector of the EMA and band series asked for
# each bar, (128, 5)) and P6 (P at (128, 6), 80 registers, 56 B of spills),
# alternating, three runs each; parity of P and P6; ncu of each on the first
# launch of the large workload.
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
k() { echo "$PWD/build/kx4/$1/default_sweep.fatbin"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > "$out/gpu.txt"
for v in P P6; do
  "$bin" parity --backend cuda --kernels "$(k $v)" --strategy default --seed 7 --symbols 4 \
    --bars 20000 --combinations 20000 > "$out/${v}_parity.log" 2>&1; grep -H "^verdict" "$out/${v}_parity.log"
done
for r in 1 2 3; do for v in B P P6; do
  "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --skip-single-thread \
    --cpu-max-combinations 512 > "$out/${v}_$r.log" 2>&1
  printf '%s run %s %s\n' $v $r "$(grep -m1 '^cuda kernels only' "$out/${v}_$r.log")"
done; done | tee "$out/summary.txt"
for v in B P P6; do
  ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,smsp__thread_inst_executed_per_inst_executed.ratio,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,sm__warps_active.avg.pct_of_peak_sustained_active \
    "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 > "$out/ncu_$v.log" 2>&1
  echo "== $v"; sed -n '/Metric Name/,$p' "$out/ncu_$v.log" | grep -vE "^\s*-+" 
done | tee "$out/ncu_summary.txt"
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
