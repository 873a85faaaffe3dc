#!/usr/bin/env bash
# Issue 33 item 4, the default strategy's --intrabar cost, two shapes of
# its bar step tried on one GPU against the tree (A: default's kernels as
# f027367's). C: the bar's own step written out beside the walk (a second
# inlined copy of the exits, no loop or selects on the common path), its
# _finer kernels at __launch_bounds__(128, 4) where at 5 blocks per SM the
# copy spills 92 bytes. A4: A's code, its _finer kernels at (128, 4) only,
# to separate the shape from the occupancy. The speed guard's large
# workload (first 262 144 combinations), with and without a synthetic path
# of 60 one-minute bars through every bar, alternating, two rounds;
# kernels-only cells/s. Neither variant is committed: each was a hand edit
# of generated/default_sweep.cu, described here.
#   bash docs/logs/2026-11-30-h200-issue33-cost/shape-ab.sh A C A4 > $OUT/shape-ab.log
set -u
for bin in "$@"; do [ -x "$bin" ] || { [ -f "$bin.gz" ] && gunzip -kf "$bin.gz"; }; done
declare -A bins=([A]=$1 [C]=$2 [A4]=$3)
out=$(mktemp -d)
for r in 1 2; do
  for v in A C A4; do
    for w in finer plain; do
      extra=(); [ $w = finer ] && extra=(--finer-bars 60)
      "${bins[$v]}" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread \
        --cpu-max-combinations 256 --strategy default "${extra[@]}" > "$out/${w}_${v}_$r.log" 2>&1 || echo "FAIL $w $v $r"
    done
  done
done
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
kern = collections.defaultdict(list)
for p in sorted(glob.glob(sys.argv[1] + "/*.log")):
    w, v, r = p.rsplit("/", 1)[1][:-4].split("_")
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", open(p).read(), re.M)
    if m: kern[(w, v)].append(float(m.group(1)))
for v in ("A", "C", "A4"):
    f, p = statistics.median(kern[("finer", v)]), statistics.median(kern[("plain", v)])
    print(f"{v}: finer {f:.4g} plain {p:.4g} cells/s, finer/plain {f/p:.3f} ({p/f:.2f}x the time); "
          f"finer/A's {f/statistics.median(kern[('finer', 'A')]):.3f}, plain/A's {p/statistics.median(kern[('plain', 'A')]):.3f} "
          f"(finer {kern[('finer', v)]}, plain {kern[('plain', v)]})")
PY
