#!/usr/bin/env bash
# Device run 5: the binary with Note [Series pointers kept whole] (embedded
# kernels) against F5 (the previous kernel, --kernels), alternating; parity of
# both strategies; --jit on the quickstart (CSV identical) and the large
# workload; ncu issue figures and stall reasons of the new kernel.
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
for s in default sma_cross; do
  "$bin" parity --backend cuda --strategy $s --seed 7 --symbols 4 --bars 20000 --combinations 100000 > "$out/parity_$s.log" 2>&1
  grep -H "^verdict" "$out/parity_$s.log"
done
"$bin" sweep --backend cpu -o "$out/q_cpu" > /dev/null 2>&1
"$bin" sweep --backend cuda -o "$out/q_cuda" > /dev/null 2>&1 && cmp "$out/q_cpu.csv" "$out/q_cuda.csv" && echo "quickstart: cuda csv identical"
"$bin" sweep --backend cuda --jit --jit-cache "$out/jit" -o "$out/q_jit" > "$out/q_jit.log" 2>&1 && cmp "$out/q_cpu.csv" "$out/q_jit.csv" && echo "quickstart: --jit csv identical"
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 4096"
for r in 1 2 3; do
  "$bin" $common > "$out/new_$r.log" 2>&1
  "$bin" $common --kernels "$PWD/build/kx3/F5/default_sweep.fatbin" > "$out/f5_$r.log" 2>&1
  printf 'run %s new: %s | F5: %s\n' $r "$(grep -m1 '^cuda kernels only' "$out/new_$r.log")" "$(grep -m1 '^cuda kernels only' "$out/f5_$r.log")"
done | tee "$out/summary.txt"
"$bin" $common --jit --jit-cache "$out/jit" > "$out/jit_large.log" 2>&1; grep -E "kernel NVRTC|kernels only" "$out/jit_large.log" | tee -a "$out/summary.txt"
m=sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_generic_ld.sum,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
for s in long_scoreboard wait short_scoreboard math_pipe_throttle no_instruction branch_resolving dispatch_stall lg_throttle mio_throttle not_selected selected; do
  m=$m,smsp__average_warp_latency_issue_stalled_$s.ratio
done
ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --metrics $m \
  "$bin" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread --cpu-max-combinations 256 > "$out/ncu_new.log" 2>&1
grep -E "^\s+(smsp|sm__|gpu__)" "$out/ncu_new.log" >> "$out/summary.txt"
rm -rf "$out/jit" "$out"/q_*.json
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log *.csv) && rm -f "$out"/*.log "$out"/*.csv
