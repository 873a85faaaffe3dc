#!/usr/bin/env bash
# xs_momentum on one H200 (commit 5fc3316, the device build carried over): parity at 100k
# combinations with 16 periods in both margin modes, and its quickstart sweep cuda = cpu.
b=build/device/host/cli/btforge; mkdir -p $OUT/xs
for mode in cross isolated; do
  $b parity --backend cuda --strategy xs_momentum --seed 7 --symbols 4 --bars 20000 --combinations 100000 \
    --periods 16 --margin-mode $mode > $OUT/xs/parity_xs_momentum_$mode.log 2>&1; echo "$mode rc=$?"
done
$b sweep --backend cpu --strategy xs_momentum -o $OUT/xs/cpu > /dev/null 2>&1
$b sweep --backend cuda --strategy xs_momentum -o $OUT/xs/cuda > $OUT/xs/sweep_cuda.log 2>&1
cmp $OUT/xs/cpu.csv $OUT/xs/cuda.csv && echo "quickstart csv identical"
