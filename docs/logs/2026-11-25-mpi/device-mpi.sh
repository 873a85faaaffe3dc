#!/usr/bin/env bash
# What ran on the GPU machine (issue 19; a 2-GPU one was not lent, so the
# ranks share one H200): btforge sweep --mpi with the cuda
# backend, ranks dealt the GPUs (Note [Ranks and their GPUs]), against one CPU
# process; the large grid on 2 ranks / 2 GPUs against one GPU. The binary and
# its MPI plugin built here (device preset) are carried in build/device-carry.
set -u
B=$PWD/build/device-carry/btforge
GRID=$PWD/spec/grids/default_bench_large.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$OUT"
exec > >(tee run.log) 2>&1
nvidia-smi -L; mpirun --version | head -1
same() { for s in "$@"; do cmp "$1" "$s" >/dev/null || { echo "DIFFER: $1 $s"; return 1; }; done; echo "same: $*"; }
V="--walk-forward rolling:4 --pbo --all-rows"
echo "== walk-forward, PBO, every row: one CPU process; mpirun -n 2 (cuda, 4 shards); mpirun -n 4 (cuda, 2 ranks a GPU)"
$B sweep --backend cpu $V -o one > one.out 2> one.err
mpirun -n 2 $B sweep --mpi --backend cuda $V --mpi-shards 4 --checkpoint ck2 -o mpi2 > mpi2.out 2> mpi2.err; echo "rc=$?"
mpirun -n 4 $B sweep --mpi --backend cuda $V --checkpoint ck4 -o mpi4 > mpi4.out 2> mpi4.err; echo "rc=$?"
for s in csv validation.json walkforward.csv; do same one.$s mpi2.$s mpi4.$s; done
tail -n 3 mpi2.out; grep -v '^  \|^sweep\|^pbo' mpi2.err | head -5
echo "-- the device each checkpointed shard ran on"
for f in ck2/*.shard ck4/*.shard; do echo "$f: $(grep -ao '"backend":"[^"]*' "$f" | head -1)"; done
echo "== large grid: one process on one GPU; mpirun -n 2"
L="--grid $GRID --synthetic-bars 100000 --synthetic-symbols 4 --backend cuda"
start=$(date +%s.%N); $B sweep $L -o l_one > l_one.out 2> l_one.err; end=$(date +%s.%N)
echo "one process, one GPU: wall $(awk "BEGIN{print $end - $start}") s"
start=$(date +%s.%N); mpirun -n 2 $B sweep --mpi $L -o l_mpi > l_mpi.out 2> l_mpi.err; end=$(date +%s.%N)
echo "mpirun -n 2 (the GPUs dealt to the ranks): wall $(awk "BEGIN{print $end - $start}") s"; tail -n 2 l_mpi.out
same l_one.csv l_mpi.csv
rm -rf ck2 ck4 one.csv mpi2.csv mpi4.csv *.json
