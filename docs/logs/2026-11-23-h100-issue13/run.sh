# What ran on the H100 (device tool, 2026-11-23), with the binary of commit
# 3fa8262 built here by `cmake --preset device && cmake --build build/device
# --target btforge` and carried over as build/device/host/cli/btforge.
B=build/device/host/cli/btforge; L=$OUT
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $L/devices.log 2>&1; $B devices >> $L/devices.log 2>&1
$B parity --backend cuda --combinations 100000 --report $L/parity.json > $L/parity.log 2>&1
for m in sharpe max_drawdown profit_factor n_trades calmar; do
  $B sweep --backend cuda --rank-by $m --top 50 -o /tmp/g_$m; $B sweep --backend cpu --rank-by $m --top 50 -o /tmp/c_$m
  cmp /tmp/g_$m.csv /tmp/c_$m.csv && echo "top50 $m: identical"
done   # > topn.log, with the --all-rows pair below
$B sweep --backend cuda --all-rows -o /tmp/ga; $B sweep --backend cpu --all-rows -o /tmp/ca; cmp /tmp/ga.csv /tmp/ca.csv && echo "all-rows 4608: identical"
$B bench --backend cuda --workload large --skip-single-thread --cpu-max-combinations 16384 > $L/bench_large.log 2>&1
