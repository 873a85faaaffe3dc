#!/usr/bin/env bash
# The mark price (Note [Mark price]) on one GPU: every strategy's parity on
# a market with a synthetic mark (parity --mark-prices; the leveraged specs
# of parity-tests/specs where there is one, so that liquidations happen) in
# both margin modes; the cost of the mark's code to runs without one: A
# (main's binary before it) against B (this one), each strategy's large
# workload's first 262 144 combinations, alternating, two rounds,
# kernels-only cells/s; then the speed guard.
#   bash docs/logs/2026-11-29-h200-issue33-mark/mark.sh A_BTFORGE B_BTFORGE OUTDIR > $OUT/mark.log
set -u
A=$1; B=$2; d=$3
mkdir -p "$d"
for mode in cross isolated; do
  for strategy in $("$B" strategies --names); do
    spec=parity-tests/specs/${strategy}_leveraged.json
    which=(--strategy "$strategy"); [ -f "$spec" ] && which=(--spec "$spec")
    "$B" parity --backend cuda "${which[@]}" --margin-mode $mode --min-liquidated 0.02 --seed 20240601 \
      --symbols 3 --bars 20000 --combinations 20000 --mark-prices > "$d/parity_${strategy}_$mode.log" 2>&1
    echo "parity $strategy $mode rc=$? $(grep -h '^verdict' "$d/parity_${strategy}_$mode.log") $(grep -h '^liquidations' "$d/parity_${strategy}_$mode.log")"
  done
done
grep -h "^market" "$d/parity_default_cross.log" | cut -c1-400
run() {  # run LOG BIN STRATEGY
  "$2" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 --strategy "$3" > "$d/$1.log" 2>&1 || echo "FAIL $1"
}
for r in 1 2; do
  for strategy in $("$B" strategies --names); do
    run "${strategy}_A_$r" "$A" "$strategy"
    run "${strategy}_B_$r" "$B" "$strategy"
  done
done
python3 - "$d" <<'PY'
import collections, glob, re, statistics, sys
k = collections.defaultdict(list)
for p in glob.glob(sys.argv[1] + "/*_[AB]_[12].log"):
    name = p.rsplit("/", 1)[1][:-4]
    strategy, v, r = name.rsplit("_", 2)
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", open(p).read(), re.M)
    if m: k[(strategy, v)].append(float(m.group(1)))
for s in sorted({s for s, _ in k}):
    a, b = statistics.median(k[(s, "A")]), statistics.median(k[(s, "B")])
    print(f"{s} kernels only: A {a:.4g}, B {b:.4g}, B/A {b/a:.3f} (A {k[(s, 'A')]}, B {k[(s, 'B')]})")
PY
scripts/speed-guard "$d/speed-guard" --btforge "$B" > "$d/speed_guard.log" 2>&1; echo "speed guard rc=$?"
grep -A6 "^speed guard on" "$d/speed_guard.log"
