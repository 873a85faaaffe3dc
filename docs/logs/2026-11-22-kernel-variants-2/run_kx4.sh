set -u
out=$1; mkdir -p "$out"
bin=build/device/host/cli/btforge
for v in G2 G3all6 G3mb6 G3mbp6 G3all5 G2; do
  fb=$PWD/build/kx2/$v/default_sweep.fatbin
  timeout 300 "$bin" parity --backend cuda --kernels "$fb" --strategy default --seed 7 --symbols 4 --bars 20000 \
      --combinations 20000 > "$out/${v}_parity.log" 2>&1
  timeout 300 "$bin" bench --backend cuda --kernels "$fb" --workload large --skip-single-thread \
      --cpu-max-combinations 1024 > "$out/${v}_bench.log" 2>&1
  printf '%-9s %s | %s\n' "$v" "$(grep -m1 '^cuda kernels only:' "$out/${v}_bench.log")" "$(grep -m1 '^verdict' "$out/${v}_parity.log")"
done | tee "$out/variants_summary.txt"
tar czf "$out/variant_logs.tgz" -C "$out" $(cd "$out" && ls G*.log) && rm -f "$out"/G*.log
