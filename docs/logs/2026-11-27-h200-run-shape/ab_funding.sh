#!/usr/bin/env bash
# Note [Markets without funding], as built. (1) The run-time test of funding_free in the embedded kernels,
# on markets with funding: the narrow kernels of eae1198 (before it) and of this change, both nvcc -cubin
# sm_90 capacity 16, loaded by --kernels into this binary (MarketView's new int sits in former padding),
# every strategy's large workload, 4 symbols x 100,000 bars, alternating, two rounds. (2) A funding-free
# market (bench --no-funding), 1 symbol x 200,000 bars: the embedded single kernels against --jit (the
# flag and the symbol count folded). (3) --jit's symbol count on 4 symbols: band_reversion and sma_cross
# narrow cubins with and without -DBTFORGE_FIXED_n_symbols=4 (nvcc, so NVRTC is not the difference).
set -u
out=$1; mkdir -p "$out/ab"; bin=build/device/host/cli/btforge; k=build/exp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader -i 0 > "$out/ab/nvidia-smi.txt"
b() { # name strategy symbols bars extra...
  local name=$1 s=$2 n=$3 bars=$4; shift 4
  "$bin" bench --backend cuda --strategy $s --workload large --symbols $n --bars $bars \
    --skip-single-thread --cpu-max-combinations 64 "$@" > "$out/ab/$name.log" 2>&1
  echo "$name: $(grep -h '^cuda kernels only' "$out/ab/$name.log" | cut -d'(' -f1)"
}
for s in sma_cross default band_reversion xs_momentum; do
  "$bin" bench --backend cuda --strategy $s --workload large --max-combinations 4096 --skip-single-thread \
    --cpu-max-combinations 16 --symbols 1 --bars 200000 --no-funding --jit --jit-cache "$out/jit" > /dev/null 2>&1
done
for r in 1 2; do
  for s in sma_cross default band_reversion xs_momentum; do
    b ${s}_4sym_old_$r $s 4 100000 --kernels $k/old_$s.cubin
    b ${s}_4sym_new_$r $s 4 100000 --kernels $k/new_$s.cubin
  done
done
for r in 1 2; do
  for s in sma_cross default band_reversion; do
    b ${s}_1sym_nofunding_single_$r $s 1 200000 --no-funding
    b ${s}_1sym_nofunding_jit_$r $s 1 200000 --no-funding --jit --jit-cache "$out/jit"
  done
done
for r in 1 2; do
  for s in band_reversion sma_cross; do
    b ${s}_4sym_f0_$r $s 4 100000 --kernels $k/new_$s.cubin
    b ${s}_4sym_f4_$r $s 4 100000 --kernels $k/f4_$s.cubin
  done
done
for s in sma_cross default; do
  "$bin" parity --backend cuda --jit --jit-cache "$out/jit" --strategy $s --seed 7 --symbols 1 --bars 20000 \
    --combinations 50000 > "$out/ab/parity_jit_1sym_$s.log" 2>&1
  echo "parity --jit 1 symbol $s rc=$?: $(grep -h -E '^verdict' "$out/ab/parity_jit_1sym_$s.log")"
done
grep -h "folded" "$out/ab/sma_cross_1sym_nofunding_jit_1.log" | head -2
rm -rf "$out/jit"; tar czf "$out/ab.tgz" -C "$out" ab && rm -rf "$out/ab"
