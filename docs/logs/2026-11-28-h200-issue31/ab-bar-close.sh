#!/bin/bash
# ab-bar-close.sh OUT: the kernels before the shared bar close (A: 0ad06f5's reference, which efd8d82 kept)
# against this tree's (B), alternating, two rounds, kernels-only cells/s in three run shapes; every
# figure appended to OUT/ab.log as it comes.
O=$1; mkdir -p $O; L=$O/ab.log
A=build/ab/btforge-before; B=build/device/host/cli/btforge
for r in 1 2; do
  for s in default sma_cross band_reversion xs_momentum; do
    for shape in "narrow:--symbols 4 --bars 100000:131072" "single:--symbols 1 --bars 200000:131072" "wide:--symbols 64 --bars 25000:32768"; do
      name=${shape%%:*}; rest=${shape#*:}; args=${rest%%:*}; n=${rest##*:}
      for v in A B; do
        bin=${!v}
        echo "bench $s $name $v round $r: $($bin bench --backend cuda --strategy $s --workload large $args --max-combinations $n --skip-single-thread --cpu-max-combinations 64 2>&1 | grep -E '^cuda kernels only' | tr '\n' ' ')" >> $L
      done
    done
  done
done
python3 - "$L" <<'PY'
import re, sys, statistics, collections
fig = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r"bench (\S+) (\S+) ([AB]) round \d+: cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", line)
    if m: fig[m.group(1, 2, 3)].append(float(m.group(4)))
with open(sys.argv[1], "a") as out:
    out.write("strategy        shape   A median     B median     B/A\n")
    for (s, shape, v) in sorted(fig):
        if v != "A" or (s, shape, "B") not in fig: continue
        a = statistics.median(fig[(s, shape, "A")]); b = statistics.median(fig[(s, shape, "B")])
        out.write("%-15s %-7s %.4e   %.4e   %.3f\n" % (s, shape, a, b, b / a))
PY
echo done >> $L
