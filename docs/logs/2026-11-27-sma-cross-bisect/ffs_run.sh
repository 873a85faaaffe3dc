#!/usr/bin/env bash
# ffs walks experiment: b0a8c2f's binary with --kernels cubins (base = generated/ as is; ffs = the two symbol-set
# walks of portfolio.h visiting set bits by __ffs), alternating, three rounds; then parity of each ffs cubin.
set -u
out=$1; mkdir -p "$out/ffs"; B=build/bisect/b0a8c2f/btforge
for r in 1 2 3; do
  for s in sma_cross default band_reversion xs_momentum; do
    for v in base ffs; do
      $B bench --backend cuda --strategy $s --grid spec/grids/${s}_bench_large.json --kernels build/bisect/cubins/${s}_$v.cubin \
        --skip-single-thread --cpu-max-combinations 256 > "$out/ffs/${s}_${v}_$r.log" 2>&1
      echo "round $r $s $v: $(grep -h '^cuda kernels only' "$out/ffs/${s}_${v}_$r.log" | cut -d'(' -f1)"
    done
  done
done
for s in sma_cross default band_reversion xs_momentum; do
  $B parity --backend cuda --strategy $s --kernels build/bisect/cubins/${s}_ffs.cubin --seed 7 --symbols 4 --bars 20000 \
    --combinations 20000 > "$out/ffs/parity_$s.log" 2>&1
  echo "parity $s ffs rc=$?: $(grep -h '^verdict' "$out/ffs/parity_$s.log")"
done
$B parity --backend cuda --spec parity-tests/specs/default_leveraged.json --kernels build/bisect/cubins/default_ffs.cubin --seed 7 \
  --symbols 4 --bars 20000 --combinations 20000 --min-liquidated 0.02 > "$out/ffs/parity_default_leveraged.log" 2>&1
echo "parity default_leveraged ffs rc=$?: $(grep -h -E '^verdict|^liquidations' "$out/ffs/parity_default_leveraged.log" | tr '\n' ' ')"
tar czf "$out/ffs.tgz" -C "$out" ffs && rm -rf "$out/ffs"
