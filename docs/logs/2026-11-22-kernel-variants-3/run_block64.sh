#!/usr/bin/env bash
# Device run 6: the same kernel SASS launched in blocks of 64 threads
# (launch bounds (64, 10): 86 registers, 11 blocks = 22 warps per SM) against
# blocks of 128 ((128, 5): 5 blocks = 20 warps), alternating; parity of the
# 64-thread binary; ncu issue figures and stall reasons for it.
set -u
out=$1; mkdir -p "$out"
b128=build/device-s5final/btforge
b64=build/device-b64/btforge
for s in default sma_cross; do
  "$b64" parity --backend cuda --strategy $s --seed 7 --symbols 4 --bars 20000 --combinations 100000 > "$out/parity64_$s.log" 2>&1
  grep -H "^verdict" "$out/parity64_$s.log"
done
common="bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 2048"
for r in 1 2 3; do
  "$b128" $common > "$out/b128_$r.log" 2>&1
  "$b64" $common > "$out/b64_$r.log" 2>&1
  printf 'run %s 128: %s | 64: %s\n' $r "$(grep -m1 '^cuda kernels only' "$out/b128_$r.log")" "$(grep -m1 '^cuda kernels only' "$out/b64_$r.log")"
done | tee "$out/summary.txt"
m=sm__cycles_elapsed.avg.per_second,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct
for s in long_scoreboard wait no_instruction selected branch_resolving not_selected short_scoreboard; do
  m=$m,smsp__average_warp_latency_issue_stalled_$s.ratio
done
ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --metrics $m --section Occupancy \
  "$b64" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread --cpu-max-combinations 256 > "$out/ncu64.log" 2>&1
grep -E "^\s+(smsp|sm__|gpu__|l1tex)|Achieved Occ|Theoretical Occ|Block Limit Reg" "$out/ncu64.log" >> "$out/summary.txt"
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
