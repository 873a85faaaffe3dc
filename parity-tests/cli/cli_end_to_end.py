#!/usr/bin/env python3
"""End-to-end tests of the btforge CLI (SPEC §4, §7, §8), run by CTest.

Usage: cli_end_to_end.py PATH/TO/btforge [unittest options]

Python 3 standard library only. Every test works in its own temporary
directory on a small synthetic market, so the whole script runs in seconds.
"""

import csv
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import unittest

BTFORGE = None  # set in main() from argv[1]

# SPEC §7, in the order the CSV and the replay print them.
METRICS = [
    "final_equity", "total_return", "net_pnl", "gross_profit", "gross_loss", "fees_paid", "funding_paid",
    "n_trades", "n_wins", "win_rate", "profit_factor", "max_drawdown", "sharpe", "sortino", "calmar",
    "exposure", "avg_trade_return", "max_consecutive_losses", "n_liquidations", "liquidation_loss", "ambiguous_bars", "magnified_bars",
]

# After the metrics, each row's outcome (Note [Distinct outcomes]).
OUTCOME = ["outcome_combinations", "outcome_first_id"]

# SPEC §5.
INDICATORS = [
    "SMA", "EMA", "WMA", "KAMA", "RSI", "MACD", "BBANDS", "ATR", "PLUS_DI", "MINUS_DI", "ADX", "STOCH", "CCI",
    "MFI", "OBV", "WILLR", "ROC", "MAX", "MIN", "BREADTH",
]

SEED = "7"
BARS = "3000"
# The same market options everywhere a sweep and its replay must agree.
MARKET = ["--synthetic-seed", SEED, "--synthetic-bars", BARS]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository

# 2^7 = 128 combinations; adx_min 100 should leave the trend mode without a trade.
DEFAULT_GRID = {
    "strategy": "default",
    "parameters": {
        "ema_fast": {"values": [8, 20]},
        "ema_slow": {"values": [40, 80]},
        "mode": {"values": [0, 1]},
        "adx_min": {"values": [15, 100]},
        "sl_atr": {"range": {"start": 1.5, "stop": 3.0, "step": 1.5}},
        "tp_atr": {"values": [3.0, 5.0]},
        "trail_atr": {"values": [0.0, 1.5]},
    },
}

# 3 * 2 * 3 * 2 * 2 = 72 combinations: range, values, log_range and a bool.
SMA_GRID = {
    "strategy": "sma_cross",
    "parameters": {
        "fast_period": {"range": {"start": 5, "stop": 15, "step": 5}},
        "slow_period": {"values": [40, 100]},
        "stop_pct": {"log_range": {"start": 0.01, "stop": 0.1, "num": 3}},
        "position_fraction": {"values": [0.25, 0.5]},
        "allow_short": {"values": [False, True]},
    },
}

GRIDS = {"default": (DEFAULT_GRID, 128), "sma_cross": (SMA_GRID, 72)}


def run(args, cwd, timeout=120):
    """Runs btforge with args in cwd; returns the CompletedProcess (text)."""
    return subprocess.run([BTFORGE] + [str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def run_bounded(args, cwd, memory_bytes=1 << 30, timeout=120):
    """Runs btforge with its address space capped at memory_bytes, so that an
    input read whole fails at once (out of memory) instead of taking the
    machine's memory; returns the CompletedProcess (text) and the run's peak
    resident memory in bytes."""
    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([BTFORGE] + [str(a) for a in args], cwd=cwd, stdout=out, stderr=err, preexec_fn=cap)
        killer = threading.Timer(timeout, p.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(p.pid, 0)  # wait4: this run's own rusage
        finally:
            killer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        done = subprocess.CompletedProcess(p.args, p.returncode, out.read().decode(errors="replace"),
                                           err.read().decode(errors="replace"))
    return done, usage.ru_maxrss * 1024


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [dict(zip(rows[0], r)) for r in rows[1:]], rows


def parse_metrics(stdout):
    """name=value lines of a replay's stdout, in order."""
    out = []
    for line in stdout.splitlines():
        m = re.fullmatch(r"([a-z_]+)=(\S+)", line)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def parse_parameters(stdout):
    for line in stdout.splitlines():
        if line.startswith("parameters: "):
            return dict(item.split("=", 1) for item in line[len("parameters: "):].split())
    raise AssertionError("no 'parameters:' line in replay output:\n" + stdout)


def parse_market_shape(stdout):
    m = re.search(r"(\d+) symbols x (\d+) bars", stdout)
    if not m:
        raise AssertionError("no 'N symbols x M bars' in output:\n" + stdout)
    return int(m.group(1)), int(m.group(2))


class CliTestCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="btforge-cli-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def btforge(self, *args, expect=0, cwd=None):
        p = run(list(args), cwd or self.dir)
        if expect is not None:
            self.assertEqual(p.returncode, expect,
                             "btforge %s\nexit %d\nstdout:\n%s\nstderr:\n%s"
                             % (" ".join(map(str, args)), p.returncode, p.stdout[-3000:], p.stderr[-3000:]))
        return p

    def write_json(self, name, doc):
        with open(self.path(name), "w") as f:
            json.dump(doc, f, indent=2)
        return self.path(name)

    def write_grid(self, strategy):
        return self.write_json("grid_%s.json" % strategy, GRIDS[strategy][0])

    def sweep(self, strategy, grid, output, *extra):
        self.btforge("sweep", "--strategy", strategy, "--grid", grid, "--all-rows", "-o", output, *MARKET, *extra)
        header, rows, _ = read_csv(output + ".csv")
        return header, rows

    def parameter_columns(self, header):
        # Note [Rows with non-finite metrics]: every row says whether it is valid;
        # Note [Rows with few trades]: and whether it has enough trades.
        self.assertEqual(header[:4], ["rank", "combination_id", "valid", "enough_trades"])
        self.assertEqual(header[-len(OUTCOME):], OUTCOME, "the CSV's last columns are not the outcome's")
        self.assertEqual(header[-len(OUTCOME) - len(METRICS):-len(OUTCOME)], METRICS,
                         "CSV metric columns are not those of SPEC §7")
        return header[4:-len(OUTCOME) - len(METRICS)]


# --------------------------------------------------------------------------- 1
class ReplayReproducesSweepRow(CliTestCase):
    """Case 1: replay --grid G --combination ID prints exactly the sweep's row."""

    def check_strategy(self, strategy):
        grid = self.write_grid(strategy)
        header, rows = self.sweep(strategy, grid, self.path("res"), "--threads", "2")
        params = self.parameter_columns(header)
        n = GRIDS[strategy][1]
        self.assertEqual(len(rows), n, "--all-rows must write every combination")
        self.assertEqual(sorted(int(r["combination_id"]) for r in rows), list(range(n)))
        self.assertEqual([int(r["rank"]) for r in rows], list(range(1, n + 1)))
        # Note [Rows with few trades]: rows with enough trades, then the others,
        # then invalid ones; each group by sharpe.
        group = [2 if r["valid"] != "true" else 0 if r["enough_trades"] == "true" else 1 for r in rows]
        self.assertEqual(group, sorted(group), "rows are not grouped by valid and enough_trades")
        for g in (0, 1):
            sharpe = [float(r["sharpe"]) for r, k in zip(rows, group) if k == g]
            self.assertEqual(sharpe, sorted(sharpe, reverse=True), "rows are not ranked by sharpe")

        chosen = {"best": rows[0], "worst": rows[-1], "middle": rows[n // 2], "second": rows[1]}
        zero = [r for r in rows if r["n_trades"] == "0"]
        if zero:
            chosen["zero trades"] = zero[0]
        busiest = max(rows, key=lambda r: int(r["n_trades"]))
        chosen["most trades"] = busiest
        for label, row in chosen.items():
            cid = row["combination_id"]
            with self.subTest(strategy=strategy, which=label, combination=cid):
                p = self.btforge("replay", "--strategy", strategy, "--grid", grid, "--combination", cid, *MARKET,
                                 "--trades", self.path("t%s.csv" % cid), "--equity", self.path("e%s.csv" % cid))
                printed = parse_metrics(p.stdout)
                self.assertEqual([name for name, _ in printed], METRICS, p.stdout)
                for name, value in printed:
                    self.assertEqual(value, row[name], "%s: replay prints %s, the sweep row has %s"
                                     % (name, value, row[name]))
                self.assertEqual(parse_parameters(p.stdout), {k: row[k] for k in params},
                                 "replay's parameters differ from the CSV row's")
        return zero

    def test_default_strategy(self):
        zero = self.check_strategy("default")
        self.assertTrue(zero, "the grid has adx_min=100; expected some combinations without a trade")

    def test_sma_cross_strategy(self):
        self.check_strategy("sma_cross")

    def test_combination_outside_grid(self):
        grid = self.write_grid("sma_cross")
        p = self.btforge("replay", "--strategy", "sma_cross", "--grid", grid, "--combination", "72", *MARKET,
                         expect=1)
        self.assertIn("outside the grid", p.stderr)
        self.assertEqual(os.listdir(self.dir), ["grid_sma_cross.json"])


# --------------------------------------------------------------------------- 2
class ThreadCountIndependence(CliTestCase):
    """Case 2: --threads 1 and --threads 3 give the same results."""

    def check_strategy(self, strategy):
        grid = self.write_grid(strategy)
        for threads in ("1", "3"):
            self.sweep(strategy, grid, self.path("t" + threads), "--threads", threads)
        with open(self.path("t1.csv"), "rb") as a, open(self.path("t3.csv"), "rb") as b:
            self.assertEqual(a.read(), b.read(), "CSV of --threads 1 and --threads 3 differ")
        with open(self.path("t1.json")) as a, open(self.path("t3.json")) as b:
            j1, j3 = json.load(a), json.load(b)
        self.assertEqual(j1["rows"], j3["rows"])
        self.assertEqual(len(j1["rows"]), GRIDS[strategy][1])
        for key in ("strategy", "spec", "grid", "market", "combinations", "cells", "rank_by"):
            self.assertEqual(j1[key], j3[key], key)
        self.assertTrue(j1["backend"].startswith("cpu (1 thread"), j1["backend"])
        self.assertTrue(j3["backend"].startswith("cpu (3 thread"), j3["backend"])
        self.assertNotIn("cuda", j1["backend"] + j3["backend"])

        # The top N outcomes (ranked on the fly) are the head of the full
        # ranking's rows that are their outcome's first (Note [Distinct
        # outcomes]), ties included; the sizes of the outcomes add up.
        self.btforge("sweep", "--strategy", strategy, "--grid", grid, "--top", "7", "-o", self.path("top"),
                     "--threads", "3", *MARKET)
        _, _, top = read_csv(self.path("top.csv"))
        _, full_rows, full = read_csv(self.path("t1.csv"))
        firsts = [r for r in full[1:] if r[1] == r[-1]]
        expected = [full[0]] + [[str(i + 1)] + r[1:] for i, r in enumerate(firsts[:7])]
        self.assertEqual(top, expected, "--top 7 is not the head of the --all-rows ranking, one row per outcome")
        sizes = {}
        for row in full_rows:
            sizes[row["outcome_first_id"]] = sizes.get(row["outcome_first_id"], 0) + 1
        self.assertEqual(sizes, {r[1]: int(r[-2]) for r in firsts})
        self.assertEqual(j1["distinct_outcomes"], len(firsts))
        # Rows of one outcome have equal metrics.
        by_first = {r["combination_id"]: r for r in full_rows if r["combination_id"] == r["outcome_first_id"]}
        for row in full_rows:
            first = by_first[row["outcome_first_id"]]
            self.assertEqual([row[m] for m in METRICS], [first[m] for m in METRICS])
        json_firsts = [r for r in j1["rows"] if r["combination_id"] == r["outcome"]["first_id"]][:7]
        for rank, row in enumerate(json_firsts):
            row["rank"] = rank + 1
            self.assertIn("parameter_values", row["outcome"])  # --all-rows describes the top outcomes too
        with open(self.path("top.json")) as f:
            self.assertEqual(json.load(f)["rows"], json_firsts)

    def test_default_strategy(self):
        self.check_strategy("default")

    def test_sma_cross_strategy(self):
        self.check_strategy("sma_cross")

    def test_threads_0_are_the_cpus_the_process_may_run_on(self):
        # Note [Threads a process may use]: bound to one CPU (as mpirun binds
        # a rank), --threads 0 starts one thread, not one per hardware thread.
        taskset = shutil.which("taskset")
        if taskset is None:
            self.skipTest("no taskset (util-linux)")
        grid = self.write_grid("default")
        for cpus, threads in (("0", "1 thread"), ("0-%d" % (os.cpu_count() - 1), "%d thread" % os.cpu_count())):
            p = subprocess.run([taskset, "-c", cpus, BTFORGE, "sweep", "--grid", grid, "--threads", "0", "--backend",
                                "cpu", "-o", self.path("bound"), *MARKET], cwd=self.dir, capture_output=True, text=True,
                               timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(self.path("bound.json")) as f:
                self.assertTrue(json.load(f)["backend"].startswith("cpu (" + threads), cpus)


# --------------------------------------------------------------------------- 3
class ReplayBySetAndOutputFiles(CliTestCase):
    """Case 3: --set equals --combination; trade log and equity curve are consistent."""

    def check_strategy(self, strategy):
        grid = self.write_grid(strategy)
        header, rows = self.sweep(strategy, grid, self.path("res"), "--threads", "2")
        params = self.parameter_columns(header)
        picks = [rows[0], rows[len(rows) // 3], rows[-1]]
        for row in picks:
            cid = row["combination_id"]
            with self.subTest(strategy=strategy, combination=cid):
                by_id = self.btforge("replay", "--strategy", strategy, "--grid", grid, "-c", cid, *MARKET,
                                     "--trades", self.path("id_trades.csv"), "--equity", self.path("id_equity.csv"))
                sets = []
                for name in params:
                    sets += ["--set", "%s=%s" % (name, row[name])]
                by_set = self.btforge("replay", "--strategy", strategy, *sets, *MARKET,
                                      "--trades", self.path("set_trades.csv"), "--equity", self.path("set_equity.csv"))
                self.assertEqual(parse_metrics(by_set.stdout), parse_metrics(by_id.stdout))
                self.assertEqual(parse_parameters(by_set.stdout), parse_parameters(by_id.stdout))
                for kind in ("trades", "equity"):
                    with open(self.path("id_%s.csv" % kind), "rb") as a, open(self.path("set_%s.csv" % kind), "rb") as b:
                        self.assertEqual(a.read(), b.read(), "%s CSV of --set and --combination differ" % kind)
                self.check_files(by_id.stdout, row, self.path("id_trades.csv"), self.path("id_equity.csv"))

    def check_files(self, stdout, row, trades_path, equity_path):
        _, n_bars = parse_market_shape(stdout)
        metrics = dict(parse_metrics(stdout))

        header, equity, _ = read_csv(equity_path)
        self.assertEqual(header, ["bar", "time", "equity"])
        self.assertEqual(len(equity), n_bars, "the equity CSV must have one line per bar")
        self.assertEqual([int(e["bar"]) for e in equity], list(range(n_bars)))
        self.assertEqual(equity[-1]["equity"], metrics["final_equity"])
        self.assertEqual(equity[-1]["equity"], row["final_equity"])
        times = [e["time"] for e in equity]
        self.assertEqual(times, sorted(times))

        header, fills, _ = read_csv(trades_path)
        self.assertEqual(header, ["trade", "bar", "time", "symbol", "reason", "side", "qty", "price", "fee",
                                  "realized_pnl", "cash_after"])
        m = re.search(r"fills: (\d+) ->", stdout)
        self.assertIsNotNone(m, stdout)
        self.assertEqual(len(fills), int(m.group(1)))
        if not fills:
            self.assertEqual(metrics["n_trades"], "0")
            self.assertEqual(metrics["final_equity"], equity[0]["equity"])
            return
        self.assertEqual(len({f["trade"] for f in fills}), int(metrics["n_trades"]),
                         "n_trades must count the round trips of the trade log")
        self.assertEqual(fills[-1]["cash_after"], metrics["final_equity"],
                         "after the last fill everything is closed: cash is the final equity")
        # Every trade is closed by the end: by its own exits, or by end_of_data on the last bar.
        net = {}
        for f in fills:
            self.assertIn(f["reason"], ("entry", "stop_loss", "stop_gap", "partial_target", "target",
                                        "signal_exit", "max_hold", "end_of_data"))
            if f["reason"] == "end_of_data":
                self.assertEqual(int(f["bar"]), n_bars - 1, "end_of_data fill before the last bar")
            qty = float(f["qty"]) * (1 if f["side"] == "buy" else -1)
            size, opened = net.get(f["trade"], (0.0, 0.0))
            net[f["trade"]] = (size + qty, opened + (abs(qty) if f["reason"] == "entry" else 0.0))
        open_at_end = {t: s for t, (s, o) in net.items() if abs(s) > 1e-9 * max(o, 1.0)}
        self.assertTrue(fills[-1]["reason"] == "end_of_data" or not open_at_end,
                        "positions left open at the end: %s" % open_at_end)
        self.assertFalse(open_at_end, "positions left open at the end: %s" % open_at_end)
        self.assertEqual([int(f["bar"]) for f in fills], sorted(int(f["bar"]) for f in fills))

    def test_default_strategy(self):
        self.check_strategy("default")

    def test_sma_cross_strategy(self):
        self.check_strategy("sma_cross")

    def test_combination_option_spellings(self):
        # Every spelling Boost.Program_options accepts for --combination selects the combination.
        grid = self.write_grid("sma_cross")
        base = ["replay", "--strategy", "sma_cross", "--grid", grid, *MARKET]
        reference = parse_metrics(self.btforge(*base, "--combination", "5").stdout)
        for spelling in (["-c", "5"], ["--combination=5"], ["-c5"], ["--comb", "5"]):
            with self.subTest(spelling=spelling):
                p = self.btforge(*base, *spelling, expect=None)
                self.assertEqual(p.returncode, 0, "replay %s was refused: %s" % (" ".join(spelling), p.stderr))
                self.assertEqual(parse_metrics(p.stdout), reference)

    def test_set_with_attached_combination_is_refused(self):
        # --set together with a combination (any spelling) must be refused, not run with --set alone.
        grid = self.write_grid("sma_cross")
        for spelling in (["-c", "5"], ["-c5"], ["--comb", "5"]):
            with self.subTest(spelling=spelling):
                p = self.btforge("replay", "--strategy", "sma_cross", "--grid", grid, "--set", "fast_period=5",
                                 *spelling, *MARKET, expect=None)
                self.assertEqual(p.returncode, 2, "replay --set ... %s ran instead of being refused:\n%s"
                                 % (" ".join(spelling), p.stdout[:300]))

    def test_set_and_combination_are_exclusive(self):
        grid = self.write_grid("default")
        p = self.btforge("replay", "--grid", grid, "-c", "1", "--set", "mode=1", *MARKET, expect=2)
        self.assertIn("exactly one of --combination, --set and --walk-forward", p.stderr)
        self.btforge("replay", "--grid", grid, *MARKET, expect=2)
        p = self.btforge("replay", "--set", "mode=7", *MARKET, expect=1)
        self.assertIn("mode", p.stderr)
        p = self.btforge("replay", "--set", "no_such_parameter=1", *MARKET, expect=None)
        self.assertNotEqual(p.returncode, 0)
        self.assertEqual(sorted(os.listdir(self.dir)), ["grid_default.json"])


# --------------------------------------------------------------------------- 4
class ConditionalAxes(CliTestCase):
    """Note [Conditional axes]: the default strategy's EMAs and adx_min only
    in mode 0 (the trend signal), bb_k only in mode 1 (the bands). The
    conditional grid runs fewer combinations and loses no outcome: the same
    distinct outcomes, the same rows (ids, parameters, metrics) in the same
    order. The claim about the strategy is checked here, on its results."""

    AXES = {
        "ema_fast": [8, 20], "ema_slow": [40, 80], "adx_min": [15, 25], "bb_k": [2.0, 2.5],
        "mode": [0, 1], "sl_atr": [1.5, 3.0], "trail_atr": [0.0, 1.5],
    }
    WHEN = {"ema_fast": [0], "ema_slow": [0], "adx_min": [0], "bb_k": [1]}

    def grid(self, name, conditional):
        params = {}
        for axis, values in self.AXES.items():
            params[axis] = {"values": values}
            if conditional and axis in self.WHEN:
                params[axis]["when"] = {"mode": self.WHEN[axis]}
        return self.write_json(name, {"strategy": "default", "parameters": params})

    def test_the_conditional_grid_gives_every_outcome_of_the_full_one(self):
        full = self.grid("grid_full.json", False)
        conditional = self.grid("grid_conditional.json", True)
        for name, grid in (("full", full), ("cond", conditional)):
            self.btforge("sweep", "--grid", grid, "--top", "1000", "--min-trades", "0", "-o", self.path(name),
                         *MARKET)
        with open(self.path("full.json")) as f:
            full_doc = json.load(f)
        with open(self.path("cond.json")) as f:
            cond_doc = json.load(f)
        self.assertEqual(full_doc["combinations"], 128)
        # mode 0: 2 x 2 x 2 EMAs and adx_min; mode 1: 2 bb_k; each x 4 stops and trails.
        self.assertEqual(cond_doc["combinations"], 8 * 4 + 2 * 4)
        self.assertEqual(cond_doc["distinct_outcomes"], full_doc["distinct_outcomes"])
        _, full_rows, _ = read_csv(self.path("full.csv"))
        _, cond_rows, _ = read_csv(self.path("cond.csv"))
        self.assertEqual(len(cond_rows), full_doc["distinct_outcomes"])
        strip = lambda rows: [{k: v for k, v in r.items() if k != "outcome_combinations"} for r in rows]
        self.assertEqual(strip(cond_rows), strip(full_rows))
        # The table marks an axis whose condition does not hold with "-".
        p = self.btforge("sweep", "--grid", conditional, "--top", "3", "-o", self.path("t"), *MARKET)
        self.assertIn("40 combinations, ", p.stdout)
        # Columns ema_fast ema_slow bb_k mode adx_min: mode 1 rows without the
        # EMAs and adx_min, mode 0 rows without bb_k.
        self.assertRegex(p.stdout, r"\n +\d+ +\d+ +\d+ +- +- +\S+ +1 +- ")
        self.assertRegex(p.stdout, r"\n +\d+ +\d+ +\d+ +\d+ +\d+ +- +0 +\d+ ")
        # --param gives the same grid.
        options = []
        for axis, values in self.AXES.items():
            text = "%s=%s" % (axis, ",".join(str(v) for v in values))
            if axis in self.WHEN:
                text += " when mode=" + ",".join(str(v) for v in self.WHEN[axis])
            options += ["--param", text]
        self.btforge("sweep", *options, "--top", "1000", "--min-trades", "0", "-o", self.path("param"), *MARKET)
        _, param_rows, _ = read_csv(self.path("param.csv"))
        self.assertEqual(param_rows, cond_rows)

    def test_every_read_when_claim_of_the_spec_holds_on_results(self):
        """Note [Parameters a mode reads]: btforge-gen proves spec/default.json's
        read_when claims on the reference's code; here they are checked on
        results, independently of that proof. Every claimed parameter takes
        two values in both modes; "when": "spec" leaves out what the claims
        say repeats, and every outcome of the full grid is still there, in
        the same rows."""
        with open(os.path.join(ROOT, "spec", "default.json")) as f:
            spec = json.load(f)
        claimed = {p["name"]: p for p in spec["parameters"] if "read_when" in p}
        self.assertEqual(len(claimed), 12)
        params = {"mode": {"values": [0, 1]}}
        for name, p in claimed.items():
            low = p["default"]
            high = low + 1 if p["type"] == "int" else low * 0.8
            params[name] = {"values": [low, high]}
        full = self.write_json("grid_claims_full.json", {"strategy": "default", "parameters": params})
        for axis in claimed:
            params[axis] = dict(params[axis], when="spec")
        proven = self.write_json("grid_claims_spec.json", {"strategy": "default", "parameters": params})
        for name, grid in (("claims_full", full), ("claims_spec", proven)):
            p = self.btforge("sweep", "--grid", grid, "--top", "100000", "--min-trades", "0", "-o", self.path(name),
                             *MARKET)
        self.assertIn("(proven by the spec's read_when", p.stderr)
        with open(self.path("claims_full.json")) as f:
            full_doc = json.load(f)
        with open(self.path("claims_spec.json")) as f:
            spec_doc = json.load(f)
        per_mode = {m: sum(1 for p in claimed.values() if p["read_when"]["mode"] == [m]) for m in (0, 1)}
        self.assertEqual(full_doc["combinations"], 2 ** (1 + len(claimed)))
        self.assertEqual(spec_doc["combinations"], 2 ** per_mode[0] + 2 ** per_mode[1])
        self.assertEqual(spec_doc["distinct_outcomes"], full_doc["distinct_outcomes"])
        _, full_rows, _ = read_csv(self.path("claims_full.csv"))
        _, spec_rows, _ = read_csv(self.path("claims_spec.csv"))
        strip = lambda rows: [{k: v for k, v in r.items() if k != "outcome_combinations"} for r in rows]
        self.assertEqual(strip(spec_rows), strip(full_rows))


class BadInputsAreRejected(CliTestCase):
    """Case 4: bad data, grids and specs fail cleanly and write nothing."""

    def setUp(self):
        super().setUp()
        self.btforge("data", "synth", "-o", self.path("good.csv"), "--synthetic-bars", "40", "--synthetic-symbols", "2")
        with open(self.path("good.csv")) as f:
            lines = f.read().splitlines()
        self.header, self.rows = lines[0], lines[1:]
        self.assertEqual(self.header, "timestamp,symbol,open,high,low,close,volume,funding_rate")
        self.grid = self.write_grid("sma_cross")

    def write_lines(self, name, rows, header=None):
        with open(self.path(name), "w") as f:
            f.write("\n".join([header or self.header] + rows) + "\n")
        return name

    def with_field(self, row_index, column, value):
        rows = list(self.rows)
        fields = rows[row_index].split(",")
        fields[column] = value
        rows[row_index] = ",".join(fields)
        return rows

    def assert_rejected(self, args, stderr_pattern, expect_code=1):
        """Runs sweep, replay and indicators with args: each fails with the message and writes nothing."""
        commands = [
            ["sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o", "OUTPUT"],
            ["replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", "0",
             "--trades", "TRADES.csv", "--equity", "EQUITY.csv"],
        ]
        if "--spec" not in args and self.grid.endswith("grid_sma_cross.json"):
            commands.append(["indicators", "--name", "EMA", "--param", "period=5", "-o", "IND.csv"])
        for command in commands:
            with self.subTest(command=command[0], args=args):
                before = sorted(os.listdir(self.dir))
                p = self.btforge(*command, *args, expect=None)
                self.assertEqual(p.returncode, expect_code, p.stderr)
                self.assertRegex(p.stderr, stderr_pattern)
                after = sorted(os.listdir(self.dir))
                self.assertEqual(after, before, "files left behind by a failed run")
                self.assertFalse([f for f in after if ".tmp-" in f])
        return p

    def test_good_data_is_accepted(self):
        # The baseline of this class: the uncorrupted file sweeps and writes both results.
        self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "--data", "good.csv", "-o", "OUTPUT")
        self.assertTrue(os.path.exists(self.path("OUTPUT.csv")))
        self.assertTrue(os.path.exists(self.path("OUTPUT.json")))

    def test_unsorted_timestamps(self):
        rows = list(self.rows)
        rows[3], rows[4] = rows[4], rows[3]  # file lines 5 and 6, same symbol
        f = self.write_lines("unsorted.csv", rows)
        self.assert_rejected(["--data", f], r"unsorted\.csv:6:1: unsorted-timestamps: ")

    def test_duplicate_timestamp(self):
        rows = list(self.rows)
        rows.insert(4, rows[3])  # line 6 repeats line 5
        f = self.write_lines("dup.csv", rows)
        self.assert_rejected(["--data", f], r"dup\.csv:6:1: duplicate-timestamp: ")

    def test_high_below_low(self):
        fields = self.rows[5].split(",")  # file line 7
        rows = self.with_field(5, 3, fields[4])
        rows[5] = ",".join(fields[:3] + [fields[4], fields[3]] + fields[5:])
        f = self.write_lines("highlow.csv", rows)
        self.assert_rejected(["--data", f], r"highlow\.csv:7:4: high-below-low: ")

    def test_negative_price(self):
        f = self.write_lines("negative.csv", self.with_field(6, 5, "-1"))
        self.assert_rejected(["--data", f], r"negative\.csv:8:6: non-positive-price: ")

    def test_zero_price(self):
        f = self.write_lines("zero.csv", self.with_field(9, 2, "0"))
        self.assert_rejected(["--data", f], r"zero\.csv:11:3: non-positive-price: ")

    def test_nan(self):
        f = self.write_lines("nan.csv", self.with_field(7, 5, "NaN"))
        self.assert_rejected(["--data", f], r"nan\.csv:9:6: not-a-number: ")

    def test_missing_column(self):
        rows = [",".join(r.split(",")[:6] + r.split(",")[7:]) for r in self.rows]
        f = self.write_lines("nocol.csv", rows, "timestamp,symbol,open,high,low,close,funding_rate")
        # The header is line 1; a missing column has no column number of its own.
        self.assert_rejected(["--data", f], r"nocol\.csv:1: missing-column: .*\"volume\"")

    def test_unknown_symbol(self):
        # A requested symbol absent from the file has no line of its own.
        p = self.assert_rejected(["--data", "good.csv", "--symbols", "NOPE"], r"good\.csv: unknown-symbol: .*NOPE")
        self.assertIn("SYN1USDT", p.stderr)

    def test_grid_with_step_zero(self):
        grid = dict(SMA_GRID, parameters=dict(SMA_GRID["parameters"],
                                              fast_period={"range": {"start": 5, "stop": 15, "step": 0}}))
        self.grid = self.write_json("step0.json", grid)
        self.assert_rejected([], r"step0\.json: /parameters/fast_period/range/step: expected a positive number")

    def test_grid_with_unknown_parameter(self):
        grid = dict(SMA_GRID, parameters=dict(SMA_GRID["parameters"], no_such_parameter={"values": [1, 2]}))
        self.grid = self.write_json("unknown.json", grid)
        self.assert_rejected([], r"unknown\.json: /parameters/no_such_parameter: .*unknown key \"no_such_parameter\"")

    def test_grid_with_invalid_json(self):
        with open(self.path("broken.json"), "w") as f:
            f.write('{"strategy": "sma_cross",\n  "parameters": {,}}\n')
        self.grid = "broken.json"
        self.assert_rejected([], r"broken\.json:2:18: invalid JSON")

    def test_spec_with_bad_type(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "..", "..", "spec", "sma_cross.json")) as f:
            spec = json.load(f)
        spec["parameters"][2]["type"] = "float"
        self.write_json("badspec.json", spec)
        self.assert_rejected(["--spec", "badspec.json"], r"badspec\.json: /parameters/2/type: expected one of")
        spec["parameters"][2]["type"] = "double"
        spec["parameters"][2]["default"] = "five percent"
        self.write_json("badspec.json", spec)
        self.assert_rejected(["--spec", "badspec.json"], r"badspec\.json: /parameters/2/default: expected a number")

    def test_default_spec_with_bad_type(self):
        here = os.path.dirname(os.path.abspath(__file__))
        with open(os.path.join(here, "..", "..", "spec", "default.json")) as f:
            spec = json.load(f)
        spec["parameters"][0]["type"] = "integer"
        self.write_json("baddefault.json", spec)
        before = sorted(os.listdir(self.dir))
        p = self.btforge("sweep", "--spec", "baddefault.json", "-o", "OUTPUT", *MARKET, expect=1)
        self.assertRegex(p.stderr, r"baddefault\.json: /parameters/0/type: expected one of \"int\"")
        self.assertEqual(sorted(os.listdir(self.dir)), before)

    def test_unknown_rank_by_metric(self):
        before = sorted(os.listdir(self.dir))
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "--rank-by", "no_such_metric",
                         "-o", "OUTPUT", *MARKET, expect=2)
        self.assertIn("unknown metric 'no_such_metric'", p.stderr)
        for name in METRICS:
            self.assertIn(name, p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before)

    def test_missing_output_directory(self):
        before = sorted(os.listdir(self.dir))
        # Note [Outputs checked before work]: a usage error, found before any work.
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o", "no/such/dir/OUT", *MARKET,
                         expect=2)
        self.assertIn("no/such/dir/OUT.csv: No such file or directory", p.stderr)
        self.btforge("data", "synth", "-o", "no/such/dir/x.csv", expect=2)
        self.assertEqual(sorted(os.listdir(self.dir)), before)


class InterruptedSweep(CliTestCase):
    """An interrupted sweep exits 130 and writes no result file (SPEC §4: nothing half-written)."""

    def test_sigint_and_sigterm(self):
        import signal
        import time
        for sig in (signal.SIGINT, signal.SIGTERM):
            with self.subTest(signal=sig.name):
                # The quickstart grid on the full default market: ~30 s of work on one thread.
                proc = subprocess.Popen([BTFORGE, "sweep", "--backend", "cpu", "--threads", "1", "-o", "OUTPUT"],
                                        cwd=self.dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                # Its first stderr line comes just before the handler is installed and the work starts.
                first = proc.stderr.readline()
                self.assertIn("combinations", first)
                time.sleep(0.5)
                self.assertIsNone(proc.poll(), "the sweep ended before it could be interrupted")
                proc.send_signal(sig)
                try:
                    out, err = proc.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.communicate()
                    self.fail("the sweep did not stop within 60 s of %s" % sig.name)
                self.assertEqual(proc.returncode, 130, err[-2000:])
                self.assertIn("no result file written", err)
                self.assertEqual(os.listdir(self.dir), [])


# --------------------------------------------------------------------------- 5
class SyntheticCsvRoundTrip(CliTestCase):
    """Case 5: data synth -o f.csv then --data f.csv equals the embedded market."""

    def check(self, strategy, timestamps):
        grid = self.write_grid(strategy)
        p = self.btforge("data", "synth", "-o", self.path("market.csv"), "--timestamps", timestamps, *MARKET)
        self.assertIn("market.csv", p.stdout)
        with open(self.path("market.csv")) as f:
            first = f.readline().strip()
        self.assertEqual(first, "timestamp,symbol,open,high,low,close,volume,funding_rate")
        self.sweep(strategy, grid, self.path("embedded"), "--threads", "2")
        self.assertTrue(os.path.exists(self.path("market.instruments.json")))
        from_csv = ["--data", self.path("market.csv"), "--instruments", self.path("market.instruments.json")]
        self.btforge("sweep", "--strategy", strategy, "--grid", grid, "--all-rows", "-o", self.path("fromcsv"),
                     "--threads", "2", *from_csv)
        with open(self.path("embedded.csv"), "rb") as a, open(self.path("fromcsv.csv"), "rb") as b:
            self.assertEqual(a.read(), b.read(),
                             "sweep --data on the CSV and instruments written by 'data synth' differs from the "
                             "embedded market")
        with open(self.path("embedded.json")) as a, open(self.path("fromcsv.json")) as b:
            self.assertEqual(json.load(a)["rows"], json.load(b)["rows"])
        # Replays agree too, down to the trade log and the equity curve (times and symbols included).
        _, rows, _ = read_csv(self.path("embedded.csv"))
        cid = rows[0]["combination_id"]
        outs = []
        for name, market in (("e", list(MARKET)), ("c", from_csv)):
            p = self.btforge("replay", "--strategy", strategy, "--grid", grid, "-c", cid, *market,
                             "--trades", self.path(name + "_t.csv"), "--equity", self.path(name + "_e.csv"))
            outs.append(parse_metrics(p.stdout))
            with open(self.path(name + "_t.csv"), "rb") as t, open(self.path(name + "_e.csv"), "rb") as e:
                outs.append(t.read() + e.read())
        self.assertEqual(outs[0], outs[2])
        self.assertEqual(outs[1], outs[3])

    def test_default_iso_timestamps(self):
        self.check("default", "iso")

    def test_sma_cross_ms_timestamps(self):
        self.check("sma_cross", "ms")


# --------------------------------------------------------------------------- 6
class IndicatorsCommand(CliTestCase):
    """Case 6: indicators writes aligned series; --list; usage errors."""

    def test_ema_csv(self):
        p = self.btforge("indicators", "--name", "EMA", "--param", "period=10", "-o", "ema.csv",
                         "--synthetic-bars", "200", "--synthetic-seed", SEED)
        n_symbols, n_bars = parse_market_shape(p.stdout)
        with open(self.path("ema.csv")) as f:
            self.assertEqual(f.readline(), "time,symbol,value\n")
        _, rows, _ = read_csv(self.path("ema.csv"))
        by_symbol = {}
        for r in rows:
            by_symbol.setdefault(r["symbol"], []).append(r)
        self.assertEqual(len(by_symbol), n_symbols)
        self.assertLessEqual(len(rows), n_symbols * n_bars)
        for symbol, series in by_symbol.items():
            values = [r["value"] for r in series]
            self.assertGreater(len(values), 10, symbol)
            self.assertTrue(all(v.lower() == "nan" for v in values[:9]), (symbol, values[:10]))
            for v in values[9:]:
                self.assertNotEqual(v.lower(), "nan", symbol)
                float(v)
            times = [r["time"] for r in series]
            self.assertEqual(times, sorted(times), symbol)
            self.assertEqual(len(set(times)), len(times), symbol)

    def test_ema_seed_is_mean_of_first_ten_closes(self):
        # EMA(10)'s first value is the SMA of the first 10 closes (SPEC §5): checked against data synth.
        self.btforge("data", "synth", "-o", "m.csv", "--synthetic-bars", "30", "--synthetic-symbols", "1",
                     "--synthetic-seed", SEED)
        self.btforge("indicators", "--name", "EMA", "--param", "period=10", "-o", "ema.csv", "--data", "m.csv")
        _, market, _ = read_csv(self.path("m.csv"))
        _, ema, _ = read_csv(self.path("ema.csv"))
        self.assertEqual(len(ema), len(market))
        seed = sum(float(r["close"]) for r in market[:10]) / 10
        self.assertAlmostEqual(float(ema[9]["value"]), seed, delta=1e-9 * abs(seed))

    def test_multi_output_header(self):
        self.btforge("indicators", "--name", "BBANDS", "--param", "period=20", "--param", "k=2", "-o", "bb.csv",
                     "--synthetic-bars", "100")
        with open(self.path("bb.csv")) as f:
            self.assertEqual(f.readline(), "time,symbol,upper,middle,lower\n")

    def test_list(self):
        p = self.btforge("indicators", "--list")
        listed = re.findall(r"^  ([A-Z_]+)\(", p.stdout, re.M)
        self.assertEqual(listed, INDICATORS)
        self.assertEqual(os.listdir(self.dir), [])

    def test_usage_errors(self):
        cases = [
            (["--name", "EMA"], r"EMA needs --param period=VALUE"),
            (["--name", "NOPE", "--param", "period=3"], r"unknown indicator 'NOPE'"),
            (["--name", "EMA", "--param", "length=3"], r"--param length=3"),
            (["--name", "EMA", "--param", "period=ten"], r"not a number"),
            (["--param", "period=3"], r"--name is required"),
        ]
        for args, pattern in cases:
            with self.subTest(args=args):
                p = self.btforge("indicators", *args, "-o", "out.csv", "--synthetic-bars", "50", expect=2)
                self.assertRegex(p.stderr, pattern)
                self.assertEqual(os.listdir(self.dir), [])

    def test_invalid_parameter_value(self):
        p = self.btforge("indicators", "--name", "EMA", "--param", "period=0", "-o", "out.csv",
                         "--synthetic-bars", "50", expect=None)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("period", p.stderr)
        self.assertEqual(os.listdir(self.dir), [])


# --------------------------------------------------------------------------- 7
class HelpAndUsage(CliTestCase):
    """Case 7: --help everywhere; an unknown subcommand or option is a usage error."""

    def test_top_level_help(self):
        for flag in ("--help", "-h", "help"):
            with self.subTest(flag=flag):
                p = self.btforge(flag)
                self.assertIn("Usage: btforge", p.stdout)
                for command in ("sweep", "replay", "indicators", "data synth", "bench", "parity", "devices"):
                    self.assertIn(command, p.stdout)

    def test_subcommand_help(self):
        for command in (["sweep"], ["replay"], ["indicators"], ["data"], ["data", "synth"], ["bench"], ["parity"],
                        ["devices"]):
            for flag in ("--help", "-h"):
                with self.subTest(command=command, flag=flag):
                    p = self.btforge(*command, flag)
                    self.assertIn("Usage: btforge " + command[0], p.stdout)
                    self.assertEqual(os.listdir(self.dir), [], "--help must not run the command")

    def test_no_arguments(self):
        p = self.btforge(expect=2)
        self.assertIn("Usage: btforge", p.stdout + p.stderr)

    def test_version(self):
        p = self.btforge("--version")
        self.assertRegex(p.stdout, r"^btforge \d+\.\d+")

    def test_unknown_subcommand(self):
        p = self.btforge("frobnicate", expect=2)
        self.assertIn("unknown command 'frobnicate'", p.stderr)

    def test_unknown_option(self):
        for command in (["sweep"], ["replay"], ["indicators"], ["data", "synth", "-o", "x.csv"], ["bench"]):
            with self.subTest(command=command):
                p = self.btforge(*command, "--no-such-option", expect=2)
                self.assertIn("no-such-option", p.stderr)
                self.assertEqual(os.listdir(self.dir), [])

    def test_cuda_tuning_options(self):
        # Refused before any work, whatever the machine has.
        p = self.btforge("sweep", "--max-chunk", "0", "--synthetic-bars", "500", "-o", "chunk", expect=2)
        self.assertIn("--max-chunk must be at least 1", p.stderr)
        p = self.btforge("bench", "--backend", "cpu", "--chunk-timeline", "t.csv", "--bars", "500", expect=2)
        self.assertIn("--chunk-timeline times GPU launches: it needs --backend cuda", p.stderr)
        self.assertEqual(os.listdir(self.dir), [])

    def test_data_without_synth(self):
        p = self.btforge("data", "frobnicate", expect=2)
        self.assertIn("data synth", p.stderr)


class BackendsWithoutGpu(CliTestCase):
    """Without a usable GPU: auto falls back to the CPU and says so once; an
    explicit --backend cuda is an error that names the reason; devices says
    what the binary carries. (On a machine with a GPU these do not apply.)"""

    def setUp(self):
        super().setUp()
        if os.path.exists("/dev/nvidia0"):
            self.skipTest("this machine has a GPU")

    def test_auto_falls_back_to_cpu(self):
        p = self.btforge("sweep", "--synthetic-bars", "500", "-o", "auto")
        self.assertIn("backend: cpu (", p.stdout)
        self.assertEqual(p.stderr.count("running on the CPU"), 1)

    def test_explicit_cuda_fails_with_the_reason(self):
        p = self.btforge("sweep", "--backend", "cuda", "--synthetic-bars", "500", "-o", "cuda", expect=1)
        self.assertIn("--backend cuda cannot run", p.stderr)
        # The first reason found: a build without nvcc carries no kernels (a
        # fresh machine has no CUDA toolkit); one with them finds no driver.
        self.assertRegex(p.stderr, r"libcuda\.so\.1|built without nvcc: no GPU kernels inside")
        self.assertEqual(os.listdir(self.dir), [])

    def test_devices(self):
        p = self.btforge("devices")
        self.assertIn("libcuda.so.1", p.stdout)
        self.assertIn("sweeps run on the CPU", p.stdout)


def main(module="__main__"):
    """Runs the tests of `module` (this file's, or a script's that imports it) on argv[1]'s btforge."""
    global BTFORGE
    script = os.path.basename(sys.argv[0])
    if len(sys.argv) < 2:
        sys.exit("usage: %s PATH/TO/btforge [unittest options]" % script)
    BTFORGE = os.path.abspath(sys.argv.pop(1))
    if not os.access(BTFORGE, os.X_OK):
        sys.exit("%s: %s is not an executable" % (script, BTFORGE))
    unittest.main(module=module, verbosity=2)


if __name__ == "__main__":
    main()
