#!/usr/bin/env bash
# Session 3, second device run: gpu-check of the landed kernel, two more large
# benchmarks, and the next variants (G2 = generated, G2B, G2BE) with --kernels.
set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
bash scripts/gpu-check "$out/gc" "$bin" > "$out/gc_summary.txt" 2>&1
for r in 2 3; do
  "$bin" bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > "$out/gc/bench_large_run$r.log" 2>&1
done
for v in G2 G2B G2BE; do
  fb=$PWD/build/kx2/$v/default_sweep.fatbin
  timeout 300 "$bin" parity --backend cuda --kernels "$fb" --strategy default --seed 7 --symbols 4 --bars 20000 \
      --combinations 20000 > "$out/${v}_parity.log" 2>&1
  timeout 300 "$bin" bench --backend cuda --kernels "$fb" --workload large --skip-single-thread \
      --cpu-max-combinations 1024 > "$out/${v}_bench.log" 2>&1
  printf '%-9s %s | %s\n' "$v" "$(grep -m1 '^cuda kernels only:' "$out/${v}_bench.log")" "$(grep -m1 '^verdict' "$out/${v}_parity.log")"
done | tee "$out/variants_summary.txt"
tar czf "$out/logs.tgz" -C "$out" gc $(cd "$out" && ls G2*.log) 2>/dev/null
rm -rf "$out/gc" "$out"/G2*.log
cat "$out/gc_summary.txt" | tail -40
