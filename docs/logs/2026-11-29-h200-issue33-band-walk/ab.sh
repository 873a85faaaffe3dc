#!/usr/bin/env bash
# band_reversion's stop entries walked on finer bars, its plain path kept in
# main's shape (walk_stop_entry_bar apart): A (c33b598's binary) against B
# (this one) on the speed guard's large workload's first 262 144
# combinations without finer bars, and B with --finer-bars 60, alternating,
# three rounds, kernels-only cells/s; then ncu's executed instructions
# and registers of the plain kernel, A and B.
#   bash docs/logs/2026-11-29-h200-issue33-band-walk/ab.sh A_BTFORGE B_BTFORGE OUTDIR > $OUT/ab.log
set -u
A=$1; B=$2; d=$3
mkdir -p "$d"
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
for v in A B; do
  bin=$A; [ $v = B ] && bin=$B
  echo "ncu $v (plain):"
  ncu --kernel-name regex:'btforge_band_reversion_sweep_narrow' --launch-count 1 \
    --metrics smsp__inst_executed.sum,launch__registers_per_thread "$bin" bench --backend cuda --workload large \
    --max-combinations 65536 --skip-single-thread --cpu-max-combinations 64 --strategy band_reversion 2>&1 |
    grep -E "btforge_band_reversion_sweep|inst_executed|registers" | head -4
done
