#!/usr/bin/env bash
# Issue 33 item 4, the cost of --intrabar, on one GPU. A is main's binary
# (f027367), B the change: band_reversion's walk ends at the fill where the
# rest of the bar cannot close the position (Note [Out of reach for the rest
# of a bar]), and the default strategy counts its ambiguous and magnified
# bars in two ints (Note [Bar counts in registers]). The speed guard's large
# workload (4 symbols x 100 000 hourly bars, its first 262 144
# combinations), default and band_reversion, without and with a synthetic
# path of 60 one-minute bars through every bar (bench --finer-bars 60), A
# and B alternating, two rounds; kernels-only cells/s. Then B's parity on
# the magnified market (every strategy, both margin modes), and ncu's
# executed warp-instructions of the narrow _finer kernels, A and B.
#   bash docs/logs/2026-11-30-h200-issue33-cost/cost-ab.sh A_BTFORGE B_BTFORGE > $OUT/cost-ab.log
set -u
A=$1; B=$2
for bin in "$A" "$B"; do [ -x "$bin" ] || { [ -f "$bin.gz" ] && gunzip -kf "$bin.gz"; }; done
out=$(mktemp -d)
run() {  # run LOG BIN [extra...]
  local log=$1 bin=$2; shift 2
  "$bin" bench --backend cuda --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 "$@" > "$out/$log.log" 2>&1 || echo "FAIL $log"
}
for r in 1 2; do
  for s in default band_reversion; do
    run "${s}_finer_A_$r" "$A" --strategy "$s" --finer-bars 60
    run "${s}_finer_B_$r" "$B" --strategy "$s" --finer-bars 60
    run "${s}_plain_A_$r" "$A" --strategy "$s"
    run "${s}_plain_B_$r" "$B" --strategy "$s"
  done
done
python3 - "$out" <<'PY'
import collections, glob, re, statistics, sys
kern = collections.defaultdict(list)
for p in sorted(glob.glob(sys.argv[1] + "/*.log")):
    s, w, v, r = p.rsplit("/", 1)[1][:-4].rsplit("_", 3)
    m = re.search(r"^cuda kernels only: [0-9.e+-]+ s, ([0-9.e+-]+) cells/s", open(p).read(), re.M)
    if m: kern[(s, w, v)].append(float(m.group(1)))
for s in ("default", "band_reversion"):
    for w in ("finer", "plain"):
        a, b = statistics.median(kern[(s, w, "A")]), statistics.median(kern[(s, w, "B")])
        print(f"{s} {w}: A {a:.4g} cells/s, B {b:.4g} cells/s, B/A {b/a:.3f} (A {kern[(s, w, 'A')]}, B {kern[(s, w, 'B')]})")
    for v in ("A", "B"):
        f, p = statistics.median(kern[(s, "finer", v)]), statistics.median(kern[(s, "plain", v)])
        print(f"{s} {v} finer/plain {f/p:.3f} ({p/f:.2f}x the time)")
PY
for mode in cross isolated; do
  echo "parity B finer bars $mode:"
  "$B" parity --backend cuda --seed 7 --symbols 4 --bars 20000 --combinations 100000 --finer-bars 60 \
    --margin-mode "$mode" 2>&1 | grep -Ei "strategy|identical|walked|magnified|mismatch|FAIL|parity" | head -20
done
for s in default band_reversion; do
  for w in finer; do
    extra=(--finer-bars 60)
    for v in A B; do
      bin=$A; [ $v = B ] && bin=$B
      echo "ncu $s $w $v:"
      ncu --kernel-name regex:btforge_${s}_sweep --launch-count 1 \
        --metrics smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum \
        "$bin" bench --backend cuda --workload large --max-combinations 65536 --skip-single-thread \
        --cpu-max-combinations 64 --strategy "$s" "${extra[@]}" 2>&1 | grep -E "btforge_.*_sweep|inst_executed|registers|duration" | head -4
    done
  done
done
