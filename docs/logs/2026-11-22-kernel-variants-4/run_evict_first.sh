#!/usr/bin/env bash
# Device run 38: S1 (the six series loads of the may-signal loop with L1
# evict-first priority, `__ldcs` = LDG.E.EF, so that the per-combination
# series streams give way to the per-thread state in L1) against B (the
# landed kernel), alternating, three runs each; S1's parity; ncu L1 hit
# rates of both.
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
k() { echo "$PWD/build/kx4/$1/default_sweep.fatbin"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,temperature.gpu --format=csv > "$out/gpu.txt"
"$bin" parity --backend cuda --kernels "$(k S1)" --strategy default --seed 7 --symbols 4 \
  --bars 20000 --combinations 20000 > "$out/S1_parity.log" 2>&1; grep -H "^verdict" "$out/S1_parity.log"
for r in 1 2 3; do for v in B S1; do
  "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --skip-single-thread \
    --cpu-max-combinations 512 > "$out/${v}_$r.log" 2>&1
  printf '%s run %s %s\n' $v $r "$(grep -m1 '^cuda kernels only' "$out/${v}_$r.log")"
done; done | tee "$out/summary.txt"
for v in B S1; do
  ncu --clock-control none --launch-count 1 -k regex:btforge_default_sweep \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio \
    "$bin" bench --backend cuda --kernels "$(k $v)" --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 > "$out/ncu_$v.log" 2>&1
  echo "== $v"; sed -n '/Section: Command line profiler metrics/,$p' "$out/ncu_$v.log" | grep -E "^\s+[a-z]"
done | tee "$out/ncu_summary.txt"
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
