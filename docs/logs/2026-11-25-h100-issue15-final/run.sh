#!/usr/bin/env bash
# Issue 15, closing GPU run: gpu-check (parity with the period power sums, device PBO = cpu,
# --rank-by dsr = cpu, sanitizers on the CSCV kernels, the period cost), then the large
# workload with --walk-forward rolling:4 --pbo and with --rank-by dsr.
set -u
out=$1; b=build/device/host/cli/btforge
mkdir -p "$out/gc" "$out/large"
scripts/gpu-check "$out/gc" "$b" build/device/parity-tests/math/portable_math_parity_cuda > "$out/gc/summary.txt" 2>&1
rm -f "$out"/gc/*.csv "$out"/gc/*.json 2>/dev/null; rm -rf "$out/gc/jit-cache"
cmp_gc=$(ls "$out"/gc | wc -l)
/usr/bin/time -v "$b" sweep --backend cuda --synthetic-bars 100000 --grid spec/grids/default_bench_large.json \
  --walk-forward rolling:4 --pbo --top 10 -o "$out/large/wf" > "$out/large/wf_sweep.log" 2> "$out/large/wf_sweep.err"
echo "wf rc=$?" >> "$out/large/summary.txt"
/usr/bin/time -v "$b" sweep --backend cuda --synthetic-bars 100000 --grid spec/grids/default_bench_large.json \
  --rank-by dsr --top 10 -o "$out/large/dsr" > "$out/large/dsr_sweep.log" 2> "$out/large/dsr_sweep.err"
echo "dsr rc=$?" >> "$out/large/summary.txt"
rm -f "$out"/large/*.csv "$out"/large/*.json
tail -45 "$out/gc/summary.txt"
cat "$out/large/summary.txt"; grep -E "probability of|backend:|Elapsed|Maximum resident" "$out"/large/*.log "$out"/large/*.err
tar czf "$out/issue15_final.tgz" -C "$out" gc large
