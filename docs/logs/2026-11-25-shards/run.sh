#!/usr/bin/env bash
# 1000 shards of the quickstart sweep (4608 combinations, 16 periods), then one merge with PBO and walk-forward.
set -euo pipefail
B=$1
start=$(date +%s.%N)
seq 0 999 | xargs -P 2 -I{} $B sweep --backend cpu --threads 1 --walk-forward rolling:4 --pbo --shard {}/1000 -o s{} > /dev/null 2>&1
end=$(date +%s.%N)
echo "1000 shard processes (2 at a time): $(echo "$end - $start" | bc) s"
du -ch s*.shard | tail -1
/usr/bin/time -v $B merge s*.shard -o merged > merge.txt 2> merge.time
grep -E "Elapsed|Maximum resident" merge.time
$B sweep --backend cpu --walk-forward rolling:4 --pbo -o one > one.txt 2>&1
for f in csv validation.json walkforward.csv; do cmp one.$f merged.$f && echo "$f: byte-identical to one process"; done
