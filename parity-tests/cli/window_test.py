#!/usr/bin/env python3
"""--from / --to on sweep, replay, bench and parity (Note [Market windows]).

Usage: window_test.py PATH/TO/btforge [unittest options]

The synthetic market of these tests has 3000 hourly bars from
2024-01-01T00:00Z; the window [2024-02-01, 2024-04-01) is bars 744..2183
(1440 bars, 744 of warm-up before it).
"""

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

BTFORGE = None
MARKET = ["--synthetic-seed", "7", "--synthetic-bars", "3000"]
WINDOW = ["--from", "2024-02-01", "--to", "2024-04-01"]
FIRST_BAR, N_BARS = 744, 1440
GRID = {"strategy": "sma_cross", "parameters": {
    "fast_period": {"values": [5, 10]}, "slow_period": {"values": [40, 100]},
    "stop_pct": {"values": [0.02, 0.05]}, "allow_short": {"values": [False, True]}}}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def replay_metrics(stdout):
    return dict(re.findall(r"^([a-z_]+)=(\S+)$", stdout, re.M))


class WindowTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="btforge-window-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.grid = os.path.join(self.dir, "grid.json")
        with open(self.grid, "w") as f:
            json.dump(GRID, f)

    def btforge(self, *args, expect=0):
        p = subprocess.run([BTFORGE, *args], cwd=self.dir, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, expect, "btforge %s\nstdout:\n%s\nstderr:\n%s"
                         % (" ".join(args), p.stdout[-2000:], p.stderr[-2000:]))
        return p

    def sweep(self, name, *extra):
        out = os.path.join(self.dir, name)
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "--all-rows", "-o", out,
                         "--threads", "2", *MARKET, *extra)
        with open(out + ".json") as f:
            return p, read_csv(out + ".csv"), json.load(f)

    def test_sweep_states_the_window_and_counts_its_bars(self):
        p, rows, doc = self.sweep("res", *WINDOW)
        self.assertIn("  window:     2024-02-01T00:00:00.000Z .. 2024-03-31T23:00:00.000Z (bars 744..2183 of 3000: "
                      "1440 bars; indicators warmed up on the 744 bars before it)", p.stderr)
        self.assertEqual(doc["window"], {"first_bar_time": "2024-02-01T00:00:00.000Z",
                                         "last_bar_time": "2024-03-31T23:00:00.000Z",
                                         "first_bar": FIRST_BAR, "bars": N_BARS, "warmup_bars": FIRST_BAR})
        self.assertEqual(doc["cells"], doc["combinations"] * 4 * N_BARS)
        self.assertIn("x 4 symbols x %d bars" % N_BARS, p.stdout)
        # Note [Replaying a row from its results]: the hint replays from the
        # result JSON, whose inputs carry the window.
        self.assertEqual(doc["inputs"]["from"], "2024-02-01")
        self.assertEqual(doc["inputs"]["to"], "2024-04-01")
        hint = next(line for line in p.stdout.splitlines() if line.startswith("replay the best: "))
        replay = self.btforge(*hint.split()[4:])
        self.assertIn("(bars 744..2183 of 3000: 1440 bars;", replay.stdout)
        _, whole_rows, whole = self.sweep("whole")
        self.assertEqual(whole["window"]["bars"], 3000)
        self.assertEqual(whole["window"]["warmup_bars"], 0)
        by_id = {r["combination_id"]: r["final_equity"] for r in whole_rows}
        self.assertTrue(any(by_id[r["combination_id"]] != r["final_equity"] for r in rows),
                        "a window must change the results")

    def test_epoch_seconds_and_milliseconds_mean_the_same_window(self):
        _, iso_rows, iso = self.sweep("iso", *WINDOW)
        _, s_rows, s = self.sweep("s", "--from", "1706745600", "--to", "1711929600")
        _, ms_rows, ms = self.sweep("ms", "--from", "1706745600000", "--to", "2024-04-01T02:00:00+02:00")
        self.assertEqual(iso["window"], s["window"])
        self.assertEqual(iso["window"], ms["window"])
        self.assertEqual(iso_rows, s_rows)
        self.assertEqual(iso_rows, ms_rows)

    def test_replay_of_a_window_reproduces_its_sweep_row_and_logs_market_bars(self):
        _, rows, _ = self.sweep("res", *WINDOW)
        trades, equity = os.path.join(self.dir, "t.csv"), os.path.join(self.dir, "e.csv")
        for row in (rows[0], rows[len(rows) // 2], rows[-1]):
            with self.subTest(combination=row["combination_id"]):
                p = self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", row["combination_id"],
                                 *MARKET, *WINDOW, "--trades", trades, "--equity", equity)
                self.assertIn("  window:     2024-02-01T00:00:00.000Z", p.stdout)
                for name, value in replay_metrics(p.stdout).items():
                    self.assertEqual(value, row[name], name)
                curve = read_csv(equity)
                self.assertEqual([int(e["bar"]) for e in curve], list(range(FIRST_BAR, FIRST_BAR + N_BARS)))
                self.assertEqual(curve[0]["time"], "2024-02-01T00:00:00.000Z")
                self.assertEqual(curve[-1]["time"], "2024-03-31T23:00:00.000Z")
                self.assertEqual(curve[-1]["equity"], row["final_equity"])
                for fill in read_csv(trades):
                    self.assertTrue(FIRST_BAR <= int(fill["bar"]) < FIRST_BAR + N_BARS, fill)
                    self.assertTrue("2024-02-01" <= fill["time"] < "2024-04-01", fill)
                    if fill["reason"] == "end_of_data":
                        self.assertEqual(int(fill["bar"]), FIRST_BAR + N_BARS - 1)

    def test_bench_and_parity_take_the_window(self):
        p = self.btforge("bench", "--strategy", "sma_cross", "--grid", self.grid, "--bars", "3000",
                         "--skip-single-thread", "--threads", "2", "--backend", "emu", *WINDOW)
        self.assertIn("window: 2024-02-01T00:00:00.000Z .. 2024-03-31T23:00:00.000Z", p.stdout)
        self.assertIn("workload: 4 symbols x %d bars x 16 combinations" % N_BARS, p.stdout)
        p = self.btforge("parity", "--backend", "emu", "--strategy", "sma_cross", "--bars", "3000", "--symbols", "3",
                         "--combinations", "200", "--threads", "2", *WINDOW,
                         "--report", os.path.join(self.dir, "parity.json"))
        self.assertIn("verdict: PASS (100% bit-identical)", p.stdout)
        with open(os.path.join(self.dir, "parity.json")) as f:
            report = json.load(f)
        self.assertEqual(report["strategies"][0]["first_bar"], FIRST_BAR)
        self.assertEqual(report["strategies"][0]["bars"], N_BARS)

    def test_refusals(self):
        cases = [
            (["--from", "2024-03-01", "--to", "2024-02-01"], 2, "is not before --to"),
            (["--from", "2024-02-01", "--to", "2024-02-01"], 2, "is not before --to"),
            (["--from", "yesterday"], 2, "--from 'yesterday': expected an ISO-8601 UTC time"),
            (["--to", "2024-13-01"], 2, "--to '2024-13-01': expected an ISO-8601"),
            (["--from", "12345"], 2, "this one is in none"),
            (["--from", "2030-01-01"], 1, "holds no bar of the market (it has bars from 2024-01-01T00:00:00.000Z"),
            (["--from", "2024-01-01T00:30", "--to", "2024-01-01T00:59"], 1, "holds no bar"),
        ]
        for extra, code, text in cases:
            with self.subTest(extra=extra):
                p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o",
                                 os.path.join(self.dir, "refused"), *MARKET, *extra, expect=code)
                self.assertIn(text, p.stderr)
                self.assertFalse(os.path.exists(os.path.join(self.dir, "refused.csv")))


if __name__ == "__main__":
    BTFORGE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
