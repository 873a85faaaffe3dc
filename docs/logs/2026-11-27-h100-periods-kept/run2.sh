#!/usr/bin/env bash
# Note [Period statistics kept as they arrive], second run: the chunk's
# period statistics brought back through a 32 MB pinned staging buffer in
# pieces instead of a pinned copy of the whole chunk (STAGED, the commit of
# this log), against dede755 (OLD: sized and zeroed before the first
# kernel) and 4e5c581 (NEW: reserved and appended, whole-chunk pinned
# buffers), alternating, two rounds; the files of all three, cuda against
# cpu on the quickstart, parity with period statistics.
set -u
STAGED=$PWD/build/device/host/cli/btforge
NEW=$PWD/build/old2/btforge_abc0d07
OLD=$PWD/build/old2/btforge_before_periods
G=$PWD/spec/grids/default_bench_large.json
mkdir -p "$OUT/logs"; cd "$OUT/logs"
exec > >(tee ../run2.log) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0
same() { for s in "$@"; do cmp "$1" "$s" >/dev/null || { echo "DIFFER: $1 $s"; return 1; }; done; echo "same: $*"; }
for r in 1 2; do
    for v in OLD NEW STAGED; do
        ${!v} bench --backend cuda --workload large --periods 16 --skip-single-thread --cpu-max-combinations 1024 \
            > bench_${v}_$r.log 2>&1
        echo "bench --periods 16 round $r $v: $(grep -h '^cuda (' bench_${v}_$r.log | sed 's/.*): //'); $(grep -h '^cuda kernels only' bench_${v}_$r.log | cut -d'(' -f1); $(grep -h "chunks' buffers" bench_${v}_$r.log | sed 's/.*of which//')"
    done
done
for r in 1 2; do
    for v in OLD NEW STAGED; do
        s=$(date +%s.%N)
        ${!v} sweep --grid $G --synthetic-bars 100000 --backend cuda --pbo --walk-forward rolling:4 -o sweep_${v}_$r \
            > sweep_${v}_$r.out 2> sweep_${v}_$r.err
        e=$(date +%s.%N); echo "sweep --pbo --walk-forward round $r $v: rc=$? wall $(awk "BEGIN{printf \"%.2f\", $e - $s}") s"
    done
done
for s in csv validation.json walkforward.csv; do same sweep_OLD_1.$s sweep_NEW_1.$s sweep_STAGED_1.$s sweep_STAGED_2.$s; done
$STAGED sweep --backend cpu --pbo --walk-forward rolling:4 -o q_cpu > q_cpu.out 2>&1
$STAGED sweep --backend cuda --pbo --walk-forward rolling:4 -o q_cuda > q_cuda.out 2>&1
for s in csv validation.json walkforward.csv; do same q_cpu.$s q_cuda.$s; done
$STAGED parity --backend cuda --strategy default --combinations 100000 --periods 16 > parity.log 2>&1; echo "parity rc=$?: $(grep -h verdict parity.log | tail -1)"
rm -f ./*.csv ./*.json
cd .. && tar czf logs.tgz logs && rm -rf logs
