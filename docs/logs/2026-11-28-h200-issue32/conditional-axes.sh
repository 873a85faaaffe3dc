#!/usr/bin/env bash
# Note [Conditional axes] on the GPU: the default strategy's EMAs and adx_min
# only in mode 0, bb_k only in mode 1.
#  1. the quickstart grid so, cuda against cpu: CSV, JSON rows and the
#     validation file (--pbo --cpcv --walk-forward), byte for byte;
#  2. a random sample of it, cuda against cpu;
#  3. the million-combination grid (spec/grids/default_bench_large.json) with
#     and without the conditions on cuda: combinations, distinct outcomes, the
#     top 20 rows (all but outcome_combinations) and the time.
# Run from the repository root with the device build carried:
#   bash docs/logs/2026-11-28-h200-issue32/conditional-axes.sh build/device/host/cli/btforge > $OUT/conditional-axes.log
set -u
btforge=$1
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
conditional() {  # conditional GRID_IN GRID_OUT [random count]
  python3 - "$1" "$2" "${3:-}" <<'PY'
import json, sys
grid = json.load(open(sys.argv[1]))
for axis, modes in (("ema_fast", [0]), ("ema_slow", [0]), ("adx_min", [0]), ("bb_k", [1])):
    grid["parameters"][axis]["when"] = {"mode": modes}
if sys.argv[3]:
    grid["random"] = {"count": int(sys.argv[3]), "seed": 11}
json.dump(grid, open(sys.argv[2], "w"))
PY
}
conditional spec/grids/default_quickstart.json "$work/quick.json"
conditional spec/grids/default_quickstart.json "$work/sample.json" 300
conditional spec/grids/default_bench_large.json "$work/large.json"
check() {  # check NAME GRID OPTIONS...
  local name=$1 grid=$2; shift 2
  "$btforge" sweep --backend cpu --threads 16 --grid "$grid" "$@" -o "$work/${name}_cpu" > "$work/${name}_cpu.out" 2>/dev/null
  "$btforge" sweep --backend cuda --grid "$grid" "$@" -o "$work/${name}_cuda" > "$work/${name}_cuda.out" 2>/dev/null
  local same="csv"
  cmp -s "$work/${name}_cpu.csv" "$work/${name}_cuda.csv" || same="CSV DIFFERS"
  if [ -f "$work/${name}_cpu.validation.json" ]; then
    cmp -s "$work/${name}_cpu.validation.json" "$work/${name}_cuda.validation.json" && same="$same, validation" ||
      same="$same, VALIDATION DIFFERS"
  fi
  echo "$name: cuda = cpu ($same); $(head -1 "$work/${name}_cuda.out")"
}
check quickstart "$work/quick.json" --pbo --cpcv --walk-forward rolling:4
check sample "$work/sample.json" --top 50
for grid in spec/grids/default_bench_large.json "$work/large.json"; do
  /usr/bin/time -f "wall %e s" "$btforge" sweep --backend cuda --grid "$grid" --synthetic-bars 100000 --threads 16 \
    -o "$work/big" > "$work/large.out" 2> "$work/large.err"
  echo "$(basename "$grid"): $(head -1 "$work/large.out"); $(grep '^backend' "$work/large.out" | sed 's/.* in /sweep /'); $(tail -1 "$work/large.err")"
  awk -F, '{$(NF-1)=""; print}' "$work/big.csv" > "$work/$(basename "$grid").rows"
done
cmp -s "$work/default_bench_large.json.rows" "$work/large.json.rows" && \
  echo "top 20 rows (ids, parameters, metrics, first ids) identical with and without the conditions" || \
  echo "top 20 rows DIFFER"
