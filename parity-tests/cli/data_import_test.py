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
MINUTE = 60000
HOUR = 3600000
T0 = 1704067200000  # 2024-01-01T00:00Z
KLINE_HEADER = ("open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,"
                "taker_buy_quote_volume,ignore\n")


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



class DataImportRefusals(e2e.CliTestCase):
    """Issue 29: what `data import` did without a word, each now done and said or refused at its file and line."""

    def write_klines(self, name, first, step, count, header=False):
        with open(self.path(name), "w") as f:
            f.write(KLINE_HEADER if header else "")
            for k in range(count):
                t = first + k * step
                f.write("%d,100,101,99,100.5,2,%d,0,0,0,0,0\n" % (t, t + step - 1))
        return name

    def import_klines(self, *args, expect=0):
        return self.btforge("data", "import", "--format", "binance-klines", *args, "-o", "out.csv", "--timestamps",
                            "ms", expect=expect)

    def timestamps(self):
        _, rows, _ = e2e.read_csv(self.path("out.csv"))
        return [int(r["timestamp"]) for r in rows]

    def test_bars_off_the_bar_boundary_are_refused_or_resampled_on_their_own(self):
        name = self.write_klines("BTCUSDT-1h-2024-01.csv", T0 + 30 * MINUTE, HOUR, 6)
        # Was: six bars dated 30 minutes before they began, exit 0.
        p = self.import_klines(name, "--bar", "1h", expect=1)
        self.assertRegex(p.stderr, r"BTCUSDT-1h-2024-01\.csv:1:1: bar-off-boundary: BTCUSDT's 1h bars open 30m past "
                                   r"the boundaries of --bar 1h .*give --bar-offset 30m")
        self.assertFalse(os.path.exists(self.path("out.csv")))
        p = self.import_klines(name, "--bar", "1h", "--bar-offset", "30m")
        self.assertEqual(self.timestamps(), [T0 + 30 * MINUTE + k * HOUR for k in range(6)])
        self.assertIn("6 bars of 1h opening 30m past the epoch's boundaries", p.stdout)
        self.import_klines(name, "--bar", "2h", "--bar-offset", "30m")
        self.assertEqual(self.timestamps(), [T0 + 30 * MINUTE + k * 2 * HOUR for k in range(3)])
        p = self.btforge("data", "import", "--format", "binance-klines", name, "-o", "x.csv", "--bar-offset", "30m",
                         expect=2)
        self.assertIn("--bar-offset applies to --bar", p.stderr)

    def test_files_of_different_intervals_are_refused_naming_both(self):
        hours = self.write_klines("BTCUSDT-1h-2024-01.csv", T0, HOUR, 5)
        minutes = self.write_klines("BTCUSDT-1m-2024-02.csv", T0 + 40 * 24 * HOUR, MINUTE, 5)
        # Was: merged into one series of 1h and 1m bars, exit 0.
        p = self.import_klines(hours, minutes, expect=1)
        self.assertRegex(p.stderr, r"BTCUSDT-1m-2024-02\.csv:1:1: mixed-intervals: BTCUSDT's bars here are 1m apart, "
                                   r"in BTCUSDT-1h-2024-01\.csv \(line 1\) 1h")
        # Symbols of different lengths: refused as they are, one market once resampled to one length.
        eth = self.write_klines("ETHUSDT-1m-2024-01.csv", T0, MINUTE, 120)
        p = self.import_klines(hours, eth, expect=1)
        self.assertRegex(p.stderr, r"ETHUSDT-1m-2024-01\.csv:1:1: mixed-intervals: ETHUSDT's bars are 1m apart, "
                                   r"BTCUSDT's 1h .*--bar")
        p = self.import_klines(hours, eth, "--bar", "1h")
        self.assertIn("2 symbols, 7 bars of 1h", p.stdout)

    def test_bar_length_is_at_most_a_week(self):
        name = self.write_klines("BTCUSDT-1h-2024-01.csv", T0, HOUR, 5)
        for bar in ("9999999d", "8d", "169h"):
            with self.subTest(bar=bar):
                # Was (9999999d): one bar dated 1970-01-01, exit 0.
                p = self.import_klines(name, "--bar", bar, expect=2)
                self.assertIn("--bar expects a length from 1s to 7d", p.stderr)
        # Weeks opening on Mondays: the epoch was a Thursday.
        self.import_klines(name, "--bar", "7d", "--bar-offset", "4d")
        self.assertEqual(self.timestamps(), [T0])

    def test_empty_dumps_are_refused(self):
        good = self.write_klines("BTCUSDT-1m-2024-01.csv", T0, MINUTE, 3)
        open(self.path("ETHUSDT-1m-2024-01.csv"), "w").close()
        with open(self.path("SOLUSDT-1m-2024-01.csv"), "w") as f:
            f.write(KLINE_HEADER)
        # Was: exit 0 and a market without them (or without any bar).
        for name, message in (("ETHUSDT-1m-2024-01.csv", "the file is empty"),
                              ("SOLUSDT-1m-2024-01.csv", "the file has a header but no klines")):
            with self.subTest(name=name):
                p = self.import_klines(good, name, expect=1)
                self.assertIn("%s: empty-file: %s" % (name, message), p.stderr)
                self.assertFalse(os.path.exists(self.path("out.csv")))
        with open(self.path("BTCUSDT-fundingRate-2024-01.csv"), "w") as f:
            f.write("calc_time,funding_interval_hours,last_funding_rate\n")
        p = self.btforge("data", "import", "--format", "binance-funding", "BTCUSDT-fundingRate-2024-01.csv", "-o",
                         "f.csv", expect=1)
        self.assertIn("empty-file: the file has a header but no funding rates", p.stderr)

    def test_the_symbol_is_everything_before_the_interval_suffix(self):
        # Was: BTC.P-1h.csv gave the symbol BTC.
        for name, symbol in (("BTC.P-1h.csv", "BTC.P"), ("BTC-USDT-SWAP-1h-2024-01.csv", "BTC-USDT-SWAP")):
            with self.subTest(name=name):
                self.write_klines(name, T0, HOUR, 2)
                self.import_klines(name)
                _, rows, _ = e2e.read_csv(self.path("out.csv"))
                self.assertEqual({r["symbol"] for r in rows}, {symbol})
        self.write_klines("BTC-1h-ETH-1h.csv", T0, HOUR, 2)
        p = self.import_klines("BTC-1h-ETH-1h.csv", expect=1)
        self.assertIn("BTC-1h-ETH-1h.csv: ambiguous-symbol: cannot tell where the symbol ends", p.stderr)
        self.assertIn("give it with --symbol", p.stderr)
        self.import_klines("BTC-1h-ETH-1h.csv", "--symbol", "BTCUSDT")

    def test_csv_takes_the_symbol_column_and_btforge_s_own_long_csv(self):
        self.btforge("data", "synth", "-o", "m.csv", "--synthetic-bars", "50", "--synthetic-symbols", "3")
        # Was: "no-symbol: cannot tell the symbol from the file name ...: give it with --symbol".
        p = self.btforge("data", "import", "--format", "csv", "m.csv", "-o", "copy.csv")
        _, original, _ = e2e.read_csv(self.path("m.csv"))
        _, copied, _ = e2e.read_csv(self.path("copy.csv"))
        self.assertIn("1 file, %d rows -> copy.csv: 3 symbols, %d bars" % (len(original), len(original)), p.stdout)
        self.assertIn("m.csv: its funding_rate column is not imported", p.stdout)
        keys = ("timestamp", "symbol", "open", "high", "low", "close", "volume")
        self.assertEqual([[r[k] for k in keys] for r in copied], [[r[k] for k in keys] for r in original])
        # --symbol beside a symbol column is refused, pointing at --columns.
        p = self.btforge("data", "import", "--format", "csv", "m.csv", "--symbol", "X", "-o", "x.csv", expect=2)
        self.assertIn("m.csv has a symbol column", p.stderr)
        self.assertIn("--columns symbol=COLUMN", p.stderr)
        # Neither a symbol column nor a symbol in the name: both ways are named.
        with open(self.path("prices.csv"), "w") as f:
            f.write("timestamp,open,high,low,close,volume\n2024-01-01,1,1,1,1,1\n")
        p = self.btforge("data", "import", "--format", "csv", "prices.csv", "-o", "x.csv", expect=1)
        self.assertIn("--columns symbol=COLUMN", p.stderr)
        self.assertIn("give the symbol with --symbol", p.stderr)


if __name__ == "__main__":
    e2e.main()
