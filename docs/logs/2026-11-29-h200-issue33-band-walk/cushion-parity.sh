#!/usr/bin/env bash
# After the walked position's cushion (cross margin) is marked at the bar's
# adverse extreme: band_reversion's parity on a magnified market in both
# margin modes and without finer bars, on the binary with that change.
#   bash docs/logs/2026-11-29-h200-issue33-band-walk/cushion-parity.sh BTFORGE OUTDIR > $OUT/cushion-parity.log
set -u
b=$1; d=$2; mkdir -p "$d"
for mode in cross isolated; do
  $b parity --backend cuda --strategy band_reversion --seed 7 --symbols 4 --bars 20000 --combinations 100000 \
    --finer-bars 60 --margin-mode $mode --report $d/finer_$mode.json > $d/finer_$mode.log 2>&1
  echo "finer $mode rc=$?"; grep verdict $d/finer_$mode.log
done
$b parity --backend cuda --strategy band_reversion --seed 7 --symbols 4 --bars 20000 --combinations 100000 \
  > $d/plain.log 2>&1
echo "plain rc=$?"; grep verdict $d/plain.log
python3 - "$d" <<'PY'
import json, sys
for m in ("cross", "isolated"):
    for s in json.load(open(f"{sys.argv[1]}/finer_{m}.json"))["strategies"]:
        print(m, s["strategy"], "magnified", s["magnified_bars"], "in", s["magnified_combinations"],
              "ambiguous", s["ambiguous_bars"], "failed", s["failed_rows"])
PY
