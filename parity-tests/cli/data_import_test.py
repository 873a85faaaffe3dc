#!/usr/bin/env python3
"""End-to-end tests of `btforge data import` (Note [Market import], issue 16).

Usage: data_import_test.py PATH/TO/btforge [unittest options]

The fixtures (parity-tests/data/import/, see its README) follow Binance's
published dump formats; every expected number below is worked from them by
hand. Python 3 standard library only.
"""

import os

import cli_end_to_end as e2e

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "import")


def fixture(name):
    return os.path.join(FIXTURES, name)


KLINES = [fixture("BTCUSDT-1m-2024-01.csv"), fixture("BTCUSDT-1m-2024-02.csv"), fixture("ETHUSDT-1m-2024-01.csv")]


class DataImport(e2e.CliTestCase):
    def rows(self, name):
        _, rows, _ = e2e.read_csv(self.path(name))
        return rows

    def test_binance_klines_with_and_without_header_ms_and_us_merged_per_symbol(self):
        p = self.btforge("data", "import", "--format", "binance-klines", *KLINES, "-o", "m.csv")
        rows = self.rows("m.csv")
        btc = [r for r in rows if r["symbol"] == "BTCUSDT"]
        eth = [r for r in rows if r["symbol"] == "ETHUSDT"]
        # January's 5 rows, February's 7 less the repeated 23:59: 11 bars in time order.
        self.assertEqual(len(btc), 11)
        self.assertEqual(btc[4]["timestamp"], "2024-01-31T23:59:00.000Z")
        self.assertEqual(btc[5]["timestamp"], "2024-02-01T00:00:00.000Z")
        self.assertEqual([btc[0][k] for k in ("open", "high", "low", "close", "volume")],
                         ["42580.1", "42590", "42575.3", "42588", "12.5"])
        # Microsecond open times read as such (detected per file).
        self.assertEqual([r["timestamp"] for r in eth],
                         ["2024-01-31T23:58:00.000Z", "2024-01-31T23:59:00.000Z", "2024-02-01T00:00:00.000Z"])
        self.assertIn("BTCUSDT: 11 bars 2024-01-31T23:55:00.000Z .. 2024-02-01T00:06:00.000Z, every 1m, 1 gap "
                      "(1 bar missing; the longest 2m after 2024-02-01T00:02:00.000Z); 1 row given twice", p.stdout)
        self.assertIn("ETHUSDT: 3 bars", p.stdout)
        self.assertIn("3 files, 15 rows -> m.csv: 2 symbols, 14 bars", p.stdout)
        # The result is a market every command reads.
        self.btforge("sweep", "--strategy", "sma_cross", "--data", "m.csv", "-o", "s", "--funding-rate", "0")

    def test_resampled_bars_worked_by_hand(self):
        self.btforge("data", "import", "--format", "binance-klines", *KLINES[:2], "--bar", "5m", "-o", "m5.csv",
                     "--timestamps", "ms")
        got = [[r[k] for k in ("timestamp", "open", "high", "low", "close", "volume")] for r in self.rows("m5.csv")]
        self.assertEqual(got, [
            # 23:55..23:59: first open, highest high, lowest low, last close, summed volume.
            ["1706745300000", "42580.1", "42600.5", "42560.1", "42583.3", "62"],
            # 00:00..00:04 without 00:03.
            ["1706745600000", "42583.3", "42620", "42583", "42618.7", "75.75"],
            ["1706745900000", "42618.7", "42625", "42601.1", "42603.5", "21"],
        ])
        p = self.btforge("data", "import", "--format", "binance-klines", *KLINES[:2], "--bar", "90s", "-o", "x.csv",
                         expect=2)
        self.assertIn("--bar 90s cannot be made of BTCUSDT's 1m bars", p.stderr)

    def test_binance_funding_history_becomes_a_funding_file(self):
        p = self.btforge("data", "import", "--format", "binance-funding", fixture("BTCUSDT-fundingRate-2024-01.csv"),
                         "-o", "f.csv")
        self.assertEqual([[r["timestamp"], r["symbol"], r["rate"]] for r in self.rows("f.csv")], [
            ["2024-01-31T00:00:00.000Z", "BTCUSDT", "1e-04"],
            ["2024-01-31T08:00:00.000Z", "BTCUSDT", "0.00012345"],
            ["2024-01-31T16:00:00.000Z", "BTCUSDT", "-3.1e-05"],
            ["2024-02-01T00:00:00.000Z", "BTCUSDT", "8e-05"],
        ])
        self.assertIn("BTCUSDT: 4 funding rates", p.stdout)
        self.btforge("data", "import", "--format", "binance-klines", *KLINES, "-o", "m.csv")
        p = self.btforge("sweep", "--strategy", "sma_cross", "--data", "m.csv", "--funding-file", "f.csv", "-o", "s")
        # 00:00 of February is the only settlement inside BTCUSDT's bars; the other three come before them.
        self.assertIn("the funding file f.csv: 1 settlement of 1 symbol charged at their own times (1 bar); "
                      "3 not charged", p.stderr)

    def test_any_csv_through_a_column_mapping(self):
        self.btforge("data", "import", "--format", "csv", fixture("solana_hourly.csv"), "--columns",
                     "timestamp=date,symbol=ticker,open=o,high=h,low=l,close=c,volume=vol", "-o", "sol.csv")
        rows = self.rows("sol.csv")
        self.assertEqual([r["symbol"] for r in rows], ["SOLUSDT"] * 3)
        self.assertEqual(rows[1]["volume"], "1500.5")
        p = self.btforge("data", "import", "--format", "csv", fixture("solana_hourly.csv"), "--symbol", "SOLUSDT", "-o",
                         "x.csv", expect=1)
        self.assertRegex(p.stderr, r"solana_hourly\.csv:1: missing-column: no \"timestamp\" column; .*"
                                   r"\(--columns maps them\)")

    def test_refusals(self):
        with open(self.path("BTCUSDT-1m-2024-03.csv"), "w") as f:
            f.write("1706745540000,42579.9,42585.0,42577.0,42583.4,5.5,1706745599999,0,0,0,0,0\n")
        with open(self.path("bad.csv"), "w") as f:
            f.write("1706745540000,-1,42585.0,42577.0,42583.4,5.5,1706745599999,0,0,0,0,0\n")
        cases = [
            # The same minute with another close: both places named.
            ([fixture("BTCUSDT-1m-2024-01.csv"), "BTCUSDT-1m-2024-03.csv"], 1,
             r"BTCUSDT-1m-2024-03\.csv:1:1: duplicate-timestamp: BTCUSDT has another bar at "
             r"2024-01-31T23:59:00\.000Z with other values: .*BTCUSDT-1m-2024-01\.csv line 6"),
            (["bad.csv"], 1, r"bad\.csv: no-symbol: cannot tell the symbol from the file name"),
            (["bad.csv", "--symbol", "XUSDT"], 1, r"bad\.csv:1:2: non-positive-price: open \"-1\" must be positive"),
            ([], 2, r"give the files to import"),
        ]
        for extra, code, pattern in cases:
            with self.subTest(extra=extra):
                p = self.btforge("data", "import", "--format", "binance-klines", *extra, "-o", "out.csv", expect=code)
                self.assertRegex(p.stderr, pattern)
                self.assertFalse(os.path.exists(self.path("out.csv")))


if __name__ == "__main__":
    e2e.main()
