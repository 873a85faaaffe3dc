#!/usr/bin/env python3
"""End-to-end tests of --funding-file (Note [Funding history], issue 16).

Usage: funding_history_test.py PATH/TO/btforge [unittest options]

The oracle is the market's own funding column: a funding file that lists,
for every funding time the market settles, the rate the column charges
there must sweep byte-identically to the column, at the bar times and at
times that are not bar times. Then what the run header says, and the
file's errors. Python 3 standard library only.
"""

import json
import os

import cli_end_to_end as e2e

HOUR = 3600000
FUNDING = 8 * HOUR


class FundingFileCase(e2e.CliTestCase):
    def setUp(self):
        super().setUp()
        self.btforge("data", "synth", "-o", self.path("m.csv"), "--timestamps", "ms", "--synthetic-bars", "400",
                     "--synthetic-symbols", "2", "--synthetic-seed", "7")
        _, self.bars, _ = e2e.read_csv(self.path("m.csv"))
        self.grid = self.write_grid("sma_cross")
        self.instruments = ["--instruments", "m.instruments.json"]

    def settlements(self):
        """(time, symbol, rate) of every funding time the market settles, as build_market charges them:
        the times in (previous own bar, own bar], each at the own bar's rate."""
        out = []
        last = {}
        self.gaps = 0
        for bar in self.bars:
            symbol, ts = bar["symbol"], int(bar["timestamp"])
            if symbol in last:
                times = list(range((last[symbol] // FUNDING + 1) * FUNDING, ts + 1, FUNDING))
                # A gap may span several: the history charges equal rates one by one, as the column does.
                self.gaps += len(times) > 1
                out += [(t, symbol, bar["funding_rate"]) for t in times]
            last[symbol] = ts
        self.assertGreater(len(out), 50)
        self.assertGreater(self.gaps, 0)  # the case of several settlements in one bar is exercised
        return out

    def write_funding(self, name, rows, header="timestamp,symbol,rate"):
        with open(self.path(name), "w") as f:
            f.write(header + "\n" + "".join("%s,%s,%s\n" % row for row in rows))
        return name

    def sweep_csv(self, output, *extra):
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "--all-rows", "-o", output,
                         "--data", "m.csv", *self.instruments, *extra)
        with open(self.path(output + ".csv"), "rb") as f:
            return f.read(), p.stderr


class FundingHistory(FundingFileCase):
    def test_a_file_of_the_column_s_settlements_sweeps_like_the_column(self):
        expected, _ = self.sweep_csv("column")
        rows = self.settlements()
        with_file, stderr = self.sweep_csv("file", "--funding-file", self.write_funding("file_f.csv", rows))
        self.assertEqual(with_file, expected)
        self.assertIn("funding:    the funding file file_f.csv: %d settlements of 2 symbols charged at their own times"
                      % len(rows), stderr)
        # Settlements 30 minutes before the bar that holds them, in reverse order: the same charges.
        early = [(t - HOUR // 2, s, r) for t, s, r in reversed(rows)]
        shifted, _ = self.sweep_csv("early", "--funding-file", self.write_funding("early_f.csv", early))
        self.assertEqual(shifted, expected)
        # Zero rates: nothing paid, unlike the column.
        zero, _ = self.sweep_csv("zero", "--funding-file", self.write_funding("zero_f.csv", [(t, s, 0) for t, s, _ in rows]))
        self.assertNotEqual(zero, expected)
        self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", "0", "--data", "m.csv",
                     *self.instruments, "--funding-file", "zero_f.csv", "--trades", "t.csv", "--equity", "e.csv")

    def test_the_header_says_what_was_not_charged(self):
        rows = self.settlements()
        first = int(self.bars[0]["timestamp"])
        last = max(int(b["timestamp"]) for b in self.bars)
        symbol = self.bars[0]["symbol"]
        extra = [(first, symbol, 0.001), (last + FUNDING, symbol, 0.001), (first + FUNDING, "XYZUSDT", 0.001)]
        _, stderr = self.sweep_csv("notes", "--funding-file", self.write_funding("notes_f.csv", rows + extra))
        self.assertIn("%d settlements of 2 symbols" % len(rows), stderr)
        self.assertIn("2 not charged, at or before a symbol's first bar (1) or after its last (1)", stderr)
        self.assertIn("not in the market, ignored: XYZUSDT", stderr)
        # One symbol only: the other keeps the column's funding, and the header says so.
        only = [r for r in rows if r[1] == symbol]
        _, stderr = self.sweep_csv("one", "--funding-file", self.write_funding("one_f.csv", only))
        self.assertIn("without rates in it, funded as before: ", stderr)
        self.assertIn("(the file's funding_rate column", stderr)

    def test_bad_files_are_refused_at_their_line(self):
        rows = self.settlements()[:5]
        t, s, r = rows[1]
        cases = [
            (self.write_funding("dup.csv", rows + [(t, s, 0.0002)]), r"dup\.csv:7:1: duplicate-timestamp: .* \(the first is on line 3\)"),
            (self.write_funding("cols.csv", rows, header="time,symbol,rate"), r"cols\.csv:1: missing-column: no \"timestamp\""),
            (self.write_funding("big.csv", rows[:2] + [(t + 1, s, 2)]), r"big\.csv:4:3: funding-rate-out-of-range"),
            (self.write_funding("nan.csv", rows[:1] + [(t + 1, s, "x")]), r"nan\.csv:3:3: not-a-number"),
            (self.write_funding("empty.csv", []), r"empty\.csv: empty-file: the file has a header but no rates"),
            # Issue 29: was charged at one bar as the sum of 1,000 rates.
            (self.write_funding("burst.csv", rows[:1] + [(t + 3000 * k, s, 0.85) for k in range(1000)]),
             r"burst\.csv:4:1: settlements-too-close: %s settles at .*, 3s from its settlement at .* \(line 3\): "
             r"settlements of a symbol are at least 59m apart" % s),
            (self.write_funding("close.csv", rows[:2] + [(t + 58 * 60000, s, r)]),
             r"close\.csv:4:1: settlements-too-close: .*, 58m from its settlement at .* \(line 3\)"),
        ]
        for name, pattern in cases:
            with self.subTest(name=name):
                p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o", "x", "--data",
                                 "m.csv", *self.instruments, "--funding-file", name, expect=1)
                self.assertRegex(p.stderr, pattern)
                self.assertFalse(os.path.exists(self.path("x.csv")))


if __name__ == "__main__":
    e2e.main()
