#!/usr/bin/env bash
# What ran on the GPU machine (issue 19): shards on cuda merged = one cuda
# process = the CPU reference; the shard timings behind the 64-GPU estimate
# of docs/SCALING.md. Run from the repository root with build/device carried.
set -u
B=$PWD/build/device-carry/btforge  # build/device/host/cli/btforge (and libbtforge_mpi.so), carried alone
GRID=$PWD/spec/grids/default_bench_large.json
cd "$OUT"
exec > >(tee run.log) 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv
echo "mpirun: $(command -v mpirun || echo none)"; ls /usr/lib/x86_64-linux-gnu | grep -i 'libmpi\.' || echo "no libmpi"
same() { for s in "$@"; do cmp "$1" "$s" >/dev/null || { echo "DIFFER: $1 $s"; return 1; }; done; echo "same: $*"; }

echo "== quickstart: cpu, cuda, 3 cuda shards merged"
$B sweep --backend cpu -o q_cpu > q_cpu.out 2> q_cpu.err
$B sweep --backend cuda -o q_cuda > q_cuda.out 2> q_cuda.err
for i in 0 1 2; do $B sweep --backend cuda --shard $i/3 -o q_s$i > q_s$i.out 2>&1; done
$B merge q_s0.shard q_s1.shard q_s2.shard -o q_merged > q_merged.out 2>&1
same q_cpu.csv q_cuda.csv q_merged.csv

echo "== walk-forward, PBO, every row: cuda one process, 5 cuda shards, shards mixed cpu/cuda"
V="--walk-forward rolling:4 --pbo --all-rows"
$B sweep --backend cuda $V -o w_cuda > w_cuda.out 2> w_cuda.err
for i in 0 1 2 3 4; do $B sweep --backend cuda $V --shard $i/5 -o w_s$i > w_s$i.out 2>&1; done
$B merge w_s?.shard -o w_merged > w_merged.out 2>&1
for i in 0 2 4; do $B sweep --backend cpu $V --shard $i/5 -o m_s$i > m_s$i.out 2>&1; done
$B merge m_s0.shard w_s1.shard m_s2.shard w_s3.shard m_s4.shard -o w_mixed > w_mixed.out 2>&1
for s in csv validation.json walkforward.csv; do same w_cuda.$s w_merged.$s w_mixed.$s; done
grep -h "shard .*: combinations" w_s*.out

echo "== large grid (4 symbols x 100000 bars x 1048576 combinations): one process and shards of 1/16, 1/64"
L="--grid $GRID --synthetic-bars 100000 --synthetic-symbols 4 --backend cuda"
for n in 1 16 64; do
  start=$(date +%s.%N)
  $B sweep $L --shard 0/$n -o l_$n > l_$n.out 2> l_$n.err
  end=$(date +%s.%N)
  echo "shard 0/$n: wall $(awk "BEGIN{print $end - $start}") s; $(grep -h 'shard 0' l_$n.out)"
done
for n in 1 16 64; do ls -l l_$n.shard | awk -v n=$n '{print "shard 0/" n " file: " $5 " bytes"}'; done
start=$(date +%s.%N); $B sweep $L -o l_one > l_one.out 2> l_one.err; end=$(date +%s.%N)
echo "one process (no shard): wall $(awk "BEGIN{print $end - $start}") s"; grep -h "backend:" l_one.out
$B bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > bench.out 2>&1; tail -n 15 bench.out
rm -f *.shard w_*.csv m_*.csv w_*.json l_*.csv
