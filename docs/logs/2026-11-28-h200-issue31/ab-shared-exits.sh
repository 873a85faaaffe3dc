#!/bin/bash
# check.sh OUT: this tree's kernels: parity in the three run shapes, then aafa006 (A) against this tree (B)
# in the same three shapes, one round, alternating; every figure appended to OUT/check.log as it comes.
O=$1; mkdir -p $O; L=$O/check.log
A=build/ab/btforge-aafa006; B=build/device/host/cli/btforge
for s in default sma_cross band_reversion xs_momentum; do
  for shape in "4:100000" "1:20000" "64:5000"; do
    sy=${shape%%:*}; n=${shape#*:}
    echo "parity $s symbols=$sy combinations=$n: $($B parity --backend cuda --strategy $s --seed 7 --symbols $sy --bars 20000 --combinations $n 2>&1 | grep -E 'verdict|kernel variant' | tr '\n' ' ')" >> $L
  done
done
for s in default sma_cross band_reversion xs_momentum; do
  for shape in "narrow:--symbols 4 --bars 100000" "single:--symbols 1 --bars 200000" "wide:--symbols 64 --bars 25000"; do
    name=${shape%%:*}; args=${shape#*:}
    for v in A B; do
      bin=${!v}
      echo "bench $s $name $v: $($bin bench --backend cuda --strategy $s --workload large $args --max-combinations 131072 --skip-single-thread --cpu-max-combinations 64 2>&1 | grep -E '^cuda kernels only|kernel variant' | tr '\n' ' ')" >> $L
    done
  done
done
echo done >> $L
