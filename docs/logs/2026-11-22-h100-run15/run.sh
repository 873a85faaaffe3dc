set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
for r in 1 2 3; do
  for v in G2 G3mbp6; do
    fb=$PWD/build/kx2/$v/default_sweep.fatbin
    "$bin" bench --backend cuda --kernels "$fb" --workload large --skip-single-thread --cpu-max-combinations 512 > "$out/${v}_run$r.log" 2>&1
    printf '%-8s run %s: %s\n' "$v" "$r" "$(grep -m1 '^cuda kernels only:' "$out/${v}_run$r.log")"
  done
done | tee "$out/summary.txt"
v=G3mbp6; fb=$PWD/build/kx2/$v/default_sweep.fatbin
ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --section WarpStateStats --section Occupancy \
  --metrics sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum \
  "$bin" bench --backend cuda --kernels "$fb" --workload large --max-combinations 262144 --skip-single-thread --cpu-max-combinations 256 > "$out/${v}_ncu.log" 2>&1
grep -E "inst_executed.sum|issue_active|warps_active|duration|fp64|Warp Cycles Per Issued|Registers|thread_inst" "$out/${v}_ncu.log"
tar czf "$out/logs.tgz" -C "$out" $(cd $out && ls *.log) && rm -f "$out"/*.log
