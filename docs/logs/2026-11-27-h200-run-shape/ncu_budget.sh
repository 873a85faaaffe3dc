#!/usr/bin/env bash
# Item 3's first column: instructions per cell of every strategy's sweep kernel, ncu on the first launch of
# the large grid cut to 131 072 combinations (issue 30's frame: 4 symbols x 20 000 bars = 1.0486e10 cells),
# and on 1 symbol x 20 000 bars (the single variant: 2.6214e9 cells).
set -u
out=$1; mkdir -p "$out/ncu"; bin=build/device/host/cli/btforge
m=smsp__thread_inst_executed.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
for s in sma_cross default band_reversion xs_momentum; do
  for n in 4 1; do
    ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --metrics $m \
      "$bin" bench --backend cuda --strategy $s --workload large --max-combinations 131072 --symbols $n --bars 20000 \
      --skip-single-thread --cpu-max-combinations 16 > "$out/ncu/${s}_${n}sym.log" 2>&1
    ti=$(grep -h "smsp__thread_inst_executed.sum" "$out/ncu/${s}_${n}sym.log" | awk '{print $NF}' | tr -d ,)
    echo "$s ${n}sym: thread-instr $ti, per cell $(python3 -c "print(round(float('$ti'.replace(',',''))/(131072*$n*20000),1))" 2>/dev/null)"
    grep -h -E "inst_executed.sum|issue_active|warps_active|per_inst_executed|gpu__time_duration|Function|btforge_" "$out/ncu/${s}_${n}sym.log" | grep -v "^==PROF==" | head -8
  done
done
tar czf "$out/ncu.tgz" -C "$out" ncu && rm -rf "$out/ncu"
