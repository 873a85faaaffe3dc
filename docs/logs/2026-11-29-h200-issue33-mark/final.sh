#!/usr/bin/env bash
# The landed binary on one GPU: every strategy's parity with a synthetic mark in both margin modes
# (as mark.sh), then the rest part of scripts/gpu-check (the sanitizer, the sweeps on every path, the
# benchmarks, the speed guard, ncu).
#   bash docs/logs/2026-11-29-h200-issue33-mark/final.sh [PARITY_DIR [GPU_CHECK_DIR [REST_OUT]]] > final.log
B=build/device/host/cli/btforge; d=${1:-/tmp/m}; mkdir -p $d
for mode in cross isolated; do for strategy in $($B strategies --names); do
  spec=parity-tests/specs/${strategy}_leveraged.json; which=(--strategy "$strategy"); [ -f "$spec" ] && which=(--spec "$spec")
  $B parity --backend cuda "${which[@]}" --margin-mode $mode --min-liquidated 0.02 --seed 20240601 --symbols 3 --bars 20000 --combinations 20000 --mark-prices > $d/p_${strategy}_$mode.log 2>&1
  echo "parity $strategy $mode rc=$? $(grep -h '^verdict' $d/p_${strategy}_$mode.log) $(grep -h '^liquidations' $d/p_${strategy}_$mode.log)"
done; done
GPU_CHECK_PART=rest scripts/gpu-check ${2:-/tmp/gc} build/device/host/cli/btforge > ${3:-rest.out} 2>&1; echo "gpu-check rest rc=$?"
head -16 ${3:-rest.out}; grep -c " ok " ${3:-rest.out}; grep FAIL ${3:-rest.out}
