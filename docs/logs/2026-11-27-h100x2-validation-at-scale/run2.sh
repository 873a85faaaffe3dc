#!/usr/bin/env bash
# Issue 30, item 4, second run: after the validation's own work went on all
# threads in one pass (Note [Walk-forward winners in one pass]) and the merge
# held the period statistics once. The large workload (default, 1 048 576
# combinations, 4 symbols x 100 000 bars) with --pbo --walk-forward rolling:4:
# one process on one GPU, old (9a0db5a: before these changes, its CSCV of a
# merge on the GPU already) and new (the commit of this log) alternating;
# shards between ranks as messages of their own; mpirun -n 2 (one
# GPU a rank) with Open MPI's binding and with --bind-to none; the merge of
# two shards. Then what an MPI run cost before the CSCV of a merge moved to
# the GPU, on an eighth of the grid (131 072 combinations): the binary of
# 9a0db5a with --pbo-backend cpu runs rank 0's CSCV on its CPU, as every
# MPI run did before 9a0db5a.
set -u
NEW=$PWD/build/device/host/cli/btforge
OLD=$PWD/build/old/btforge
G=$PWD/spec/grids/default_bench_large.json
G8=$PWD/docs/logs/2026-11-27-h100x2-validation-at-scale/default_eighth.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT/logs"; cd "$OUT/logs"
exec > >(tee ../run2.log) 2>&1
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1
mpirun --version | head -1; echo "nproc: $(nproc)"
L="--synthetic-bars 100000 --synthetic-symbols 4 --backend cuda"
V="--pbo --walk-forward rolling:4"
t() {
    local name=$1; shift
    local s=$(date +%s.%N); /usr/bin/time -f "%M KB peak" -o "$name.mem" "$@" > "$name.out" 2> "$name.err"; local rc=$?
    local e=$(date +%s.%N)
    echo "$name: rc=$rc wall $(awk "BEGIN{printf \"%.2f\", $e - $s}") s, $(cat "$name.mem")"
}
same() { for s in "$@"; do cmp "$1" "$s" >/dev/null || { echo "DIFFER: $1 $s"; return 1; }; done; echo "same: $*"; }
$NEW devices > devices.log 2>&1
echo "== one process, one GPU: old | new; mpirun -n 2 (new): Open MPI's binding | --bind-to none"
for round in 1 2; do
    t old_$round $OLD sweep --grid $G $L $V -o old_$round
    t new_$round $NEW sweep --grid $G $L $V -o new_$round
    t mpi_$round mpirun -n 2 $NEW sweep --mpi --grid $G $L $V -o mpi_$round
    t mpi_unbound_$round mpirun -n 2 --bind-to none $NEW sweep --mpi --grid $G $L $V -o mpi_unbound_$round
done
for s in csv validation.json walkforward.csv; do same old_1.$s new_1.$s new_2.$s mpi_1.$s mpi_2.$s mpi_unbound_1.$s mpi_unbound_2.$s; done
grep -h "probability of backtest overfitting (CSCV" old_1.out new_1.out mpi_1.out
echo "== merge of two shards (new): the CSCV on the GPU"
t shard0 $NEW sweep --grid $G $L $V --shard 0/2 -o s0
t shard1 $NEW sweep --grid $G $L $V --shard 1/2 --device 1 -o s1
t merge_1 $NEW merge s0.shard s1.shard -o merged_1
t merge_2 $NEW merge s0.shard s1.shard -o merged_2
for s in csv validation.json walkforward.csv; do same new_1.$s merged_1.$s merged_2.$s; done
echo "== an eighth of the grid: one process (new) | mpirun -n 2, rank 0's CSCV on its CPU (old, --pbo-backend cpu) | on its GPU (new)"
t eighth_one $NEW sweep --grid $G8 $L $V -o eighth_one
t eighth_mpi_cpu mpirun -n 2 $OLD sweep --mpi --grid $G8 $L $V --pbo-backend cpu -o eighth_mpi_cpu
t eighth_mpi_gpu mpirun -n 2 $NEW sweep --mpi --grid $G8 $L $V -o eighth_mpi_gpu
for s in csv validation.json walkforward.csv; do same eighth_one.$s eighth_mpi_cpu.$s eighth_mpi_gpu.$s; done
grep -h "probability of backtest overfitting (CSCV" eighth_mpi_cpu.out eighth_mpi_gpu.out
rm -f ./*.csv ./*.json ./*.shard ./*.mem
cd .. && tar czf logs.tgz logs && rm -rf logs
