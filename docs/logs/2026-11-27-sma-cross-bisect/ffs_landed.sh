#!/usr/bin/env bash
# The visits of set bits as landed (lowest_member, Note [Device rewrites]): b0a8c2f's binary ("old",
# build/bisect/b0a8c2f/btforge) and this change's ("new", build/device/host/cli/btforge), every strategy's large
# workload, alternating, three rounds; then parity of every strategy and of the leveraged default in both margin
# modes on the new binary.
#   ffs_landed.sh OUT
set -u
out=$1; mkdir -p "$out/landed"; old=build/bisect/b0a8c2f/btforge; new=build/device/host/cli/btforge
for r in 1 2 3; do
  for s in sma_cross default band_reversion xs_momentum; do
    for b in old new; do
      bin=$old; [[ $b == new ]] && bin=$new
      "$bin" bench --backend cuda --strategy $s --grid spec/grids/${s}_bench_large.json --skip-single-thread \
        --cpu-max-combinations 256 > "$out/landed/${s}_${b}_$r.log" 2>&1
      echo "round $r $s $b: $(grep -h '^cuda kernels only' "$out/landed/${s}_${b}_$r.log" | cut -d'(' -f1)"
    done
  done
done
for s in sma_cross default band_reversion xs_momentum; do
  "$new" parity --backend cuda --strategy $s --seed 7 --symbols 4 --bars 20000 --combinations 50000 \
    > "$out/landed/parity_$s.log" 2>&1
  echo "parity $s rc=$?: $(grep -h -E '^liquidations|^verdict' "$out/landed/parity_$s.log" | tr '\n' ' ')"
done
for mode in cross isolated; do
  "$new" parity --backend cuda --spec parity-tests/specs/default_leveraged.json --margin-mode $mode --seed 7 --symbols 4 \
    --bars 20000 --combinations 50000 --min-liquidated 0.02 > "$out/landed/parity_default_leveraged_$mode.log" 2>&1
  echo "parity default_leveraged $mode rc=$?: $(grep -h -E '^liquidations|^verdict' "$out/landed/parity_default_leveraged_$mode.log" | tr '\n' ' ')"
done
tar czf "$out/landed.tgz" -C "$out" landed && rm -rf "$out/landed"
