set -u
out=$1; mkdir -p $out
bin=build/device/host/cli/btforge
$bin parity --backend cuda --strategy default --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $out/parity_default.log 2>&1; grep -E "^verdict|series:" $out/parity_default.log
$bin parity --backend cuda --strategy sma_cross --seed 7 --symbols 4 --bars 20000 --combinations 100000 > $out/parity_sma_cross.log 2>&1; grep -E "^verdict" $out/parity_sma_cross.log
compute-sanitizer --tool memcheck --error-exitcode 1 $bin sweep --backend cuda --synthetic-bars 2000 --synthetic-symbols 3 -o $out/sanitized > $out/memcheck.log 2>&1; echo "memcheck rc $?"
$bin sweep --backend cpu -o $out/sweep_cpu > $out/sweep_cpu.log 2>&1
$bin sweep --backend cuda -o $out/sweep_cuda > $out/sweep_cuda.log 2>&1
cmp $out/sweep_cpu.csv $out/sweep_cuda.csv && echo "quickstart csv identical"
$bin bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > $out/bench_large.log 2>&1
grep -E "^cuda|cpu 16|ratio" $out/bench_large.log
rm -f $out/*.csv $out/*.json
