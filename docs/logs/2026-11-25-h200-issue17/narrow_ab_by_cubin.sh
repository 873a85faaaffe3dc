#!/usr/bin/env bash
# Issue 17, part C: the narrow default kernel's 3% against 607783e, by cubin.
set -u
B=build/device/host/cli/btforge
OLD=build/run17/btforge_607783e
L=/tmp/c; mkdir -p $L
run() { local name=$1; shift; "$@" bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 256 ${K:+--kernels $K} > $L/$name.log 2>&1; echo "$name $(grep 'kernels only' $L/$name.log)" >> $L/summary.txt; }
for i in 1 2; do
  K= run old_$i $OLD
  K= run embedded_$i $B
  K=build/run17/k/base.cubin run base_$i $B
  K=build/run17/k/e1.cubin run e1_$i $B
  K=build/run17/k/e2.cubin run e2_$i $B
done
cuobjdump -sass build/run17/k/base.cubin > $L/base.sass 2>&1
cuobjdump -sass build/run17/k/e1.cubin > $L/e1.sass 2>&1
for f in base e1; do echo "$f: $(grep -c 'LDG' $L/$f.sass) LDG, $(grep -cE 'LDL|STL' $L/$f.sass) LDL/STL, $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $L/$f.sass) instructions" >> $L/summary.txt; done
tar -C /tmp -czf $OUT/c.tar.gz c
cat $L/summary.txt
