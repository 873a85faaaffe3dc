#!/usr/bin/env bash
# The legs folded out of the GPU kernels (Note [Kernels for finer bars]:
# the _finer kernels see fine_legs as the constant 0), A/B on one GPU: A is
# a83247a's binary (the legs' branch in the _finer kernels), B the fold.
# The speed guard's large workload (4 symbols x 100 000 hourly bars, its
# first 262 144 combinations), the default strategy with a synthetic path
# of 60 one-minute bars through every bar (bench --finer-bars 60) and
# without, A and B alternating, three rounds; kernels-only cells/s. Then
# ncu's executed instructions of the _finer kernel, A and B.
#   bash docs/logs/2026-11-29-h200-issue33-bounds/fold-ab.sh A_BTFORGE B_BTFORGE > $OUT/fold-ab.log
set -u
A=$1; B=$2
out=$(mktemp -d)
run() {  # run LOG BIN [extra...]
  local log=$1 bin=$2; shift 2
  "$bin" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 --strategy default "$@" > "$out/$log.log" 2>&1 || echo "FAIL $log"
}
for r in 1 2 3; do
  run "finer_A_$r" "$A" --finer-bars 60
  run "finer_B_$r" "$B" --finer-bars 60
  run "plain_A_$r" "$A"
  run "plain_B_$r" "$B"
done
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
kern = collections.defaultdict(list)
for p in sorted(glob.glob(sys.argv[1] + "/*.log")):
    w, v, r = p.rsplit("/", 1)[1][:-4].split("_")
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", open(p).read(), re.M)
    if m: kern[(w, v)].append(float(m.group(1)))
for w in ("finer", "plain"):
    a, b = statistics.median(kern[(w, "A")]), statistics.median(kern[(w, "B")])
    print(f"default {w}: A {a:.4g} cells/s, B {b:.4g} cells/s, B/A {b/a:.3f} (A {kern[(w, 'A')]}, B {kern[(w, 'B')]})")
fa, fb = statistics.median(kern[("finer", "B")]), statistics.median(kern[("plain", "B")])
print(f"B finer/plain {fa/fb:.3f}")
PY
for v in A B; do
  bin=$A; [ $v = B ] && bin=$B
  echo "ncu $v:"
  ncu --kernel-name regex:btforge_default_sweep_finer --launch-count 1 --metrics smsp__inst_executed.sum,launch__registers_per_thread \
    "$bin" bench --backend cuda --workload large --max-combinations 65536 --skip-single-thread \
    --cpu-max-combinations 64 --strategy default --finer-bars 60 2>&1 | grep -E "btforge_default_sweep|inst_executed|registers" | head -4
done
