#!/usr/bin/env bash
# The speed guard's first baseline, and the zero-rate funding skip that did not land; calls on one H100.
#   run.sh OUT ab      every strategy's large workload (spec/grids/NAME_bench_large.json, Note [Speed guard]),
#                      the binary of b0a8c2f ("old": the binary quantum, build/quantum-device/btforge, given the
#                      grid files since it embeds only default's) and a binary with settle_funding skipping a
#                      rate of 0 ("new", build/device/host/cli/btforge; two attempts, ab_summary.txt),
#                      alternating, three rounds. The old/ logs of the second call are baseline/, recorded with
#                      scripts/speed-guard baseline --from-logs --record --commit b0a8c2f
#   run.sh OUT check   scripts/gpu-check on the binary that landed (b0a8c2f's kernels, the guard's host
#                      changes): parity of every strategy, sanitizers, sweeps = cpu, benchmarks, the speed
#                      guard against that baseline, ncu
set -u
out=$1; what=$2; new=build/device/host/cli/btforge; old=build/quantum-device/btforge
if [[ $what == ab ]]; then
  mkdir -p "$out/old" "$out/new"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0 | tee "$out/new/nvidia-smi.txt" > "$out/old/nvidia-smi.txt"
  for r in 1 2 3; do
    for s in $("$new" strategies --names); do
      bench=(bench --backend cuda --strategy "$s" --workload large --skip-single-thread --cpu-max-combinations 1024)
      "$old" "${bench[@]}" --grid "spec/grids/${s}_bench_large.json" > "$out/old/${s}_$r.log" 2>&1
      "$new" "${bench[@]}" > "$out/new/${s}_$r.log" 2>&1
      echo "round $r $s: old $(grep -h 'kernels only' "$out/old/${s}_$r.log" | cut -d'(' -f1) new $(grep -h 'kernels only' "$out/new/${s}_$r.log" | cut -d'(' -f1)"
    done
  done
  tar czf "$out/speed_ab.tgz" -C "$out" old new && rm -rf "$out/old" "$out/new"
else
  mkdir -p "$out/gc"
  scripts/gpu-check "$out/gc" "$new" build/device/parity-tests/math/portable_math_parity_cuda > "$out/gc/summary.txt" 2>&1
  rm -f "$out"/gc/*.csv "$out"/gc/*.json 2>/dev/null; rm -rf "$out/gc/jit-cache"
  tail -60 "$out/gc/summary.txt"
  tar czf "$out/speed_check.tgz" -C "$out" gc && rm -rf "$out/gc"
fi
