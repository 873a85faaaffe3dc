#!/usr/bin/env python3
"""btforge indicators --list: the inputs and the SPEC §5 semantics of each indicator, run by CTest.

Usage: indicator_list_test.py PATH/TO/btforge [unittest options]

Python 3 standard library only.
"""

import re

import cli_end_to_end as e2e

# SPEC §5: the prices each indicator reads.
READS = {
    "SMA": "close", "EMA": "close", "WMA": "close", "KAMA": "close", "RSI": "close", "MACD": "close",
    "BBANDS": "close", "ATR": "high, low, close", "PLUS_DI": "high, low, close", "MINUS_DI": "high, low, close",
    "ADX": "high, low, close", "STOCH": "high, low, close", "CCI": "high, low, close",
    "MFI": "high, low, close, volume", "OBV": "close, volume", "WILLR": "high, low, close", "ROC": "close",
    "MAX": "high", "MIN": "low", "BREADTH": "close of every symbol",
}

# SPEC §5's lookback column.
LOOKBACK = {
    "SMA": "period-1", "EMA": "period-1", "WMA": "period-1", "KAMA": "period", "RSI": "period",
    "MACD": "slow-1 + signal-1", "BBANDS": "period-1", "ATR": "period", "PLUS_DI": "period", "MINUS_DI": "period",
    "ADX": "2*period-1", "STOCH": "fastk-1 + slowk-1 + slowd-1", "CCI": "period-1", "MFI": "period", "OBV": "0",
    "WILLR": "period-1", "ROC": "period", "MAX": "period-1", "MIN": "period-1", "BREADTH": "period-1",
}

# Note [Parameter domains]: TA-Lib 0.8.1's own ranges, both bounds inclusive.
DOMAINS = {
    "SMA": "period: an integer from 1 to 100000", "EMA": "period: an integer from 1 to 100000",
    "WMA": "period: an integer from 1 to 100000", "KAMA": "period: an integer from 1 to 100000",
    "RSI": "period: an integer from 2 to 100000",
    "MACD": "fast: an integer from 2 to 100000; slow: an integer from 2 to 100000; signal: an integer from 1 to 100000",
    "BBANDS": "period: an integer from 2 to 100000; k: a number from -3e+37 to 3e+37",
    "ATR": "period: an integer from 1 to 100000", "PLUS_DI": "period: an integer from 1 to 100000",
    "MINUS_DI": "period: an integer from 1 to 100000", "ADX": "period: an integer from 2 to 100000",
    "STOCH": "fastk: an integer from 1 to 100000; slowk: an integer from 1 to 100000; slowd: an integer from 1 to 100000",
    "CCI": "period: an integer from 2 to 100000", "MFI": "period: an integer from 2 to 100000",
    "OBV": "no parameters", "WILLR": "period: an integer from 2 to 100000", "ROC": "period: an integer from 1 to 100000",
    "MAX": "period: an integer from 2 to 100000", "MIN": "period: an integer from 2 to 100000",
    "BREADTH": "period: an integer from 1 to 100000",
}


class IndicatorList(e2e.CliTestCase):
    def listing(self):
        p = self.btforge("indicators", "--list")
        entries = re.findall(r"^  ([A-Z_]+)\((.*)\) -> (.*)\n      reads (.*?)( \(or the column a spec's \"input\" or "
                             r"--input names\))?; lookback ([^;]*); (.+)$", p.stdout, re.M)
        self.choosers = {name for name, _, _, _, chooses, _, _ in entries if chooses}
        return p.stdout, {name: (reads, lookback, meaning) for name, _, _, reads, _, lookback, meaning in entries}

    def test_every_indicator_says_what_it_reads_and_its_lookback(self):
        stdout, entries = self.listing()
        self.assertEqual(list(entries), e2e.INDICATORS, stdout)
        for name, (reads, lookback, meaning) in entries.items():
            with self.subTest(indicator=name):
                self.assertEqual(reads, READS[name])
                self.assertEqual(lookback, LOOKBACK[name])
                self.assertGreater(len(meaning), 10)
        self.assertIn("values before the lookback are NaN", stdout)
        # Note [Indicator input column]: exactly the indicators of one input
        # column of one symbol say that another column can be named.
        self.assertEqual(self.choosers, {name for name, reads in READS.items() if "," not in reads and "every" not in reads})

    def test_input_reads_another_column(self):
        """MAX of the close equals MAX of the high on a market whose high is its close."""
        out = self.path("max_close.csv")
        self.btforge("indicators", "--name", "MAX", "--param", "period=3", "--input", "close", "--synthetic-bars", "300",
                     "--synthetic-symbols", "2", "-o", out)
        own = self.path("max_high.csv")
        self.btforge("indicators", "--name", "MAX", "--param", "period=3", "--synthetic-bars", "300",
                     "--synthetic-symbols", "2", "-o", own)
        close = self.path("close.csv")
        self.btforge("indicators", "--name", "SMA", "--param", "period=1", "--synthetic-bars", "300",
                     "--synthetic-symbols", "2", "-o", close)
        def rows(path):
            with open(path) as f:
                return [line.split(",") for line in f.read().splitlines()[1:]]
        closes = [float(r[2]) for r in rows(close)]
        max_close, max_high = [r[2] for r in rows(out)], [r[2] for r in rows(own)]
        self.assertNotEqual(max_close, max_high)
        # Per symbol, MAX(3) of the close is the largest of the last three closes.
        by_symbol = {}
        for (t, sym, value), c in zip(rows(out), closes):
            by_symbol.setdefault(sym, []).append((value, c))
        for sym, pairs in by_symbol.items():
            for i in range(2, len(pairs)):
                self.assertEqual(float(pairs[i][0]), max(c for _, c in pairs[i - 2:i + 1]), (sym, i))

    def test_input_refused_for_an_indicator_of_several_columns(self):
        p = self.btforge("indicators", "--name", "ATR", "--param", "period=3", "--input", "close", "--synthetic-bars",
                         "50", expect=2)
        self.assertIn("--input close: ATR reads several price columns", p.stderr)
        p = self.btforge("indicators", "--name", "SMA", "--param", "period=3", "--input", "hl2", "--synthetic-bars",
                         "50", expect=2)
        self.assertIn("unknown input column 'hl2'", p.stderr)

    def test_max_and_min_read_the_high_and_the_low_including_the_current_bar(self):
        _, entries = self.listing()
        self.assertEqual(entries["MAX"][0], "high")
        self.assertEqual(entries["MIN"][0], "low")
        self.assertIn("highest high", entries["MAX"][2])
        self.assertIn("lowest low", entries["MIN"][2])
        for name in ("MAX", "MIN", "WILLR", "STOCH"):
            self.assertIn("the current bar included", entries[name][2], name)

    def test_every_parameter_domain_is_listed(self):
        stdout, _ = self.listing()
        domains = dict(re.findall(r"^  ([A-Z_]+)\(.*\n      reads .*\n      (.+)$", stdout, re.M))
        self.assertEqual(domains, DOMAINS, stdout)

    def test_param_values_at_the_domain_edges(self):
        """Inside the domain computes, outside it is refused naming the domain; BBANDS takes a negative k
        (TA-Lib does: the upper band then lies below the lower one) and refuses one beyond TA-Lib's 3e37."""
        market = ["--synthetic-bars", "60", "--synthetic-symbols", "1"]
        ok = self.path("bb_negative.csv")
        self.btforge("indicators", "--name", "BBANDS", "--param", "period=5", "--param", "k=-2", "-o", ok, *market)
        positive = self.path("bb_positive.csv")
        self.btforge("indicators", "--name", "BBANDS", "--param", "period=5", "--param", "k=2", "-o", positive, *market)
        _, negative_rows, _ = e2e.read_csv(ok)
        _, positive_rows, _ = e2e.read_csv(positive)
        self.assertEqual([(r["upper"], r["lower"]) for r in negative_rows],
                         [(r["lower"], r["upper"]) for r in positive_rows])
        for k in ("3e37", "-3e37", "0"):
            self.btforge("indicators", "--name", "BBANDS", "--param", "period=5", "--param", "k=" + k,
                         "-o", self.path("bb.csv"), *market)
        for k in ("1e308", "3.0000000000000007e37", "-3.0000000000000007e37", "inf", "nan"):
            with self.subTest(k=k):
                p = self.btforge("indicators", "--name", "BBANDS", "--param", "period=5", "--param", "k=" + k,
                                 "-o", self.path("bb.csv"), *market, expect=1)
                self.assertIn("BBANDS: k must be a number from -3e+37 to 3e+37", p.stderr)
        for name, value, domain in (("SMA", "0", "an integer from 1 to 100000"),
                                    ("SMA", "100001", "an integer from 1 to 100000"),
                                    ("RSI", "1", "an integer from 2 to 100000"),
                                    ("EMA", "2.5", "an integer from 1 to 100000")):
            with self.subTest(name=name, value=value):
                p = self.btforge("indicators", "--name", name, "--param", "period=" + value, "-o", self.path("x.csv"),
                                 *market, expect=1)
                self.assertIn("%s: period must be %s, got %s" % (name, domain, value), p.stderr)
        self.btforge("indicators", "--name", "SMA", "--param", "period=100000", "-o", self.path("x.csv"), *market)

    def test_help_says_what_list_shows(self):
        p = self.btforge("indicators", "--help")
        self.assertIn("the prices each reads", p.stdout)


if __name__ == "__main__":
    e2e.main()
