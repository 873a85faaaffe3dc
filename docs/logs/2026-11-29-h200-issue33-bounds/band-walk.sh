#!/usr/bin/env bash
# band_reversion's stop entries walked on finer bars (a change that did
# not land: docs/PERFORMANCE.md, "Not landed") on one GPU, within what was left of the
# session's device time (a whole scripts/gpu-check did not fit): the
# strategy's parity without finer bars (its plain kernels now take a copy
# of the view), the finer-bar parity of every strategy as gpu-check now
# runs it, the sweep of files cuda = cpu, the speed guard, and the cost:
# A (78026d4's binary) against B (this one) on the speed guard's large
# workload's first 262 144 combinations without finer bars, and B with
# --finer-bars 60, alternating, three rounds, kernels-only cells/s.
#   bash docs/logs/2026-11-29-h200-issue33-bounds/band-walk.sh A_BTFORGE B_BTFORGE OUTDIR > $OUT/band-walk.log
set -u
A=$1; B=$2; d=$3
mkdir -p "$d"
check() {  # check NAME CMD...: one line, ok or FAIL, the log in $d/NAME.log
  local name=$1; shift
  if "$@" > "$d/$name.log" 2>&1; then echo "ok    $name"; else echo "FAIL  $name (rc=$?)"; tail -5 "$d/$name.log"; fi
}
check parity_band_reversion "$B" parity --backend cuda --strategy band_reversion --seed 7 --symbols 4 --bars 20000 \
  --combinations 100000
check parity_single_band_reversion "$B" parity --backend cuda --strategy band_reversion --seed 7 --symbols 1 \
  --bars 20000 --combinations 100000
check parity_jit_band_reversion "$B" parity --backend cuda --jit --jit-cache "$d/jit" --strategy band_reversion \
  --seed 7 --symbols 4 --bars 20000 --combinations 50000
for mode in cross isolated; do
  check "parity_finer_$mode" "$B" parity --backend cuda --seed 7 --symbols 4 --bars 20000 --combinations 100000 \
    --finer-bars 60 --margin-mode "$mode" --report "$d/parity_finer_$mode.json"
done
check parity_finer_single "$B" parity --backend cuda --seed 7 --symbols 1 --bars 20000 --combinations 100000 \
  --finer-bars 60
check parity_finer_jit "$B" parity --backend cuda --jit --jit-cache "$d/jit" --seed 7 --symbols 4 --bars 20000 \
  --combinations 50000 --finer-bars 60
python3 - "$d" <<'PY'
import json, sys
for mode in ("cross", "isolated"):
    for s in json.load(open(f"{sys.argv[1]}/parity_finer_{mode}.json"))["strategies"]:
        print(f"finer {mode} {s['strategy']}: magnified {s['magnified_bars']} in {s['magnified_combinations']} "
              f"combinations, ambiguous {s['ambiguous_bars']}, failed rows {s['failed_rows']}")
PY
"$B" data synth -o "$d/minutes.csv" --synthetic-symbols 4 --synthetic-bars 400000 --synthetic-bar-minutes 1 > /dev/null 2>&1
"$B" data import --format csv --bar 1h "$d/minutes.csv" -o "$d/hours.csv" > /dev/null 2>&1
files=(sweep --strategy band_reversion --data "$d/hours.csv" --intrabar "$d/minutes.csv" --no-market-cache --top 50)
check sweep_intrabar_cpu "$B" "${files[@]}" --backend cpu -o "$d/cpu"
check sweep_intrabar_cuda "$B" "${files[@]}" --backend cuda -o "$d/cuda"
check compare_intrabar cmp "$d/cpu.csv" "$d/cuda.csv"
grep -h "finer bars per bar" "$d/sweep_intrabar_cuda.log" | head -1
check speed_guard scripts/speed-guard "$d/speed-guard" --btforge "$B"
grep -A6 "^speed guard on" "$d/speed_guard.log"
run() {  # run LOG BIN [extra...]
  local log=$1 bin=$2; shift 2
  "$bin" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 --strategy band_reversion "$@" > "$d/$log.log" 2>&1 || echo "FAIL $log"
}
for r in 1 2 3; do
  run "plain_A_$r" "$A"
  run "plain_B_$r" "$B"
  run "finer_B_$r" "$B" --finer-bars 60
done
python3 - "$d" <<'PY'
import collections, glob, re, statistics, sys
k = collections.defaultdict(list)
for p in glob.glob(sys.argv[1] + "/*_[AB]_[123].log"):
    w, v, r = p.rsplit("/", 1)[1][:-4].split("_")
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", open(p).read(), re.M)
    if m: k[(w, v)].append(float(m.group(1)))
a, b, f = (statistics.median(k[x]) for x in (("plain", "A"), ("plain", "B"), ("finer", "B")))
print(f"band_reversion kernels only: plain A {a:.4g}, plain B {b:.4g} (B/A {b/a:.3f}), finer B {f:.4g} "
      f"(finer/plain {f/b:.3f}); runs {dict(k)}")
PY
