#!/usr/bin/env bash
# Third run, after the period statistics were kept as they arrive (Note
# [Period statistics kept as they arrive]) and --rank-by dsr went on threads:
# the large workload with --pbo --walk-forward rolling:4, one process on one
# GPU against mpirun -n 2 (one GPU a rank; Open MPI's binding, and
# --bind-to none), alternating, two rounds. Binary: the commit of this log.
set -u
B=$PWD/build/device/host/cli/btforge
G=$PWD/spec/grids/default_bench_large.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$OUT/logs"; cd "$OUT/logs"
exec > >(tee ../run3.log) 2>&1
nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1
L="--grid $G --synthetic-bars 100000 --synthetic-symbols 4 --backend cuda --pbo --walk-forward rolling:4"
t() {
    local name=$1; shift
    local s=$(date +%s.%N); "$@" > "$name.out" 2> "$name.err"; local rc=$?; local e=$(date +%s.%N)
    echo "$name: rc=$rc wall $(awk "BEGIN{printf \"%.2f\", $e - $s}") s"
}
same() { for s in "$@"; do cmp "$1" "$s" >/dev/null || { echo "DIFFER: $1 $s"; return 1; }; done; echo "same: $*"; }
for r in 1 2; do
    t one_$r $B sweep $L -o one_$r
    t mpi_$r mpirun -n 2 $B sweep --mpi $L -o mpi_$r
    t mpi_unbound_$r mpirun -n 2 --bind-to none $B sweep --mpi $L -o mpi_unbound_$r
done
for s in csv validation.json walkforward.csv; do same one_1.$s one_2.$s mpi_1.$s mpi_2.$s mpi_unbound_1.$s mpi_unbound_2.$s; done
grep -h "cells/s" one_1.out mpi_1.out | head -2
rm -f ./*.csv ./*.json
cd .. && tar czf logs.tgz logs && rm -rf logs
