#!/usr/bin/env bash
# Issue 30's table, from one H100 run: every strategy's large workload
# (spec/grids/NAME_bench_large.json, 2^20 combinations, bench's market: 4
# symbols x 100 000 bars), kernels only, 055f519's binary (before issues
# 13-19; it has default and sma_cross only) and now's alternating, three
# rounds; sma_cross on 1 symbol x 200 000 bars (the hand-written kernel's
# workload), both binaries, two rounds; then the cost per cell as the
# universe grows (now): default on 4, 64 and 512 symbols, 131 072
# combinations each. Binaries: build/b055/btforge (cmake --preset device of
# 055f519) and build/device/host/cli/btforge (the commit of this log).
set -u
NOW=$PWD/build/device/host/cli/btforge
OLD=$PWD/build/b055/btforge
S=$PWD/spec/grids
mkdir -p "$OUT/logs"; cd "$OUT/logs"
exec > >(tee ../run.log) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader -i 0
k() { grep -h '^cuda kernels only' "$1" | cut -d'(' -f1; }
B="--backend cuda --skip-single-thread --cpu-max-combinations 1024"
echo "== large workloads, kernels only"
for r in 1 2 3; do
    for s in default sma_cross band_reversion xs_momentum; do
        for v in OLD NOW; do
            [ $v = OLD ] && [ $s != default ] && [ $s != sma_cross ] && continue
            ${!v} bench $B --strategy $s --grid $S/${s}_bench_large.json > ${s}_${v}_$r.log 2>&1
            echo "round $r $s $v: $(k ${s}_${v}_$r.log)"
        done
    done
done
echo "== sma_cross, 1 symbol x 200 000 bars, 1 048 576 combinations"
for r in 1 2; do
    for v in OLD NOW; do
        ${!v} bench $B --strategy sma_cross --grid $S/sma_cross_bench_large.json --symbols 1 --bars 200000 \
            > one_${v}_$r.log 2>&1
        echo "round $r sma_cross 1 symbol $v: $(k one_${v}_$r.log)"
    done
done
echo "== the universe: default, 131 072 combinations (now)"
for shape in "4 25000" "64 25000" "512 3125"; do
    set -- $shape
    $NOW bench $B --strategy default --grid $S/default_bench_large.json --symbols $1 --bars $2 \
        --max-combinations 131072 > universe_$1.log 2>&1
    echo "$1 symbols x $2 bars: $(k universe_$1.log); $(grep -h 'kernel variant' universe_$1.log | head -1)"
done
cd .. && tar czf logs.tgz logs && rm -rf logs
