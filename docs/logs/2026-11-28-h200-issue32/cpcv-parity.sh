#!/bin/bash
# cpcv-parity.sh OUT: every strategy's quickstart with walk-forward, PBO and CPCV on cpu (16 threads) and cuda;
# the validation files must be byte-identical.
O=$1; mkdir -p $O; L=$O/cpcv-parity.log; B=build/device/host/cli/btforge
for s in default sma_cross band_reversion xs_momentum; do
  for b in cpu cuda; do
    $B sweep --strategy $s --backend $b --walk-forward rolling:4 --pbo --cpcv -o $O/${s}_$b > $O/${s}_$b.log 2>&1 || echo "FAIL $s $b" >> $L
  done
  if cmp $O/${s}_cpu.validation.json $O/${s}_cuda.validation.json && cmp $O/${s}_cpu.csv $O/${s}_cuda.csv; then
    echo "$s: validation JSON and CSV of cuda identical to cpu's ($(grep -c . $O/${s}_cpu.validation.json) lines; $(grep -o '"plan": "2:1"' $O/${s}_cpu.validation.json | head -1))" >> $L
  else
    echo "$s: DIFFER" >> $L
  fi
  grep -h "backend:\|combinatorial purged" $O/${s}_cuda.log >> $L
done
echo done >> $L
