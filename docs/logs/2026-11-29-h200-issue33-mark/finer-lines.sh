#!/usr/bin/env bash
# Where the default _finer kernel's extra work lies, line by line (issue 33,
# item 4). A binary with line information (touch generated/default_sweep.cu;
# NVCC_APPEND_FLAGS=-lineinfo cmake --build build/device --target btforge),
# on the GPU: ncu's source counters of the narrow plain kernel (no finer bars)
# and of the narrow _finer kernel (--finer-bars 60), bench's large workload,
# first 16 384 combinations, each exported per source line with its SASS;
# then here: the lines that execute more warp-instructions in _finer, and
# the local loads and stores per line.
#   bash finer-lines.sh BTFORGE OUTDIR   (on the GPU machine)
#   python3 finer-lines.py OUTDIR > finer-lines.log
B=$1; d=$2; mkdir -p "$d"
for v in plain finer; do
  f=""; k=btforge_default_sweep_narrow; [ $v = finer ] && { f="--finer-bars 60"; k=btforge_default_sweep_finer_narrow; }
  ncu --clock-control none --launch-count 1 -k regex:"^$k\$" --section SourceCounters --import-source yes -f -o "$d/rep_$v" \
    "$B" bench --backend cuda --workload large --max-combinations 16384 --skip-single-thread --cpu-max-combinations 64 \
    --strategy default $f > "$d/ncu_$v.log" 2>&1
  ncu -i "$d/rep_$v.ncu-rep" --page source --csv --print-source cuda,sass > "$d/cs_$v.csv"
done
