#!/bin/bash
# final.sh OUT: the default strategy after the cold-field fix: parity in the three run shapes, then
# aafa006 (A) against this tree (B), alternating, three rounds of narrow and single, one of wide.
O=$1; mkdir -p $O; L=$O/final.log
A=build/ab/btforge-aafa006; B=build/device/host/cli/btforge
for shape in "4:100000" "1:20000" "64:5000"; do
  sy=${shape%%:*}; n=${shape#*:}
  echo "parity default symbols=$sy combinations=$n: $($B parity --backend cuda --strategy default --seed 7 --symbols $sy --bars 20000 --combinations $n 2>&1 | grep -E 'verdict' | tr '\n' ' ')" >> $L
done
for r in 1 2 3; do
  for shape in "narrow:--symbols 4 --bars 100000" "single:--symbols 1 --bars 200000" "wide:--symbols 64 --bars 25000"; do
    name=${shape%%:*}; args=${shape#*:}
    [ $name = wide ] && [ $r != 1 ] && continue
    for v in A B; do
      bin=${!v}
      echo "bench default $name $v round $r: $($bin bench --backend cuda --strategy default --workload large $args --max-combinations 131072 --skip-single-thread --cpu-max-combinations 64 2>&1 | grep -E '^cuda kernels only' | tr '\n' ' ')" >> $L
    done
  done
done
echo done >> $L
