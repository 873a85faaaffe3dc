#!/usr/bin/env python3
"""Run 33: the stall samples and executed instructions of the sweep kernel by
SASS opcode, and the instructions that wait longest on a load (long
scoreboard), from `ncu --page source --csv --print-source sass`.
Usage: stalls_by_opcode.py src_sass.csv.gz"""
import collections
import csv
import gzip
import re
import sys

rows = list(csv.reader(gzip.open(sys.argv[1], "rt")))
header, data = rows[1], rows[2:]
col = {name: i for i, name in enumerate(header)}


def value(row, name):
    try:
        return float(row[col[name]].replace(",", ""))
    except ValueError:
        return 0.0


samples = sum(value(r, "Warp Stall Sampling (All Samples)") for r in data)
executed = sum(value(r, "Instructions Executed") for r in data)
reasons = [h for h in header if h.startswith("stall_") and "Not Issued" not in h]
print(f"{len(data)} SASS instructions, {samples:.0f} stall samples, {executed:.4g} warp instructions")
print("\nshare of all stall samples by reason:")
for name, total in sorted(((r, sum(value(x, r) for x in data)) for r in reasons), key=lambda p: -p[1])[:9]:
    print(f"  {name[6:]:18s} {100 * total / samples:5.1f}%")

by_op = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
for r in data:
    text = re.sub(r"^@!?U?P\w+\s+", "", r[col["Source"]].strip())
    op = text.split()[0].split(".")[0] if text else ""
    acc = by_op[op]
    acc[0] += value(r, "Warp Stall Sampling (All Samples)")
    acc[1] += value(r, "stall_wait")
    acc[2] += value(r, "stall_long_sb")
    acc[3] += value(r, "Instructions Executed")
print("\nopcode     samples%  of which wait%  long_sb%  executed%")
for op, (s, w, l, e) in sorted(by_op.items(), key=lambda p: -p[1][0])[:16]:
    print(f"  {op:10s} {100 * s / samples:6.1f} {100 * w / samples:10.1f} {100 * l / samples:9.1f} {100 * e / executed:9.1f}")

print("\nlongest waits on a load (long scoreboard), share of all samples:")
ranked = sorted(((value(r, "stall_long_sb"), n, r[col["Source"]].strip()) for n, r in enumerate(data)), reverse=True)
for v, n, text in ranked[:12]:
    print(f"  #{n:5d} {100 * v / samples:5.2f}%  {text[:60]}")
