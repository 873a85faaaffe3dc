#!/usr/bin/env bash
# Issue 16's GPU run, in two calls on one H200.
#   run.sh OUT check   gpu-check with margin and liquidation in every kernel (parity of every strategy at
#                      100k combinations, portable math, sanitizers, sweeps = cpu, benchmarks, ncu)
#   run.sh OUT liq     parity with liquidations, cross and isolated, at 100k combinations (the leveraged
#                      spec variants and sma_cross), then the large benchmark before margin existed
#                      (c9768ca, build/before/btforge) and now, alternating, three runs each, and once isolated
set -u
out=$1; what=$2; b=build/device/host/cli/btforge; before=build/before/btforge
large=(bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384)
if [[ $what == check ]]; then
  mkdir -p "$out/gc"
  scripts/gpu-check "$out/gc" "$b" build/device/parity-tests/math/portable_math_parity_cuda > "$out/gc/summary.txt" 2>&1
  rm -f "$out"/gc/*.csv "$out"/gc/*.json 2>/dev/null; rm -rf "$out/gc/jit-cache"
  tail -45 "$out/gc/summary.txt"
  tar czf "$out/issue16_check.tgz" -C "$out" gc
else
  mkdir -p "$out/liq" "$out/ab"
  parity=(parity --backend cuda --seed 7 --symbols 4 --bars 20000 --combinations 100000 --periods 16)
  for mode in cross isolated; do
    for spec in default_leveraged band_reversion_leveraged; do
      "$b" "${parity[@]}" --spec parity-tests/specs/$spec.json --margin-mode $mode --min-liquidated 0.02 \
        > "$out/liq/parity_${spec}_$mode.log" 2>&1; echo "parity $spec $mode rc=$?"
    done
    "$b" "${parity[@]}" --strategy sma_cross --margin-mode $mode > "$out/liq/parity_sma_cross_$mode.log" 2>&1
    echo "parity sma_cross $mode rc=$?"
  done
  grep -h -E "^liquidations|^verdict|^all fields" "$out"/liq/*.log
  for r in 1 2 3; do
    "$before" "${large[@]}" > "$out/ab/before_$r.log" 2>&1
    "$b" "${large[@]}" > "$out/ab/after_$r.log" 2>&1
  done
  "$b" "${large[@]}" --margin-mode isolated > "$out/ab/after_isolated.log" 2>&1
  for f in "$out"/ab/*.log; do echo "${f##*/}: $(grep -h -E 'kernels only' "$f")"; done
  tar czf "$out/issue16_liq.tgz" -C "$out" liq ab
fi
