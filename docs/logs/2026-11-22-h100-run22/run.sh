# H100: gpu-check of the session's final binary (balanced order for several
# GPUs, top-N areas in the chunk plan, stale JIT temporaries removed), and
# two more large benchmarks for the median.
set -u
out=$1; mkdir -p $out/logs
new=build/device/host/cli/btforge
L=$out/logs
bash scripts/gpu-check $L/gc $new > $L/gc_summary.txt 2>&1
for r in 2 3; do
  $new bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > $L/large_$r.log 2>&1
done
tail -32 $L/gc_summary.txt
for f in $L/gc/bench_large*.log $L/large_*; do echo "== $(basename $f)"; grep -E "^cpu 16|^cuda \(|kernels only|setup|ratio" $f; done
grep -E "issue_active|inst_executed.sum|fp64|thread_inst_executed_per" $L/gc/ncu.log
rm -f $L/gc/*.json $L/gc/sanitized.csv $L/gc/sweep_*.csv; rm -rf $L/gc/jit-cache
tar -czf $out/logs.tgz -C $out logs && rm -rf $L
