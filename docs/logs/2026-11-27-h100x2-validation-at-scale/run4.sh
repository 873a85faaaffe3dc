#!/usr/bin/env bash
# Fourth run: where rank 0's time goes under mpirun -n 2 (the lines rank 0
# now prints: its wait for the other ranks, the shards read and checked, the
# merge and the validation), the large workload with --pbo --walk-forward
# rolling:4, with Open MPI's binding and with --bind-to none; one process
# beside them. Binary: the commit of this log.
set -u
B=$PWD/build/device/host/cli/btforge
G=$PWD/spec/grids/default_bench_large.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT/logs"; cd "$OUT/logs"
exec > >(tee ../run4.log) 2>&1
nvidia-smi -L
L="--grid $G --synthetic-bars 100000 --synthetic-symbols 4 --backend cuda --pbo --walk-forward rolling:4"
t() {
    local name=$1; shift
    local s=$(date +%s.%N); "$@" > "$name.out" 2> "$name.err"; local rc=$?; local e=$(date +%s.%N)
    echo "$name: rc=$rc wall $(awk "BEGIN{printf \"%.2f\", $e - $s}") s"
    tr '\r' '\n' < "$name.err" | grep -E "rank 0 waited|merged in|shard 0/|backend:" | sed 's/^/    /'
    grep -hE "^mpi:|^backend:|CSCV" "$name.out" | sed 's/^/    /'
}
t one $B sweep $L -o one
t mpi mpirun -n 2 $B sweep --mpi $L -o mpi
t mpi_unbound mpirun -n 2 --bind-to none $B sweep --mpi $L -o mpi_unbound
for s in csv validation.json walkforward.csv; do cmp one.$s mpi.$s && cmp one.$s mpi_unbound.$s && echo "same: $s"; done
rm -f ./*.csv ./*.json
cd .. && tar czf logs.tgz logs && rm -rf logs
