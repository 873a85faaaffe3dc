#!/usr/bin/env bash
# Device run of the kx2 variants. Usage: build/kx2/run_kx2.sh OUT
set -u
out=$1; mkdir -p "$out"
b128=build/device/host/cli/btforge
b32=build/kx2/btforge32
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$out/devices.log" 2>&1
run_one() {  # variant binary
  local v=$1 bin=$2 fb=$PWD/build/kx2/$1/default_sweep.fatbin
  timeout 300 "$bin" parity --backend cuda --kernels "$fb" --strategy default --seed 7 --symbols 4 --bars 20000 \
      --combinations 20000 > "$out/${v}_parity.log" 2>&1
  timeout 300 "$bin" bench --backend cuda --kernels "$fb" --workload large --skip-single-thread \
      --cpu-max-combinations 1024 > "$out/${v}_bench.log" 2>&1
  printf '%-9s %s | %s\n' "$v" "$(grep -m1 '^cuda kernels only:' "$out/${v}_bench.log")" "$(grep -m1 '^verdict' "$out/${v}_parity.log")"
}
ncu_one() {
  local v=$1 bin=$2 fb=$PWD/build/kx2/$1/default_sweep.fatbin
  timeout 200 ncu --clock-control none --launch-count 1 -k regex:btforge_.*_sweep \
    --metrics smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum,launch__occupancy_limit_registers,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active \
    "$bin" bench --backend cuda --kernels "$fb" --workload large --max-combinations 262144 --skip-single-thread \
    --cpu-max-combinations 256 > "$out/${v}_ncu.log" 2>&1
  echo "$v ncu: $(grep -E 'inst_executed.sum|issue_active|warps_active|duration' "$out/${v}_ncu.log" | awk '{print $1"="$NF}' | tr '\n' ' ')"
}
for v in ${VARIANTS:-V0 VP5 VACD2G VA VC VD2 VG VP6}; do run_one $v $b128; done
for v in ${VARIANTS32:-V0_b32 VP5_b32}; do run_one $v $b32; done
for v in ${NCU128:-V0 VP5 VACD2G}; do ncu_one $v $b128; done
for v in ${NCU32:-VP5_b32}; do ncu_one $v $b32; done
