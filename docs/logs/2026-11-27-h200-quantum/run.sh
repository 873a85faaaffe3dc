#!/usr/bin/env bash
# The binary accounting quantum (issue 29), in two calls on one machine.
#   run.sh OUT ab      every strategy's benchmark, the binary of c035546 ("base": round(x*1e12)/1e12,
#                      build/head-device/btforge) and of the binary quantum ("new", build/device/host/cli/btforge),
#                      alternating, three rounds
#   run.sh OUT check   gpu-check (parity of every strategy at 100k combinations with the indicators of TA-Lib
#                      0.8.1's arithmetic, portable math, sanitizers, sweeps = cpu, benchmarks, ncu), then parity
#                      with liquidations in both margin modes, and account sizes 1e2 .. 1e12 (the quantum's range)
set -u
out=$1; what=$2; new=build/device/host/cli/btforge; base=build/head-device/btforge
logs=docs/logs/2026-11-27-h200-issue29  # the grids of issue 29's figures
if [[ $what == ab ]]; then
  mkdir -p "$out/ab"
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,temperature.gpu --format=csv > "$out/ab/devices.txt" 2>&1
  for r in 1 2 3; do
    for s in default sma_cross band_reversion xs_momentum; do
      if [[ $s == default ]]; then work=(--workload large); else work=(--grid "$logs/grids/$s.json"); fi
      for b in base new; do
        bin=$base; [[ $b == new ]] && bin=$new
        "$bin" bench --backend cuda --strategy "$s" "${work[@]}" --skip-single-thread --cpu-max-combinations 2048 \
          > "$out/ab/${s}_${b}_$r.log" 2>&1
      done
    done
  done
  for f in "$out"/ab/*.log; do echo "${f##*/}: $(grep -h -E 'kernels only' "$f")"; done | tee "$out/ab/summary.txt"
  tar czf "$out/quantum_ab.tgz" -C "$out" ab && rm -rf "$out/ab"
else
  mkdir -p "$out/gc" "$out/liq"
  scripts/gpu-check "$out/gc" "$new" build/device/parity-tests/math/portable_math_parity_cuda > "$out/gc/summary.txt" 2>&1
  rm -f "$out"/gc/*.csv "$out"/gc/*.json 2>/dev/null; rm -rf "$out/gc/jit-cache"
  tail -45 "$out/gc/summary.txt"
  parity=(parity --backend cuda --seed 7 --symbols 4 --bars 20000 --combinations 100000 --periods 16)
  for mode in cross isolated; do
    for spec in default_leveraged band_reversion_leveraged; do
      "$new" "${parity[@]}" --spec parity-tests/specs/$spec.json --margin-mode $mode --min-liquidated 0.02 \
        > "$out/liq/parity_${spec}_$mode.log" 2>&1; echo "parity $spec $mode rc=$?"
    done
  done
  # Account sizes across the accepted range, every strategy (Note [Accounting quantum]).
  for equity in 100 10000 1000000 100000000 1000000000000; do
    "$new" parity --backend cuda --seed 11 --symbols 4 --bars 5000 --combinations 20000 --initial-equity $equity \
      > "$out/liq/parity_equity_$equity.log" 2>&1; echo "parity every strategy, initial equity $equity rc=$?"
  done
  grep -h -E "^liquidations|^verdict|^all fields|bit-identical" "$out"/liq/*.log | sort | uniq -c | head -40
  tar czf "$out/quantum_check.tgz" -C "$out" gc liq && rm -rf "$out/gc" "$out/liq"
fi
