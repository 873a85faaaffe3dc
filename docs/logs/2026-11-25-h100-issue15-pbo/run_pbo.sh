#!/usr/bin/env bash
# Issue 15: the CSCV scans on the H100 against the CPU (summary.txt is this script's output, as the device tool returned it).
set -u
out=$1; b=build/device/host/cli/btforge
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv > "$out/device.txt"
run() { local name=$1; shift; /usr/bin/time -v "$b" sweep "$@" -o "$out/$name" > "$out/$name.log" 2> "$out/$name.err"; echo "$name rc=$?" | tee -a "$out/summary.txt"; grep -E "probability of backtest|backend:" "$out/$name.log" | tee -a "$out/summary.txt"; grep -E "Maximum resident|Elapsed" "$out/$name.err" | tee -a "$out/summary.txt"; rm -f "$out/$name.csv"; }
same() { if cmp "$out/$1.validation.json" "$out/$2.validation.json"; then echo "SAME $1 $2" | tee -a "$out/summary.txt"; else echo "DIFFER $1 $2" | tee -a "$out/summary.txt"; fi; }
run q_gpu --backend cuda --pbo --walk-forward rolling:4
run q_cpu --backend cuda --pbo --walk-forward rolling:4 --pbo-backend cpu
same q_gpu q_cpu
run q8_gpu --backend cuda --pbo --periods 8
run q8_cpu --backend cuda --pbo --periods 8 --pbo-backend cpu
same q8_gpu q8_cpu
run large_gpu --backend cuda --synthetic-bars 100000 --grid spec/grids/default_bench_large.json --walk-forward rolling:4 --pbo --top 10
run large_cpu --backend cuda --synthetic-bars 100000 --grid spec/grids/default_bench_large.json --walk-forward rolling:4 --pbo --top 10 --pbo-backend cpu
same large_gpu large_cpu
timeout 300 compute-sanitizer --tool memcheck "$b" sweep --backend cuda --synthetic-bars 2000 --pbo -o "$out/sanitized" > "$out/sanitizer.log" 2>&1
echo "sanitizer rc=$?" | tee -a "$out/summary.txt"; tail -3 "$out/sanitizer.log" | tee -a "$out/summary.txt"; rm -f "$out/sanitized.csv"
cp "$out/large_gpu.log" "$out/large_gpu_full.log"
