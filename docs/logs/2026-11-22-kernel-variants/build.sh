#!/usr/bin/env bash
# Builds the host semantic check (hostcheck) of the kx variants; -j${JOBS:-2}.
# VARIANTS="V0 ..." overrides the list (the first one is the reference).
set -euo pipefail
cd "$(dirname "$0")"
VARIANTS=${VARIANTS:-"V0 V1 V1_s8 V2 V2_s8 V4 V5 V6 V7 P4 P5 P6 PS5 PS6"}
FLAGS="-std=c++20 -O2 -ffp-contract=off -Wno-unknown-pragmas -I/work/main -I."
for v in $VARIANTS; do
  echo "g++ -x c++ $FLAGS -include kx_shim.h -Dbtforge=kx_ns_$v -Dbtforge_default_sweep=kx_sweep_$v -c ../$v/default_sweep.cu -o $v.o"
done | xargs -P${JOBS:-2} -I{} sh -c '{}'
list=$(for v in $VARIANTS; do printf 'X(%s) ' $v; done)
g++ $FLAGS "-DKX_VARIANTS(X)=$list" driver.cpp $(for v in $VARIANTS; do echo $v.o; done) -o hostcheck
