#!/usr/bin/env bash
# --returns daily (Note [Equity marks at UTC days]) on the GPU: every
# strategy's quickstart with the SPA against buy and hold over the window's
# UTC days, on the CPU and on cuda; the CSV and the validation file must be
# the same bytes. Then the same on a window that starts mid-day.
#   bash docs/logs/2026-11-29-h200-issue32/daily.sh BTFORGE > $OUT/daily.log
set -u
b=$1
out=$(mktemp -d)
status=0
for s in $("$b" strategies --names); do
  for window in "" "--from 2024-03-01T07:00:00Z"; do
    for backend in cpu cuda; do
      /usr/bin/time -f "$s $backend ${window:-whole} %e s" "$b" sweep --strategy "$s" --backend "$backend" $window \
        --spa 1000 --returns daily --spa-benchmark hold -o "$out/${s}_$backend" > "$out/${s}_$backend.log" 2>&1 \
        || { echo "FAIL $s $backend"; status=1; }
    done
    grep -h "UTC days of the window" "$out/${s}_cuda.log" | head -1
    for f in csv validation.json; do
      cmp "$out/${s}_cpu.$f" "$out/${s}_cuda.$f" && echo "$s ${window:-whole window}: cuda $f = cpu $f" || status=1
    done
  done
done
exit $status
