# The script behind load.log: python3 measure.py 3 > load.log, run in a folder
# holding med.csv (see the log's header), with the two binaries named below.
import os, re, subprocess, statistics, sys, platform, datetime
bins = {"before (9b5b75c, /work/baseline/btforge)": "/work/baseline/btforge",
        "after (branch inputs)": "/work/wt-inputs/build/ci/host/cli/btforge"}
base = ["replay", "--strategy", "sma_cross", "-c", "0", "--data", "med.csv", "--instruments", "med.instruments.json"]
cpu = [l for l in open("/proc/cpuinfo") if l.startswith("model name")][0].split(":")[1].strip()
print("# %s  %s, %d cores; median of %s runs each, alternating" % (datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"), cpu, os.cpu_count(), sys.argv[1]))
print("# market: btforge data synth -o med.csv --timestamps ms --synthetic-bars 300000 --synthetic-symbols 16 --synthetic-seed 5")
print("# %d bytes; command: btforge %s [--no-market-cache]" % (os.path.getsize("med.csv"), " ".join(base)))
print("# columns: user+sys CPU seconds (wait4), peak RSS MiB, the loading: line's seconds (wall, on a shared machine)")
def run(b, args):
    p = subprocess.Popen([b] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.read()
    _, st, ru = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(st) == 0, out
    m = re.search(r"(?:parsed|read from its cache \S+) in ([0-9.]+) s", out)
    return ru.ru_utime + ru.ru_stime, ru.ru_maxrss / 1024, float(m.group(1)) if m else None
res = {k: {} for k in bins}
for i in range(int(sys.argv[1])):
    for k, b in bins.items():
        if os.path.exists("med.csv.btfcache"): os.remove("med.csv.btfcache")
        for name, extra in [("parse only (--no-market-cache)", ["--no-market-cache"]), ("first run: parse, write the cache", []), ("second run: from the cache", [])]:
            r = run(b, base + extra)
            print("%s | %s | run %d: %.2f s CPU, %.0f MiB, loading %s" % (k, name, i + 1, r[0], r[1], "-" if r[2] is None else "%.2f s" % r[2]))
            res[k].setdefault(name, []).append(r)
        res[k]["cache"] = os.path.getsize("med.csv.btfcache")
print("# medians")
for k in bins:
    for name, v in res[k].items():
        if name == "cache":
            print("%s | cache file %d bytes" % (k, v)); continue
        c, m, l = zip(*v)
        print("%s | %s: %.2f s CPU, %.0f MiB%s" % (k, name, statistics.median(c), statistics.median(m), "" if l[0] is None else ", loading %.2f s" % statistics.median(l)))
os.remove("med.csv.btfcache")
