#!/usr/bin/env bash
# Issue 30, item 4: the validation of an MPI run and of a merge on a GPU
# (Note [CSCV of a merge]) and the threads of a bound rank (Note [Threads a
# process may use]). The large workload (default, 1 048 576 combinations, 4
# symbols x 100 000 bars) with --pbo --walk-forward rolling:4: one process on
# one GPU against mpirun -n 2 (one GPU a rank), alternating, two rounds; the
# merge of two shards with the CSCV on the GPU and on 16 CPU threads; the
# sweep alone on one GPU and on --devices all. Binary: cmake --preset device
# of the commit that carries this file, with its MPI plugin.
set -u
B=$PWD/build/device/host/cli/btforge
G=$PWD/spec/grids/default_bench_large.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$OUT"
exec > >(tee run.log) 2>&1
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1
mpirun --version | head -1; echo "nproc: $(nproc)"
echo "-- Open MPI's default binding of 2 ranks"
mpirun -n 2 bash -c 'echo "rank $OMPI_COMM_WORLD_RANK: $(taskset -pc $$)"'
L="--grid $G --synthetic-bars 100000 --synthetic-symbols 4 --backend cuda"
V="--pbo --walk-forward rolling:4"
t() {
    local name=$1; shift
    local s=$(date +%s.%N); /usr/bin/time -f "%M KB peak" -o "$name.mem" "$@" > "$name.out" 2> "$name.err"; local rc=$?
    local e=$(date +%s.%N)
    echo "$name: rc=$rc wall $(awk "BEGIN{printf \"%.2f\", $e - $s}") s, $(cat "$name.mem")"
}
same() { for s in "$@"; do cmp "$1" "$s" >/dev/null || { echo "DIFFER: $1 $s"; return 1; }; done; echo "same: $*"; }
$B devices > devices.log 2>&1
echo "== the sweep with validation: one process, one GPU | mpirun -n 2"
for round in 1 2; do
    t one_$round $B sweep $L $V -o one_$round
    t mpi_$round mpirun -n 2 $B sweep --mpi $L $V -o mpi_$round
done
t mpi_unbound mpirun -n 2 --bind-to none $B sweep --mpi $L $V -o mpi_unbound
for s in csv validation.json walkforward.csv; do same one_1.$s one_2.$s mpi_1.$s mpi_2.$s mpi_unbound.$s; done
grep -h "may run on\|CSCV\|pbo scans" mpi_1.err | head -5
grep -h "probability of backtest overfitting (CSCV" one_1.out mpi_1.out
echo "== merge of two shards: CSCV on the GPU | on 16 CPU threads"
t shard0 $B sweep $L $V --shard 0/2 -o s0
t shard1 $B sweep $L $V --shard 1/2 --device 1 -o s1
ls -l s0.shard s1.shard
t merge_gpu $B merge s0.shard s1.shard -o merged_gpu
t merge_cpu $B merge s0.shard s1.shard --pbo-backend cpu -o merged_cpu
for s in csv validation.json walkforward.csv; do same one_1.$s merged_gpu.$s merged_cpu.$s; done
grep -h "probability of backtest overfitting (CSCV" merged_gpu.out merged_cpu.out
echo "== the sweep alone: one GPU | --devices all (2)"
for round in 1 2; do
    t single_$round $B sweep $L -o single_$round
    t both_$round $B sweep $L --devices all -o both_$round
done
same single_1.csv both_1.csv
for f in single_1 single_2 both_1 both_2; do echo "$f: $(grep -o '"cells_per_second": *[0-9.e+]*' $f.json)"; grep -h "^backend\|kernel" $f.out $f.err | head -4; done
rm -f ./*.csv ./*.json ./*.shard
