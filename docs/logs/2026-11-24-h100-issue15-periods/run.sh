#!/usr/bin/env bash
# Issue 15's period statistics on the GPU: parity with 16 periods for every
# strategy, then the large benchmark before/after and at S = 0, 1, 16, twice,
# interleaved.
set -u
out=$1; new=build/device/host/cli/btforge; old=build/device-before/btforge
mkdir -p "$out"
"$new" devices > "$out/devices.log" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv >> "$out/devices.log" 2>&1
"$new" parity --backend cuda --seed 7 --symbols 4 --bars 20000 --combinations 100000 --periods 16 \
  --report "$out/parity_periods.json" > "$out/parity_periods.log" 2>&1; echo "parity rc=$?" >> "$out/summary.txt"
"$new" parity --backend cuda --seed 7 --symbols 4 --bars 20000 --combinations 100000 --periods 16 \
  --from 2024-06-01 --to 2025-06-01 > "$out/parity_periods_window.log" 2>&1; echo "parity window rc=$?" >> "$out/summary.txt"
common=(bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 4096)
for round in 1 2; do
  "$old" "${common[@]}" > "$out/before_$round.log" 2>&1
  for s in 0 1 16; do "$new" "${common[@]}" --periods $s > "$out/periods_${s}_$round.log" 2>&1; done
done
for f in "$out"/before_*.log "$out"/periods_*.log; do
  echo "${f##*/}: $(grep -h 'kernels only' "$f" | head -1)" >> "$out/summary.txt"
  echo "${f##*/}: $(grep -h -E '^cuda \(|^cpu ' "$f" | tr '\n' ' ')" >> "$out/summary.txt"
done
grep -h -E "^strategy|verdict" "$out"/parity_periods*.log >> "$out/summary.txt"
cat "$out/summary.txt"
