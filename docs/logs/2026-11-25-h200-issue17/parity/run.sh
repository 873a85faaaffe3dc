#!/usr/bin/env bash
# Issue 17 on the GPU, final binary, part 2: parity at 300 and 512 symbols,
# and the imported 300-symbol market, cpu against cuda.
set -u
B=build/device/host/cli/btforge
L=/tmp/d2; mkdir -p $L
t() { local name=$1; shift; local s=$(date +%s%N); "$@" > $L/$name.log 2>&1; local rc=$?; echo "$name rc=$rc $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $L/times.txt; }
for mode in cross isolated; do
  t parity_xs_synthetic300_$mode $B parity --backend cuda --spec parity-tests/specs/xs_momentum_universe.json --margin-mode $mode --symbols 300 --bars 2000 --combinations 100000 --report $L/parity_xs_synthetic300_$mode.json
done
t parity_default512 $B parity --backend cuda --strategy default --symbols 512 --bars 2000 --combinations 20000 --report $L/parity_default512.json
python3 scripts/binance-kline-dumps --symbols 300 --months 2024-01 2024-02 2024-03 -o /tmp/dumps > $L/dumps.log 2>&1
t import $B data import --format binance-klines /tmp/dumps/*.csv -o /tmp/imported.csv
for b in cpu cuda; do
  t imported_$b $B sweep --strategy xs_momentum --grid parity-tests/grids/xs_momentum_universe.json --data /tmp/imported.csv --backend $b --all-rows --output /tmp/imported_$b
done
{ if cmp /tmp/imported_cpu.csv /tmp/imported_cuda.csv; then echo "imported: cpu and cuda CSVs byte-identical ($(wc -l < /tmp/imported_cpu.csv) lines)"; fi
  sha256sum /tmp/imported_cpu.csv /tmp/imported_cuda.csv; } > $L/imported_cmp.txt 2>&1
cp build/run17/d2.sh $L/run.sh
tar -C /tmp -czf $OUT/d2.tar.gz d2
cat $L/times.txt $L/imported_cmp.txt
