set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
for r in 1 2; do
for v in G4 G5a G5a7 G5b G5c; do
  fb=$PWD/build/kx2/$v/default_sweep.fatbin
  if [ $r = 1 ]; then
    timeout 300 "$bin" parity --backend cuda --kernels "$fb" --strategy default --seed 7 --symbols 4 --bars 20000 \
      --combinations 20000 > "$out/${v}_parity.log" 2>&1
  fi
  timeout 300 "$bin" bench --backend cuda --kernels "$fb" --workload large --skip-single-thread \
      --cpu-max-combinations 512 > "$out/${v}_bench_run$r.log" 2>&1
  printf '%-6s run %s %s | %s\n' "$v" "$r" "$(grep -m1 '^cuda kernels only:' "$out/${v}_bench_run$r.log")" "$(grep -m1 '^verdict' "$out/${v}_parity.log")"
done
done | tee "$out/summary.txt"
tar czf "$out/logs.tgz" -C "$out" $(cd "$out" && ls *.log) && rm -f "$out"/*.log
