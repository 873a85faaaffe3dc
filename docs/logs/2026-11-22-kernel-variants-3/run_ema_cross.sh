#!/usr/bin/env bash
# Device run 8: E1 (trend_signal and the may-signal loop share one ema_cross
# helper; same results, different SASS layout) against W1 (the landed
# kernel), alternating, three runs each, and E1's parity.
set -u
out=$1; mkdir -p "$out"
bin=build/device-s5final/btforge
"$bin" parity --backend cuda --kernels "$PWD/build/kx3/E1/default_sweep.fatbin" --strategy default --seed 7 --symbols 4 \
  --bars 20000 --combinations 20000 > "$out/E1_parity.log" 2>&1; grep -H "^verdict" "$out/E1_parity.log"
for r in 1 2 3; do for v in W1 E1; do
  "$bin" bench --backend cuda --kernels "$PWD/build/kx3/$v/default_sweep.fatbin" --workload large --skip-single-thread \
    --cpu-max-combinations 512 > "$out/${v}_$r.log" 2>&1
  printf '%s run %s %s\n' $v $r "$(grep -m1 '^cuda kernels only' "$out/${v}_$r.log")"
done; done | tee "$out/summary.txt"
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
