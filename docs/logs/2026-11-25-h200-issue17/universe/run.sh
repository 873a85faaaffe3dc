#!/usr/bin/env bash
# Issue 17 on the GPU, final binary, part 1: the large benchmark against
# 607783e (narrow kernel), and the cost as the universe grows.
set -u
B=build/device/host/cli/btforge
OLD=build/run17/btforge_607783e
L=/tmp/d1; mkdir -p $L
t() { local name=$1; shift; local s=$(date +%s%N); "$@" > $L/$name.log 2>&1; local rc=$?; echo "$name rc=$rc $(( ($(date +%s%N) - s) / 1000000 )) ms" >> $L/times.txt; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $L/gpu.txt 2>&1
for i in 1 2 3; do
  t large_before_$i $OLD bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384
  t large_after_$i $B bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384
done
for n in 1 4 16 64 256 512; do
  cpu=$(( 2000000000 / (n * 2000) )); [ $cpu -gt 131072 ] && cpu=131072
  t curve_default_$n $B bench --backend cuda --workload large --symbols $n --bars 2000 --max-combinations 131072 --cpu-max-combinations $cpu --skip-single-thread
  xcpu=$(( cpu < 100000 ? cpu : 100000 ))
  t curve_xs_$n $B bench --backend cuda --strategy xs_momentum --grid parity-tests/grids/xs_momentum_universe.json --symbols $n --bars 2000 --max-combinations 100000 --cpu-max-combinations $xcpu --skip-single-thread
done
for n in 4 16; do
  t curve_default_${n}_wide $B bench --backend cuda --workload large --symbols $n --bars 2000 --max-combinations 131072 --cpu-max-combinations 16384 --skip-single-thread --kernel-variant wide
  t curve_xs_${n}_wide $B bench --backend cuda --strategy xs_momentum --grid parity-tests/grids/xs_momentum_universe.json --symbols $n --bars 2000 --max-combinations 100000 --cpu-max-combinations 16384 --skip-single-thread --kernel-variant wide
done
cp build/run17/d1.sh $L/run.sh
tar -C /tmp -czf $OUT/d1.tar.gz d1
cat $L/times.txt
