#!/usr/bin/env python3
"""End-to-end tests of margin and liquidation (Note [Liquidation rule], docs/ACCOUNTING.md, issue 16).

Usage: liquidation_test.py PATH/TO/btforge [unittest options]

A sweep with leverage shows liquidations in its rows and in its table; the
replay of a liquidated row logs them as `liquidation` fills, its round trips
end with that reason and add up to the row's liquidation_loss; an
instruments file's maintenance tiers and liquidation fee are used. Python 3
standard library only.
"""

import csv
import datetime
import json
import os

import cli_end_to_end as e2e

# The default strategy, leveraged: risk 50% of equity a trade, up to 50x; in
# isolated margin each position posts notional / max_leverage.
LEVERAGE = ["--param", "risk_per_trade=0.5", "--param", "max_leverage=10,50", "--param", "sl_atr=4,10,20"]
# sma_cross at 3x to 10x with stops 50% away: a cross account goes down with its positions.
SMA_LEVERAGE = ["--strategy", "sma_cross", "--param", "position_fraction=3,6,10", "--param", "stop_pct=0.5"]
CASES = {"isolated": LEVERAGE, "cross": SMA_LEVERAGE}
MARKET = ["--synthetic-bars", "3000", "--synthetic-symbols", "2"]


class Liquidation(e2e.CliTestCase):
    def sweep(self, output, grid, *extra):
        p = self.btforge("sweep", "--all-rows", "-o", output, *MARKET, *grid, *extra)
        with open(self.path(output + ".csv")) as f:
            return list(csv.DictReader(f)), p.stdout

    def replay(self, combination, grid, *extra):
        self.btforge("replay", "-c", combination, *MARKET, *grid, *extra, "--trades", "t.csv",
                     "--equity", "e.csv", "--round-trips", "rt.csv")
        with open(self.path("t.csv")) as f:
            fills = list(csv.DictReader(f))
        with open(self.path("rt.csv")) as f:
            trips = list(csv.DictReader(f))
        return fills, trips

    def test_liquidated_rows_are_counted_shown_and_replayed(self):
        for mode, grid in CASES.items():
            with self.subTest(mode=mode):
                rows, stdout = self.sweep(mode, grid, "--margin-mode", mode)
                liquidated = [r for r in rows if int(r["n_liquidations"]) > 0]
                self.assertTrue(liquidated, "no row liquidated in %s margin" % mode)
                self.assertIn("n_liquidations", stdout.splitlines()[stdout.splitlines().index(
                    next(line for line in stdout.splitlines() if line.lstrip().startswith("rank")))])
                row = max(liquidated, key=lambda r: int(r["n_liquidations"]))
                fills, trips = self.replay(row["combination_id"], grid, "--margin-mode", mode)
                self.assertEqual(sum(f["reason"] == "liquidation" for f in fills), int(row["n_liquidations"]))
                ended = [t for t in trips if t["exit_reason"] == "liquidation"]
                self.assertEqual(len(ended), int(row["n_liquidations"]))
                self.assertAlmostEqual(-sum(float(t["net_pnl"]) for t in ended), float(row["liquidation_loss"]),
                                       delta=1e-6 * max(1.0, float(row["liquidation_loss"])))
                # A liquidation closes the whole position: no fill of its trade comes after it.
                for f in fills:
                    if f["reason"] == "liquidation":
                        later = [g for g in fills if g["trade"] == f["trade"] and int(g["bar"]) > int(f["bar"])]
                        self.assertEqual(later, [])

    def test_an_unleveraged_sweep_shows_no_liquidation_column(self):
        p = self.btforge("sweep", "-o", "plain", *MARKET)
        header = next(line for line in p.stdout.splitlines() if line.lstrip().startswith("rank"))
        self.assertNotIn("n_liquidations", header)
        with open(self.path("plain.csv")) as f:
            self.assertTrue(all(int(r["n_liquidations"]) == 0 for r in csv.DictReader(f)))

    def test_the_instruments_file_sets_the_maintenance_tiers_and_fee(self):
        self.btforge("data", "synth", "-o", "m.csv", *MARKET)
        with open(self.path("m.instruments.json")) as f:
            instruments = json.load(f)
        base, _ = self.sweep_on("base", instruments)
        # A schedule twenty times as demanding liquidates more, and a zero fee costs less per liquidation.
        for symbol in instruments:
            instruments[symbol]["maintenance_margin"] = [{"notional_floor": 0, "rate": 0.08}]
            instruments[symbol]["liquidation_fee"] = 0.0
        strict, _ = self.sweep_on("strict", instruments)
        self.assertGreater(sum(int(r["n_liquidations"]) for r in strict), sum(int(r["n_liquidations"]) for r in base))
        # A schedule that breaks a rule is refused at its JSON path.
        instruments[next(iter(instruments))]["maintenance_margin"] = [{"notional_floor": 0, "rate": 0.01},
                                                                      {"notional_floor": 1000, "rate": 0.005}]
        with open(self.path("bad_instruments.json"), "w") as f:
            json.dump(instruments, f)
        p = self.btforge("sweep", "-o", "bad", "--data", "m.csv", "--instruments", "bad_instruments.json", *LEVERAGE,
                         expect=1)
        self.assertIn("bad-margin-tier", p.stderr)
        self.assertIn("/maintenance_margin/1/rate: a rate must not be below the tier before's", p.stderr)
        self.assertFalse(os.path.exists(self.path("bad.csv")))

    def sweep_on(self, output, instruments):
        with open(self.path(output + ".json.in"), "w") as f:
            json.dump(instruments, f)
        p = self.btforge("sweep", "--all-rows", "-o", output, "--data", "m.csv", "--instruments",
                         output + ".json.in", "--margin-mode", "isolated", *LEVERAGE)
        with open(self.path(output + ".csv")) as f:
            return list(csv.DictReader(f)), p.stdout

    def test_a_mark_price_decides_liquidations(self):
        # Note [Mark price]: the market's own prices as the mark change nothing; a mark 1% below them
        # liquidates the longs sooner, at levels inside the mark's bars, not the last price's.
        self.btforge("data", "synth", "-o", self.path("last.csv"), *MARKET)
        with open(self.path("last.csv")) as f:
            bars = list(csv.DictReader(f))
        with open(self.path("mark_same.csv"), "w") as same, open(self.path("mark_below.csv"), "w") as below:
            same.write("timestamp,symbol,open,high,low,close,volume\n")
            below.write("timestamp,symbol,open,high,low,close,volume\n")
            marks = {}
            for b in bars:
                same.write("%s,%s,%s,%s,%s,%s,0\n" % (b["timestamp"], b["symbol"], b["open"], b["high"], b["low"],
                                                        b["close"]))
                o, h, lo, c = (round(float(b[k]) * 0.99, 2) for k in ("open", "high", "low", "close"))
                below.write("%s,%s,%r,%r,%r,%r,0\n" % (b["timestamp"], b["symbol"], o, h, lo, c))
                marks[(b["timestamp"][:19], b["symbol"])] = (lo, h)
        data = ["--data", self.path("last.csv"), "--margin-mode", "isolated", *LEVERAGE]
        plain = self.btforge("sweep", "--all-rows", "-o", "plain", *data)
        same = self.btforge("sweep", "--all-rows", "-o", "same", *data, "--mark", self.path("mark_same.csv"))
        below = self.btforge("sweep", "--all-rows", "-o", "below", *data, "--mark", self.path("mark_below.csv"))
        with open(self.path("plain.csv")) as a, open(self.path("same.csv")) as b:
            self.assertEqual(a.read(), b.read(), "the market's own prices as the mark moved a row")
        self.assertIn("mark price: none (liquidation reads the last price)", plain.stderr + plain.stdout)
        self.assertIn("mark price from %s (1-hour bars): " % self.path("mark_below.csv"), below.stderr + below.stdout)
        with open(self.path("below.json")) as f:
            self.assertIn("mark price from", json.load(f)["market"])
        with open(self.path("plain.csv")) as f:
            before = {r["combination_id"]: int(r["n_liquidations"]) for r in csv.DictReader(f)}
        with open(self.path("below.csv")) as f:
            after = {r["combination_id"]: int(r["n_liquidations"]) for r in csv.DictReader(f)}
        self.assertNotEqual(before, after)
        row = max(after, key=after.get)
        self.btforge("replay", "-c", row, *data, "--mark", self.path("mark_below.csv"), "--trades", "t.csv",
                     "--equity", "e.csv")
        with open(self.path("t.csv")) as f:
            liquidations = [t for t in csv.DictReader(f) if t["reason"] == "liquidation"]
        self.assertTrue(liquidations)
        for t in liquidations:
            lo, h = marks[(t["time"][:19], t["symbol"])]
            self.assertTrue(lo <= float(t["price"]) <= h, t)
        refused = self.btforge("sweep", "-o", "refused", *data, "--mark", self.path("mark_below.csv"), "--intrabar",
                               self.path("last.csv"), expect=2)
        self.assertIn("--mark and --intrabar", refused.stderr)

        # The same mark as Binance publishes it (markPriceKlines: a kline file per symbol, the trade klines'
        # twelve columns with the volumes 0 and the count of index prices), through `data import`.
        files = []
        for n, symbol in enumerate(sorted({b["symbol"] for b in bars})):
            name = self.path("%s-1h-2024-01.csv" % symbol)
            files.append(name)
            with open(name, "w") as f:
                if n == 0:  # newer dumps have a header, older ones none
                    f.write("open_time,open,high,low,close,volume,close_time,quote_volume,count,"
                            "taker_buy_volume,taker_buy_quote_volume,ignore\n")
                for b in bars:
                    if b["symbol"] != symbol:
                        continue
                    t = datetime.datetime.fromisoformat(b["timestamp"].replace("Z", "+00:00"))
                    ms = int(t.timestamp()) * 1000
                    o, h, lo, c = (round(float(b[k]) * 0.99, 2) for k in ("open", "high", "low", "close"))
                    f.write("%d,%r,%r,%r,%r,0,%d,0,3600,0,0,0\n" % (ms, o, h, lo, c, ms + 3599999))
        self.btforge("data", "import", "--format", "binance-klines", *files, "-o", self.path("mark_binance.csv"))
        self.btforge("sweep", "--all-rows", "-o", "binance", *data, "--mark", self.path("mark_binance.csv"))
        with open(self.path("below.csv")) as a, open(self.path("binance.csv")) as b:
            self.assertEqual(a.read(), b.read(), "Binance's mark-price klines gave other rows than the same prices")


if __name__ == "__main__":
    e2e.main()
