#!/usr/bin/env bash
# Issue 15's "done means" on the H100: the large workload swept with walk-forward and PBO.
set -u
out=$1; b=build/device/host/cli/btforge
mkdir -p "$out"
/usr/bin/time -v "$b" sweep --backend cuda --synthetic-bars 100000 --grid spec/grids/default_bench_large.json \
  --walk-forward rolling:4 --pbo --top 10 -o "$out/large" > "$out/large_sweep.log" 2> "$out/large_sweep.err"
echo "rc=$?" >> "$out/large_sweep.log"
rm -f "$out/large.csv"
tail -60 "$out/large_sweep.log"; grep -E "Maximum resident|Elapsed" "$out/large_sweep.err"
