#!/usr/bin/env bash
# Where sma_cross's kernel spends its instructions and stalls today (b0a8c2f): a cubin of generated/ with
# -lineinfo (build/bisect/cubins/sma_cross_lineinfo.cubin: nvcc -cubin -lineinfo --fmad=false -std=c++17
# -DBTFORGE_SYMBOL_CAPACITY=16 -DBTFORGE_KERNEL_SUFFIX= -arch=sm_90 generated/sma_cross_sweep.cu), loaded by
# --kernels, one launch of 131 072 combinations x 4 symbols x 20 000 bars under ncu's SourceCounters, by source
# line (scripts/ncu-source-hotspots; its line numbers are those of generated/ at b0a8c2f) and the warp stall reasons.
#   hotspots.sh OUT
set -u
out=$1; cubin=build/bisect/cubins/sma_cross_lineinfo.cubin
PATH=$PATH:/usr/local/cuda/bin
ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --section SourceCounters --section WarpStateStats \
  -o "$out/sma" build/bisect/b0a8c2f/btforge bench --backend cuda --strategy sma_cross \
  --grid spec/grids/sma_cross_bench_large.json --kernels "$cubin" --bars 20000 --max-combinations 131072 \
  --skip-single-thread --cpu-max-combinations 64 > "$out/ncu_run.log" 2>&1
ncu -i "$out/sma.ncu-rep" --page source --csv --print-source sass > "$out/sass.csv" 2> "$out/sass.err"
nvdisasm -g -c "$cubin" > "$out/listing.txt"
python3 scripts/ncu-source-hotspots "$out/sass.csv" "$out/listing.txt" 45 > "$out/hotspots.txt" 2>&1
ncu -i "$out/sma.ncu-rep" --page details > "$out/details.txt" 2>&1
rm -f "$out/sma.ncu-rep" "$out/sass.csv" "$out/listing.txt"
cat "$out/hotspots.txt" | head -80
