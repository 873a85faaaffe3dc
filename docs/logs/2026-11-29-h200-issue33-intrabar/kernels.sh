#!/usr/bin/env bash
# The four kernels of the default strategy (Note [Kernels for finer bars])
# against the reference on one GPU: the plain and _periods kernels, which
# see no finer bars (parity without --finer-bars, with and without period
# statistics and equity marks), and the _finer and _periods_finer kernels
# (parity with --finer-bars 60, with and without them), each in both margin
# modes where it walks; then a sweep of files (minutes of the synthetic
# market and the hours `data import` makes of them) on the CPU and the GPU,
# whose CSVs must be equal.
#   bash docs/logs/2026-11-29-h200-issue33-intrabar/kernels.sh BTFORGE > $OUT/kernels.log
set -u
B=$1
out=$(mktemp -d)
p=(parity --backend cuda --strategy default --seed 7 --bars 20000 --combinations 100000)
check() {  # check NAME args...
  local name=$1; shift
  "$B" "$@" > "$out/$name.log" 2>&1; local rc=$?
  echo "$name: rc=$rc $(grep -E '^verdict|^magnified bars|^ambiguous bars|^liquidations' "$out/$name.log" | tr '\n' ' ')"
}
check plain "${p[@]}" --symbols 4 --periods 0 --equity-marks 0
check periods "${p[@]}" --symbols 4
check finer_plain_cross "${p[@]}" --symbols 4 --periods 0 --equity-marks 0 --finer-bars 60
check finer_periods_cross "${p[@]}" --symbols 4 --finer-bars 60
check finer_periods_isolated "${p[@]}" --symbols 4 --finer-bars 60 --margin-mode isolated
check finer_single "${p[@]}" --symbols 1 --finer-bars 60
grep -h "^market:" "$out/finer_plain_cross.log"
mkdir -p "$out/intrabar"
"$B" data synth -o "$out/intrabar/minutes.csv" --synthetic-symbols 4 --synthetic-bars 400000 --synthetic-bar-minutes 1 > /dev/null 2>&1
"$B" data import --format csv --bar 1h "$out/intrabar/minutes.csv" -o "$out/intrabar/hours.csv" > /dev/null 2>&1
for backend in cpu cuda; do
  "$B" sweep --data "$out/intrabar/hours.csv" --intrabar "$out/intrabar/minutes.csv" --no-market-cache --top 50 \
    --backend $backend -o "$out/intrabar/$backend" > "$out/intrabar_$backend.log" 2>&1 || echo "FAIL sweep $backend"
done
grep -h "market:" "$out/intrabar_cpu.log"
cmp "$out/intrabar/cpu.csv" "$out/intrabar/cuda.csv" && echo "sweep --intrabar: cuda csv = cpu csv ($(wc -l < "$out/intrabar/cpu.csv") lines)"
python3 - "$out/intrabar/cpu.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print("sweep --intrabar top %d rows: magnified_bars %s, ambiguous_bars %s" % (
    len(rows), sorted(int(r["magnified_bars"]) for r in rows)[len(rows) // 2],
    sorted(int(r["ambiguous_bars"]) for r in rows)[len(rows) // 2]), "(medians)")
PY
