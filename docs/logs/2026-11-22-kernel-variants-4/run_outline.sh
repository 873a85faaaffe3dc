#!/usr/bin/env bash
# Device run 37: the rare paths kept out of line (`__noinline__` on generated
# device functions) so that the hot loop is shorter in the instruction
# cache. N1: close_position, fill_pending_entry, entry_signal and
# close_at_end_of_data (76 registers: the metrics accumulator, passed by
# reference to close_position, moves to local memory); N16: N1 at (128, 6);
# N3: fill_pending_entry and entry_signal only. Against B (the landed kernel),
# alternating, two runs each; parity of N1 and N16; ncu of each.
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
k() { echo "$PWD/build/kx4/$1/default_sweep.fatbin"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > "$out/gpu.txt"
for v in N1 N16; do
  "$bin" parity --backend cuda --kernels "$(k $v)" --strategy default --seed 7 --symbols 4 \
    --bars 20000 --combinations 20000 > "$out/${v}_parity.log" 2>&1; grep -H "^verdict" "$out/${v}_parity.log"
done
for r in 1 2; do for v in B N1 N16 N3; do
  "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --skip-single-thread \
    --cpu-max-combinations 512 > "$out/${v}_$r.log" 2>&1
  printf '%s run %s %s\n' $v $r "$(grep -m1 '^cuda kernels only' "$out/${v}_$r.log")"
done; done | tee "$out/summary.txt"
for v in N1 N16 N3; do
  ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio,sm__warps_active.avg.pct_of_peak_sustained_active \
    "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 > "$out/ncu_$v.log" 2>&1
  echo "== $v"; sed -n '/Section: Command line profiler metrics/,$p' "$out/ncu_$v.log" | grep -E "^\s+[a-z]"
done | tee "$out/ncu_summary.txt"
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
