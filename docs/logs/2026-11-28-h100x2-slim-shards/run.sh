#!/usr/bin/env bash
# Shards that carry only what validation reads (Note [What a shard's
# periods carry], format 3) against format 2: the large workload (2^20
# combinations, 4 symbols x 100 000 bars) with --pbo --walk-forward
# rolling:4 (16 periods), one process on one GPU and mpirun -n 2 (one GPU a
# rank, --bind-to none), then `btforge merge` of a run cut in two shards;
# the binary before (7c00765, build/old3/btforge) and after
# (build/device/host/cli/btforge) alternating, two rounds; the outputs of
# every run compared byte for byte.
set -u
NEW=$PWD/build/device/host/cli/btforge
OLD=$PWD/build/old3/btforge
G=$PWD/spec/grids/default_bench_large.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT/logs"; cd "$OUT/logs"
exec > >(tee ../run.log) 2>&1
nvidia-smi -L
L="--grid $G --synthetic-bars 100000 --synthetic-symbols 4 --backend cuda --pbo --walk-forward rolling:4"
t() {
    local name=$1; shift
    local s=$(date +%s.%N); "$@" > "$name.out" 2> "$name.err"; local rc=$?; local e=$(date +%s.%N)
    echo "$name: rc=$rc wall $(awk "BEGIN{printf \"%.2f\", $e - $s}") s"
    tr '\r' '\n' < "$name.err" | grep -E "rank 0 waited|merged in" | sed 's/^/    /'
}
for r in 1 2; do
    for v in OLD NEW; do
        t one_${v}_$r ${!v} sweep $L -o one_${v}_$r
        t mpi_${v}_$r mpirun -n 2 --bind-to none ${!v} sweep --mpi $L -o mpi_${v}_$r
    done
done
for v in OLD NEW; do
    t shard0_$v ${!v} sweep $L --shard 0/2 --device 0 -o s0_$v
    t shard1_$v ${!v} sweep $L --shard 1/2 --device 1 -o s1_$v
    ls -l s0_$v.shard s1_$v.shard | awk '{print "    " $5 " bytes " $9}'
    t merge_$v ${!v} merge s0_$v.shard s1_$v.shard -o merged_$v
done
for s in csv validation.json walkforward.csv; do
    for f in one_NEW_1 one_NEW_2 mpi_OLD_1 mpi_OLD_2 mpi_NEW_1 mpi_NEW_2 merged_OLD merged_NEW; do
        cmp -s one_OLD_1.$s $f.$s || echo "DIFFERENT: one_OLD_1.$s $f.$s"
    done
    echo "compared: $s"
done
rm -f ./*.csv ./*.json ./*.shard
cd .. && tar czf logs.tgz logs && rm -rf logs
