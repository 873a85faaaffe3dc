#!/usr/bin/env python3
"""What a new user reads first (issue 13, section 4): the run header and the ranked table.

Usage: first_hour_test.py PATH/TO/btforge [unittest options]

Note [Run header], Note [The ranked table].
"""

import json
import re

import cli_end_to_end as e2e

SMALL = ["--synthetic-bars", "600", "--synthetic-symbols", "2"]


class RunHeader(e2e.CliTestCase):
    def header(self, stderr):
        lines = stderr.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith("btforge sweep: strategy"))
        end = start + 1
        while end < len(lines) and lines[end].startswith("  "):
            end += 1
        return "\n".join(lines[start:end])

    def test_synthetic_market(self):
        p = self.btforge("sweep", "-o", "res", "--backend", "cpu", *SMALL)
        header = self.header(p.stderr)
        self.assertIn("market:     synthetic (seed 42, 60-minute bars): 2 symbols x 600 bars; mark price: none "
                      "(liquidation reads the last price), 2024-01-01T", header)
        self.assertIn("funding:    the synthetic market's own rates", header)
        self.assertRegex(header, r"(?m)^  account:    initial_equity=10000 maker_fee=0\.[0-9]+ taker_fee=0\.[0-9]+ "
                                 r"slippage=0\.[0-9]+ margin_mode=cross$")
        with open(self.path("res.json")) as f:
            doc = json.load(f)
        self.assertIn("synthetic (seed 42", doc["market"])
        self.assertIn("the synthetic market's own rates", doc["funding"])
        self.assertEqual(doc["account"]["initial_equity"], 10000)

    def test_csv_without_funding_is_told_what_it_pays(self):
        self.btforge("data", "synth", "-o", "full.csv", *SMALL)
        with open(self.path("full.csv")) as f, open(self.path("spot.csv"), "w") as out:
            for line in f:
                out.write(",".join(line.rstrip("\n").split(",")[:7]) + "\n")
        market = ["--data", "spot.csv", "--instruments", "full.instruments.json"]
        p = self.btforge("sweep", "-o", "res", "--backend", "cpu", *market)
        self.assertIn("funding:    no funding_rate in spot.csv: each funding time (every 8 hours) charges 0.0001 "
                      "(0.01% of a position's notional", p.stderr)
        self.assertIn("--funding-rate 0 for spot data", p.stderr)
        p = self.btforge("sweep", "-o", "res0", "--backend", "cpu", "--funding-rate", "0", *market)
        self.assertIn("charges 0 (0%", p.stderr)
        # The file's own column, when it has one.
        p = self.btforge("sweep", "-o", "res1", "--backend", "cpu", "--data", "full.csv", "--instruments",
                         "full.instruments.json")
        self.assertIn("funding:    the file's funding_rate column, on each funding time (every 8 hours)", p.stderr)

    def test_synthetic_market_said_where_it_cannot_be_missed(self):
        # Note [Synthetic market said plainly] (issue 29): a header line of its
        # own, a last line after the results, the JSON's flag.
        p = self.btforge("sweep", "-o", "res", "--backend", "cpu", *SMALL)
        self.assertIn("  NOTE:       no --data: btforge's SYNTHETIC market, not yours", self.header(p.stderr))
        self.assertIn("SYNTHETIC market", p.stdout.strip().splitlines()[-1])
        with open(self.path("res.json")) as f:
            self.assertIs(json.load(f)["synthetic_market"], True)
        p = self.btforge("replay", "--set", "sl_atr=2", *SMALL)
        self.assertIn("SYNTHETIC market", p.stdout.strip().splitlines()[-1])
        # A file's market says none of it.
        self.btforge("data", "synth", "-o", "m.csv", *SMALL)
        p = self.btforge("sweep", "-o", "file", "--backend", "cpu", "--data", "m.csv", "--instruments",
                         "m.instruments.json")
        self.assertNotIn("SYNTHETIC", p.stdout + p.stderr)
        with open(self.path("file.json")) as f:
            self.assertIs(json.load(f)["synthetic_market"], False)

    def test_instruments_are_stated(self):
        # Note [Instruments stated] (issue 29): leaving out --instruments changed
        # the numbers without a word.
        self.btforge("data", "synth", "-o", "m.csv", *SMALL)
        with open(self.path("m.instruments.json")) as f:
            given = json.load(f)
        p = self.btforge("sweep", "-o", "with", "--backend", "cpu", "--data", "m.csv", "--instruments",
                         "m.instruments.json")
        self.assertRegex(self.header(p.stderr), r"(?m)^  instruments: the file m\.instruments\.json: SYN1USDT qty_step=")
        with open(self.path("with.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["instruments"]["source"], "the file m.instruments.json")
        for symbol, sizes in doc["instruments"]["symbols"].items():
            for key in ("qty_step", "min_qty", "price_tick"):
                self.assertEqual(sizes[key], given[symbol][key])
        p = self.btforge("sweep", "-o", "without", "--backend", "cpu", "--data", "m.csv")
        self.assertIn("  instruments: the defaults (no --instruments given", self.header(p.stderr))
        with open(self.path("without.json")) as f:
            doc = json.load(f)
        self.assertTrue(doc["instruments"]["source"].startswith("the defaults"))
        self.assertEqual(doc["instruments"]["symbols"]["SYN1USDT"], {"qty_step": 0.001, "min_qty": 0.001,
                                                                 "price_tick": 0.01})
        p = self.btforge("sweep", "-o", "synthetic", "--backend", "cpu", *SMALL)
        self.assertIn("  instruments: the synthetic market's own: SYN1USDT qty_step=", self.header(p.stderr))

    def test_replay_states_the_same(self):
        p = self.btforge("replay", "--set", "sl_atr=2", *SMALL)
        self.assertIn("  market:     synthetic", p.stdout)
        self.assertIn("  funding:    ", p.stdout)
        self.assertIn("  account:    initial_equity=10000 ", p.stdout)
        self.assertIn("  instruments: the synthetic market's own: ", p.stdout)


class RankedTable(e2e.CliTestCase):
    def table(self, stdout):
        lines = stdout.splitlines()
        start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("rank"))
        end = next(i for i in range(start, len(lines)) if not lines[i].strip())
        return [line.split() for line in lines[start:end]]

    def test_every_varied_parameter_is_a_column(self):
        # mode varies in the grid but the top rows all share mode 1: it stays
        # a column (it vanished from the quickstart table before).
        grid = self.write_json("grid.json", {"strategy": "default", "parameters": {
            "mode": {"values": [0, 1]}, "ema_fast": {"values": [8, 12]},
            "risk_per_trade": {"log_range": {"start": 0.005, "stop": 0.02, "num": 3}}}})
        p = self.btforge("sweep", "--grid", grid, "-o", "res", "--backend", "cpu", "--top", "3", *SMALL)
        rows = self.table(p.stdout)
        header = rows[0]
        for name in ("mode", "ema_fast", "risk_per_trade"):
            self.assertIn(name, header)
        self.assertNotIn("ema_slow", header)  # one value in the grid
        column = header.index("risk_per_trade")
        for row in rows[1:]:
            # 6 significant digits at most: 0.01 and 0.00707107, never 0.007071067811865475.
            self.assertRegex(row[column], r"^(0\.0*[1-9][0-9]{0,5}|[0-9.e+-]{1,12})$")
            self.assertLessEqual(len(re.sub(r"[^0-9]", "", row[column]).lstrip("0")), 6)


if __name__ == "__main__":
    e2e.main()
