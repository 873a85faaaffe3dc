#!/usr/bin/env bash
# Runs the hand-edited kernel variants of build/kx/ on the GPU machine.
# Usage (from the repo root): build/kx/run_variants.sh BTFORGE_BINARY OUT_DIR [VARIANT...]
#   VARIANT...        only these (folder names under build/kx/), in this order; default: all below
#   INCLUDE_SPILLING=1  also run variants whose ptxas.txt reports spills (skipped by default)
#   STEP_TIMEOUT=N      seconds allowed to each parity/bench command (default 400)
# For each variant with build/kx/<v>/default_sweep.fatbin: parity (4 symbols, 20000 bars,
# 20000 combinations) and bench (large workload) with --kernels; then one summary line each.
# A fatbin byte-identical to one already run (V3_lb2 == V2) is not run twice.
set -u
if [ $# -lt 2 ]; then
    echo "usage: $0 BTFORGE_BINARY OUT_DIR [VARIANT...]" >&2
    exit 2
fi
bin=$1
out=$2
shift 2
kx=build/kx
[ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 2; }
[ -d "$kx" ] || { echo "run from the repo root ($kx/ not found)" >&2; exit 2; }
mkdir -p "$out"
# Priority order: baseline first, then the no-spill candidates, then the rest.
all="V0 V7 V4 V2 V1 V5 V6 V3_lb2 V1_s8 V3_lb3 V3_lb4 V4_lb4 V5_lb3 V6_lb3 V2_s8"
variants=${*:-$all}
step_timeout=${STEP_TIMEOUT:-400}

ptxas_field() {  # $1 variant, $2 regex with one number -> the number, or '?'
    local f=$kx/$1/ptxas.txt
    [ -f "$f" ] || { echo '?'; return; }
    grep -oE "$2" "$f" | grep -oE '[0-9]+' | head -1 || echo '?'
}

declare -A seen
ran=()
for v in $variants; do
    fb=$kx/$v/default_sweep.fatbin
    if [ ! -f "$fb" ]; then echo "skip $v: no $fb"; continue; fi
    spill_st=$(ptxas_field "$v" '[0-9]+ bytes spill stores')
    spill_ld=$(ptxas_field "$v" '[0-9]+ bytes spill loads')
    if [ "${INCLUDE_SPILLING:-0}" != 1 ] && { [ "$spill_st" != 0 ] || [ "$spill_ld" != 0 ]; }; then
        echo "skip $v: spills ($spill_st B stores, $spill_ld B loads; '?' = no ptxas.txt)"
        continue
    fi
    sum=$(md5sum "$fb" | cut -d' ' -f1)
    if [ -n "${seen[$sum]:-}" ]; then echo "skip $v: same fatbin as ${seen[$sum]}"; continue; fi
    seen[$sum]=$v
    abs=$(cd "$(dirname "$fb")" && pwd)/$(basename "$fb")
    echo "== $v: parity"
    timeout "$step_timeout" "$bin" parity --backend cuda --kernels "$abs" --strategy default --seed 7 --symbols 4 \
        --bars 20000 --combinations 20000 > "$out/${v}_parity.log" 2>&1
    echo "   exit $?"
    echo "== $v: bench"
    timeout "$step_timeout" "$bin" bench --backend cuda --kernels "$abs" --workload large --skip-single-thread \
        --cpu-max-combinations 2048 > "$out/${v}_bench.log" 2>&1
    echo "   exit $?"
    ran+=("$v")
done

echo
echo "summary (regs/stack/spills from ptxas.txt; speedup vs the first variant run, normally V0):"
base_rate=""
for v in "${ran[@]}"; do
    rate=$(grep -m1 '^cuda kernels only:' "$out/${v}_bench.log" 2>/dev/null | sed -E 's/.* s, ([0-9.eE+-]+) cells\/s.*/\1/')
    ksec=$(grep -m1 '^cuda kernels only:' "$out/${v}_bench.log" 2>/dev/null | sed -E 's/^cuda kernels only: ([0-9.eE+-]+) s,.*/\1/')
    verdict=$(grep -m1 '^verdict:' "$out/${v}_parity.log" 2>/dev/null)
    bench_fail=$(grep -m1 '^FAIL' "$out/${v}_bench.log" 2>/dev/null)
    [ -z "$base_rate" ] && [ -n "$rate" ] && base_rate=$rate
    speedup=$(awk -v r="${rate:-0}" -v b="${base_rate:-0}" 'BEGIN { if (r > 0 && b > 0) printf "%.2fx", r / b; else print "-" }')
    printf '%-7s regs %-3s stack %-4s spill %s/%s | kernels only %s cells/s (%s s, %s) | parity %s%s\n' \
        "$v" "$(ptxas_field "$v" 'Used [0-9]+ registers')" "$(ptxas_field "$v" '[0-9]+ bytes stack frame')" \
        "$(ptxas_field "$v" '[0-9]+ bytes spill stores')" "$(ptxas_field "$v" '[0-9]+ bytes spill loads')" \
        "${rate:-n/a}" "${ksec:-n/a}" "$speedup" "${verdict:-no verdict (see ${v}_parity.log)}" \
        "${bench_fail:+ | bench: $bench_fail}"
done
