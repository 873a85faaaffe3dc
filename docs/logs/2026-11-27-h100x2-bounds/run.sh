#!/usr/bin/env bash
# What bounds two of issue 30's targets (binary: cmake --preset device of
# 7c00765, kept as build/old3/btforge):
# 1. --devices all on 2 GPUs (target 1.9x one): the default large workload
#    on one GPU and on both, each launch's kernel start and stop per device
#    (bench --chunk-timeline), two rounds.
# 2. 64 and 512 symbols against 4 (target 1.5x the cost per cell): ncu on the
#    first launch of default's large grid cut to 131 072 combinations.
set -u
BT=$PWD/build/old3/btforge
G=$PWD/spec/grids/default_bench_large.json
mkdir -p "$OUT/logs"; cd "$OUT/logs"
exec > >(tee ../run.log) 2>&1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B="--backend cuda --strategy default --grid $G --skip-single-thread --cpu-max-combinations 256"
echo "== one GPU against --devices all"
for r in 1 2; do
    $BT bench $B --chunk-timeline one_$r.csv > one_$r.log 2>&1
    $BT bench $B --devices all --chunk-timeline both_$r.csv > both_$r.log 2>&1
    echo "round $r one: $(grep -h '^cuda' one_$r.log | tr '\n' ' ')"
    echo "round $r both: $(grep -h '^cuda' both_$r.log | tr '\n' ' ')"
    python3 - one_$r.csv both_$r.csv <<'PY'
import csv, sys
for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    by = {}
    for r in rows:
        by.setdefault(r['device'], []).append((float(r['start_s']), float(r['stop_s']), int(r['count'])))
    for d, v in sorted(by.items()):
        busy = sum(b - a for a, b, _ in v)
        print(f"  {path} device {d}: {len(v)} launches, {sum(c for *_, c in v)} combinations, "
              f"first start {min(a for a, _, _ in v):.3f} s, last stop {max(b for _, b, _ in v):.3f} s, kernels busy {busy:.3f} s")
PY
done
echo "== ncu: cost per cell as the universe grows"
M=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size
for shape in "4 25000 auto" "4 25000 wide" "64 25000 auto" "512 3125 auto"; do
    set -- $shape
    ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep --metrics $M \
        $BT bench $B --symbols $1 --bars $2 --max-combinations 131072 --kernel-variant $3 > ncu_$1_$3.log 2>&1
    echo "== $1 symbols x $2 bars ($(grep -ho 'kernel variant [a-z]*' ncu_$1_$3.log | head -1))"
    grep -E "^\s+(smsp|sm__|l1tex|lts|dram|gpu__|launch__)" ncu_$1_$3.log
done
cd .. && tar czf logs.tgz logs && rm -rf logs
