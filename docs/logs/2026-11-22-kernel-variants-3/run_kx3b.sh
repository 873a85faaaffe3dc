#!/usr/bin/env bash
# Device run 2: bench alternating (two rounds), parity, ncu stall reasons for
# STALLS, and the per-instruction source counters of SRC (built -lineinfo).
# Usage: run_kx3b.sh OUT "V1 V2 ..." "STALL1 ..." SRC
set -u
out=$1; variants=$2; stall_variants=$3; src=$4; mkdir -p "$out"
bin=build/device/host/cli/btforge
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
for v in $variants; do
  [ "$v" = B0 ] && continue
  timeout 120 "$bin" parity --backend cuda --kernels "$PWD/build/kx3/$v/default_sweep.fatbin" --strategy default \
    --seed 7 --symbols 4 --bars 20000 --combinations 20000 > "$out/${v}_parity.log" 2>&1
done
for r in ${ROUNDS:-1 2}; do
for v in $variants; do
  timeout 120 "$bin" bench --backend cuda --kernels "$PWD/build/kx3/$v/default_sweep.fatbin" --workload large \
    --skip-single-thread --cpu-max-combinations 512 > "$out/${v}_bench_run$r.log" 2>&1
  printf "%-6s run %s %s clk %s | %s\n" "$v" "$r" "$(grep -m1 "^cuda kernels only:" "$out/${v}_bench_run$r.log")" "$(nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv,noheader)" \
    "$(grep -h -m1 '^verdict' "$out/${v}_parity.log" 2>/dev/null)"
done
done | tee "$out/summary.txt"
m=sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_global_ld.sum,l1tex__t_sector_hit_rate.pct,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
for s in long_scoreboard wait short_scoreboard math_pipe_throttle no_instruction branch_resolving dispatch_stall lg_throttle mio_throttle not_selected selected barrier membar drain sleeping tex_throttle imc_miss misc; do
  m=$m,smsp__average_warp_latency_issue_stalled_$s.ratio
done
for v in $stall_variants; do
  timeout 200 ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --metrics $m \
    "$bin" bench --backend cuda --kernels "$PWD/build/kx3/$v/default_sweep.fatbin" --workload large \
    --max-combinations 262144 --skip-single-thread --cpu-max-combinations 256 > "$out/${v}_stalls.log" 2>&1
  echo "== $v" >> "$out/summary.txt"; grep -E "^\s+(smsp|sm__|gpu__|l1tex)" "$out/${v}_stalls.log" >> "$out/summary.txt"
done
if [ -n "$src" ]; then
  timeout 300 ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --section SourceCounters \
    -o "$out/${src}_src" "$bin" bench --backend cuda --kernels "$PWD/build/kx3/$src/default_sweep.fatbin" \
    --workload large --max-combinations 65536 --skip-single-thread --cpu-max-combinations 64 > "$out/${src}_src_run.log" 2>&1
  ncu -i "$out/${src}_src.ncu-rep" --page source --csv --print-source sass > "$out/${src}_source.csv" 2>&1
  rm -f "$out/${src}_src.ncu-rep"
fi
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log *.csv 2>/dev/null) && rm -f "$out"/*.log "$out"/*.csv
