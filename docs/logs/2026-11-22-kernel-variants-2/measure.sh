#!/usr/bin/env bash
# Usage: measure.sh DIR [extra nvcc flags...]  -- builds DIR/default_sweep.fatbin and prints stats
set -euo pipefail
export PATH=/tmp/cudatools/nvidia/cu13/bin:$PATH
d=$1; shift
cd "$d"
nvcc -fatbin --fmad=false -std=c++17 -gencode arch=compute_90,code=sm_90 -Xptxas -v "$@" \
  -o default_sweep.fatbin default_sweep.cu > ptxas.txt 2>&1 || { cat ptxas.txt; exit 1; }
cuobjdump -sass default_sweep.fatbin > sass.txt
regs=$(grep -o 'Used [0-9]* registers' ptxas.txt | awk '{print $2}')
stack=$(grep -o '[0-9]* bytes stack frame' ptxas.txt | awk '{print $1}')
sst=$(grep -o '[0-9]* bytes spill stores' ptxas.txt | awk '{print $1}')
sld=$(grep -o '[0-9]* bytes spill loads' ptxas.txt | awk '{print $1}')
smem=$(grep -o '[0-9]* bytes smem' ptxas.txt | awk '{print $1}' | head -1 || true)
ninsn=$(grep -cE '^\s+/\*[0-9a-f]+\*/' sass.txt)
ldl=$(grep -cE '^\s+/\*[0-9a-f]+\*/.*\bLDL(\.|\s)' sass.txt || true)
stl=$(grep -cE '^\s+/\*[0-9a-f]+\*/.*\bSTL(\.|\s)' sass.txt || true)
lds=$(grep -cE '^\s+/\*[0-9a-f]+\*/.*\bLDS(\.|\s)' sass.txt || true)
sts=$(grep -cE '^\s+/\*[0-9a-f]+\*/.*\bSTS(\.|\s)' sass.txt || true)
nops=$(grep -cE '^\s+/\*[0-9a-f]+\*/\s+NOP' sass.txt || true)
printf '%-10s regs=%s stack=%s spill_st=%s spill_ld=%s smem=%s sass=%s (nop %s) LDL=%s STL=%s LDS=%s STS=%s\n' \
  "$(basename "$d")" "$regs" "$stack" "$sst" "$sld" "${smem:-0}" "$ninsn" "$nops" "$ldl" "$stl" "$lds" "$sts"
