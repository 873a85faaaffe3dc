"""finer-lines.py OUTDIR: the lines of the default _finer kernel that execute more warp-instructions than the
plain kernel's, and the local loads and stores per line, from finer-lines.sh's cs_plain.csv and cs_finer.csv."""
import collections, csv, sys


def rows(d, v):
    return list(csv.reader(open("%s/cs_%s.csv" % (d, v), errors="replace")))


def per_line(d, v):
    lines, local = {}, collections.Counter()
    f = hdr = line = None
    for r in rows(d, v):
        if not r:
            continue
        if r[0] == "File Path":
            f = r[1].split("/")[-1]
        elif r[0] == "Line No":
            hdr = r
        elif hdr is not None and r[0] != "":
            try:
                line = int(r[0])
            except ValueError:
                continue
            lines[(f, line)] = (float(r[hdr.index("Instructions Executed")]), r[1].strip()[:80])
        elif hdr is not None and line is not None and len(r) > 7:
            for op in ("LDL", "STL"):
                if op in r[3]:
                    local[(f, line, op)] += float(r[7])  # the SASS row's Instructions Executed
    return lines, local


d = sys.argv[1]
(P, LP), (F, LF) = per_line(d, "plain"), per_line(d, "finer")
tp, tf = sum(v[0] for v in P.values()), sum(v[0] for v in F.values())
print("warp-instructions: plain %.4g, _finer %.4g (+%.1f%%)" % (tp, tf, 100 * (tf / tp - 1)))
gain = lambda k: F.get(k, (0,))[0] - P.get(k, (0,))[0]
print("the 30 lines that grow most (finer - plain, plain, finer, file:line, source):")
for k in sorted(set(P) | set(F), key=lambda k: -gain(k))[:30]:
    print("%+10.3g %10.3g %10.3g  %s:%d  %s" % (gain(k), P.get(k, (0,))[0], F.get(k, (0,))[0], k[0], k[1],
                                               (F.get(k) or P.get(k))[1]))
ldl = lambda L: sum(v for k, v in L.items() if k[2] == "LDL")
print("local loads: plain %.4g, _finer %.4g; the 12 lines that grow most:" % (ldl(LP), ldl(LF)))
for k in sorted(set(LP) | set(LF), key=lambda k: -(LF.get(k, 0) - LP.get(k, 0)))[:12]:
    print("%+10.3g %10.3g %10.3g  %s:%d %s" % (LF.get(k, 0) - LP.get(k, 0), LP.get(k, 0), LF.get(k, 0), *k))
