#!/usr/bin/env bash
# Device run 7: the may-signal loops unrolled 1 (landed), 2 and 4 times, with
# the series pointers kept whole (the landed kernel otherwise), alternating;
# ncu issue figures for the unrolled ones.
set -u
out=$1; mkdir -p "$out"
bin=build/device-s5final/btforge
for v in W2 W4; do
  "$bin" parity --backend cuda --kernels "$PWD/build/kx3/$v/default_sweep.fatbin" --strategy default --seed 7 --symbols 4 \
    --bars 20000 --combinations 20000 > "$out/${v}_parity.log" 2>&1; grep -H "^verdict" "$out/${v}_parity.log"
done
for r in 1 2 3; do for v in W1 W2 W4; do
  "$bin" bench --backend cuda --kernels "$PWD/build/kx3/$v/default_sweep.fatbin" --workload large --skip-single-thread \
    --cpu-max-combinations 512 > "$out/${v}_$r.log" 2>&1
  printf '%s run %s %s\n' $v $r "$(grep -m1 '^cuda kernels only' "$out/${v}_$r.log")"
done; done | tee "$out/summary.txt"
m=smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum
for s in long_scoreboard wait no_instruction selected branch_resolving; do m=$m,smsp__average_warp_latency_issue_stalled_$s.ratio; done
for v in W2 W4; do
  ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --metrics $m "$bin" bench --backend cuda \
    --kernels "$PWD/build/kx3/$v/default_sweep.fatbin" --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 > "$out/${v}_ncu.log" 2>&1
  echo "== $v" >> "$out/summary.txt"; grep -E "^\s+(smsp|gpu__)" "$out/${v}_ncu.log" >> "$out/summary.txt"
done
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
