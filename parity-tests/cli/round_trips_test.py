#!/usr/bin/env python3
"""replay --round-trips: one row per round trip (Note [Round trips from the fill log]), run by CTest.

Usage: round_trips_test.py PATH/TO/btforge [unittest options]

On both built-in strategies the round trips add up to the replay's metrics:
net PnL to net_pnl (within 1e-9 relative), fees and funding to fees_paid and
funding_paid, and the winners and losers, summed in closing order, to
gross_profit and gross_loss exactly; each row agrees with its fills in the
trade log. Python 3 standard library only.
"""

import os

import cli_end_to_end as e2e

COLUMNS = ["trade", "symbol", "side", "entry_time", "entry_price", "exit_time", "exit_price", "quantity",
           "gross_pnl", "fees", "funding", "net_pnl", "exit_reason", "bars_held"]


def close_enough(a, b, relative=1e-9):
    return abs(a - b) <= relative * max(1.0, abs(b))


class RoundTrips(e2e.CliTestCase):
    def replay(self, strategy, grid, cid, *extra):
        p = self.btforge("replay", "--strategy", strategy, "--grid", grid, "-c", cid, *e2e.MARKET,
                         "--trades", self.path("t.csv"), "--equity", self.path("e.csv"),
                         "--round-trips", self.path("rt.csv"), *extra)
        header, trips, _ = e2e.read_csv(self.path("rt.csv"))
        self.assertEqual(header, COLUMNS)
        _, fills, _ = e2e.read_csv(self.path("t.csv"))
        _, equity, _ = e2e.read_csv(self.path("e.csv"))
        self.assertIn("round trips: %d -> %s" % (len(trips), self.path("rt.csv")), p.stdout)
        return dict(e2e.parse_metrics(p.stdout)), trips, fills, equity

    def check_against_metrics(self, metrics, trips, fills, equity):
        self.assertEqual(len(trips), int(metrics["n_trades"]))
        net = [float(t["net_pnl"]) for t in trips]
        self.assertTrue(close_enough(sum(net), float(metrics["net_pnl"])),
                        "sum of net_pnl %r, replay net_pnl %s" % (sum(net), metrics["net_pnl"]))
        self.assertTrue(close_enough(sum(float(t["fees"]) for t in trips), float(metrics["fees_paid"])))
        self.assertTrue(close_enough(sum(float(t["funding"]) for t in trips), float(metrics["funding_paid"])))
        # The metrics add each trade's net PnL as it closes: in that order the sums are exact.
        closing_order = []
        for f in fills:
            if f["trade"] in closing_order:
                closing_order.remove(f["trade"])
            closing_order.append(f["trade"])
        by_trade = {t["trade"]: float(t["net_pnl"]) for t in trips}
        profit, loss = 0.0, 0.0
        for trade in closing_order:
            if by_trade[trade] > 0:
                profit += by_trade[trade]
            elif by_trade[trade] < 0:
                loss -= by_trade[trade]
        self.assertEqual(profit, float(metrics["gross_profit"]))
        self.assertEqual(loss, float(metrics["gross_loss"]))
        self.assertEqual(sum(1 for v in net if v > 0), int(metrics["n_wins"]))

        time_of_bar = {e["time"]: int(e["bar"]) for e in equity}
        fills_of = {}
        for f in fills:
            fills_of.setdefault(f["trade"], []).append(f)
        self.assertEqual([t["trade"] for t in trips], sorted(fills_of, key=int))
        for t in trips:
            own = fills_of[t["trade"]]
            entries = [f for f in own if f["reason"] == "entry"]
            closes = [f for f in own if f["reason"] != "entry"]
            self.assertEqual(len(entries), 1)  # neither strategy adds to a position
            self.assertEqual(t["symbol"], entries[0]["symbol"])
            self.assertEqual(t["side"], "long" if entries[0]["side"] == "buy" else "short")
            self.assertEqual(t["entry_time"], entries[0]["time"])
            self.assertEqual(t["entry_price"], entries[0]["price"])
            self.assertEqual(t["quantity"], entries[0]["qty"])
            self.assertEqual(t["exit_time"], closes[-1]["time"])
            self.assertEqual(t["exit_reason"], closes[-1]["reason"])
            self.assertEqual(int(t["bars_held"]), time_of_bar[t["exit_time"]] - time_of_bar[t["entry_time"]])
            qty = sum(float(f["qty"]) for f in closes)
            self.assertTrue(close_enough(qty, float(t["quantity"])))
            exit_price = sum(float(f["qty"]) * float(f["price"]) for f in closes) / qty
            self.assertTrue(close_enough(float(t["exit_price"]), exit_price, 1e-12))
            gross = sum(float(f["realized_pnl"]) for f in closes)
            fees = sum(float(f["fee"]) for f in own)
            self.assertTrue(close_enough(float(t["gross_pnl"]), gross))
            self.assertTrue(close_enough(float(t["fees"]), fees))
            self.assertTrue(close_enough(float(t["net_pnl"]),
                                         float(t["gross_pnl"]) - float(t["fees"]) - float(t["funding"])))

    def check_strategy(self, strategy):
        grid = self.write_grid(strategy)
        _, rows = self.sweep(strategy, grid, self.path("res"))
        busiest = sorted(rows, key=lambda r: -int(r["n_trades"]))[:3]
        concurrent_seen = False
        partial_seen = False
        for row in [rows[0]] + busiest:
            with self.subTest(strategy=strategy, combination=row["combination_id"]):
                metrics, trips, fills, equity = self.replay(strategy, grid, row["combination_id"])
                self.assertEqual({k: metrics[k] for k in e2e.METRICS}, {k: row[k] for k in e2e.METRICS})
                self.check_against_metrics(metrics, trips, fills, equity)
                self.assertNotEqual(float(metrics["funding_paid"]), 0.0, "no funding to attribute")
                spans = sorted((t["entry_time"], t["exit_time"]) for t in trips)
                concurrent_seen |= any(b[0] < a[1] for a, b in zip(spans, spans[1:]))
                partial_seen |= any(f["reason"] == "partial_target" for f in fills)
        # Funding is attributed among trades open at the same time, not only one at a time.
        self.assertTrue(concurrent_seen, "no replay with overlapping trades")
        return partial_seen

    def test_default_strategy(self):
        self.assertTrue(self.check_strategy("default"), "no partial close (TP1) in the default strategy's replays")

    def test_sma_cross_strategy(self):
        self.check_strategy("sma_cross")

    def test_account_options_and_no_trade(self):
        # Another account, and a combination without a trade: a header only.
        grid = self.write_grid("default")
        _, rows = self.sweep("default", grid, self.path("res"), "--taker-fee", "0.001", "--initial-equity", "3000")
        for row in (max(rows, key=lambda r: int(r["n_trades"])), min(rows, key=lambda r: int(r["n_trades"]))):
            metrics, trips, fills, equity = self.replay("default", grid, row["combination_id"], "--taker-fee", "0.001",
                                                        "--initial-equity", "3000")
            self.assertEqual(metrics["net_pnl"], row["net_pnl"])
            self.check_against_metrics(metrics, trips, fills, equity)
        self.assertEqual(trips, [])

    def test_no_file_without_the_option_and_none_on_failure(self):
        grid = self.write_grid("sma_cross")
        p = self.btforge("replay", "--strategy", "sma_cross", "--grid", grid, "-c", "3", *e2e.MARKET)
        self.assertNotIn("round trips", p.stdout)
        self.assertEqual(sorted(os.listdir(self.dir)),
                         ["btforge-replay-equity.csv", "btforge-replay-trades.csv", "grid_sma_cross.json"])
        for name in os.listdir(self.dir):
            if name.endswith(".csv"):
                os.remove(self.path(name))
        p = self.btforge("replay", "--strategy", "sma_cross", "--grid", grid, "-c", "3", *e2e.MARKET,
                         "--round-trips", self.path("missing/rt.csv"), expect=2)
        # Note [Outputs checked before work]: a usage error, before any work.
        self.assertIn("missing/rt.csv: No such file or directory (checked before any work)", p.stderr)
        self.assertEqual(os.listdir(self.dir), ["grid_sma_cross.json"])

    def test_help(self):
        p = self.btforge("replay", "--help")
        self.assertIn("--round-trips CSV", p.stdout)


if __name__ == "__main__":
    e2e.main()
