#!/usr/bin/env bash
# Device run: parity and the large benchmark for each kx3 variant (--kernels),
# alternating, then ncu on the variants named in NCU. Usage: run_kx3.sh OUT "V1 V2 ..." "NCU1 ..."
set -u
out=$1; variants=$2; ncu_variants=${3:-}; mkdir -p "$out"
bin=build/device/host/cli/btforge
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/gpu.txt" 2>&1
for v in $variants; do
  fb=$PWD/build/kx3/$v/default_sweep.fatbin
  timeout 120 "$bin" parity --backend cuda --kernels "$fb" --strategy default --seed 7 --symbols 4 --bars 20000 \
    --combinations 20000 > "$out/${v}_parity.log" 2>&1
done
for r in 1 2; do
for v in $variants; do
  fb=$PWD/build/kx3/$v/default_sweep.fatbin
  timeout 120 "$bin" bench --backend cuda --kernels "$fb" --workload large --skip-single-thread \
      --cpu-max-combinations 512 > "$out/${v}_bench_run$r.log" 2>&1
  printf '%-6s run %s %s | %s\n' "$v" "$r" "$(grep -m1 '^cuda kernels only:' "$out/${v}_bench_run$r.log")" "$(grep -m1 -E '^verdict|bit-identical' "$out/${v}_parity.log")"
done
done | tee "$out/summary.txt"
for v in $ncu_variants; do
  fb=$PWD/build/kx3/$v/default_sweep.fatbin
  timeout 200 ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep \
    --section WarpStateStats --section Occupancy --section LaunchStats \
    --metrics sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,smsp__thread_inst_executed.sum,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,smsp__inst_executed_op_local_ld.sum,smsp__inst_executed_op_global_ld.sum \
    "$bin" bench --backend cuda --kernels "$fb" --workload large --max-combinations 262144 --skip-single-thread --cpu-max-combinations 256 > "$out/${v}_ncu.log" 2>&1
  grep -E "issue_active|inst_executed.sum |Warp Cycles Per Issued|Stall|thread_inst_executed_per|gpu__time_duration|local_op_ld|hit_rate|fp64" "$out/${v}_ncu.log" | head -30 >> "$out/summary.txt"
done
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
