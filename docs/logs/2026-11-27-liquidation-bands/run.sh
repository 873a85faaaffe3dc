#!/usr/bin/env bash
# Note [Liquidation bands], measured: every strategy's large workload
# (spec/grids/NAME_bench_large.json, 2^20 combinations, bench's market: 4
# symbols x 100 000 bars), kernels only, three binaries alternating, three
# rounds: 055f519 (build/b055/btforge: default and sma_cross only), the
# commit before the bands (build/old3/btforge: 7c00765) and the bands
# (build/device/host/cli/btforge); sma_cross on 1 symbol x 200 000 bars,
# two rounds; default on 64 and 512 symbols (131 072 combinations), before
# and after. All `cmake --preset device`. NOW was built from the bands,
# which did not land (docs/PERFORMANCE.md, "Liquidation bands"): run1.log
# is their first version, run2.log their second; one H100 each.
set -u
NOW=$PWD/build/device/host/cli/btforge
BEFORE=$PWD/build/old3/btforge
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
        for v in OLD BEFORE NOW; do
            [ $v = OLD ] && [ $s != default ] && [ $s != sma_cross ] && continue
            ${!v} bench $B --strategy $s --grid $S/${s}_bench_large.json > ${s}_${v}_$r.log 2>&1
            echo "round $r $s $v: $(k ${s}_${v}_$r.log)"
        done
    done
done
echo "== sma_cross, 1 symbol x 200 000 bars, 1 048 576 combinations"
for r in 1 2; do
    for v in OLD BEFORE NOW; do
        ${!v} bench $B --strategy sma_cross --grid $S/sma_cross_bench_large.json --symbols 1 --bars 200000 \
            > one_${v}_$r.log 2>&1
        echo "round $r sma_cross 1 symbol $v: $(k one_${v}_$r.log)"
    done
done
echo "== the universe: default, 131 072 combinations"
for shape in "64 25000" "512 3125"; do
    set -- $shape
    for v in BEFORE NOW; do
        ${!v} bench $B --strategy default --grid $S/default_bench_large.json --symbols $1 --bars $2 \
            --max-combinations 131072 > universe_$1_$v.log 2>&1
        echo "$1 symbols x $2 bars $v: $(k universe_$1_$v.log)"
    done
done
cd .. && tar czf logs.tgz logs && rm -rf logs
