#!/usr/bin/env bash
# Note [Run shape] on the CPU: the reference on one thread, 1 symbol x 200 000 bars, the first 128
# combinations of each strategy's large grid, before (OLD: the binary of 1889b79) and after (NEW: the
# one-symbol path of templates/strategy_binding.cpp), alternating, three rounds, on the 2-core VM.
#   run.sh OLD NEW
for r in 1 2 3; do
  for s in sma_cross default band_reversion xs_momentum; do
    for b in old new; do
      bin=$1; [[ $b == new ]] && bin=$2
      echo "round $r $s $b: $("$bin" bench --strategy $s --workload large --symbols 1 --bars 200000 \
        --max-combinations 128 -j 1 2>&1 | grep -m1 '^cpu 1 thread')"
    done
  done
done
