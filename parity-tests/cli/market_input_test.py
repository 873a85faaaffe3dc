#!/usr/bin/env python3
"""End-to-end tests of the market CSV's timestamp units and value limits (issue 13).

Usage: market_input_test.py PATH/TO/btforge [unittest options]

Note [Epoch units] (host/data/timestamp_parse.h) and Note [Market value
limits] (host/data/market_limits.h): every case fails with one
file:line:column: rule line, exit 1 for bad data and 2 for a bad option, and
leaves no file behind. Python 3 standard library only.
"""

import json
import os
import subprocess
import threading

import cli_end_to_end as e2e

MIB = 1 << 20
ROW_TOO_LONG = ("row-too-long: the row starting on this line runs past 1 MiB (1048576 bytes) without ending: this is "
                "not CSV text (binary data, NUL bytes?) or a quote is never closed; rows hold at most that much")


class MarketFileCase(e2e.CliTestCase):
    """A small synthetic market written with epoch-millisecond timestamps."""

    # Runs sweep, replay and indicators on the args; each must fail with the
    # pattern and write nothing (the shared fixture's check).
    assert_rejected = e2e.BadInputsAreRejected.assert_rejected

    def setUp(self):
        super().setUp()
        self.btforge("data", "synth", "-o", self.path("ms.csv"), "--timestamps", "ms", "--synthetic-bars", "300",
                     "--synthetic-symbols", "2", "--synthetic-seed", "7")
        with open(self.path("ms.csv")) as f:
            lines = f.read().splitlines()
        self.header, self.rows = lines[0], lines[1:]
        self.assertEqual(self.header, "timestamp,symbol,open,high,low,close,volume,funding_rate")
        self.assertEqual(self.rows[0].split(",")[0], "1704067200000")
        self.grid = self.write_grid("sma_cross")
        self.instruments = ["--instruments", "ms.instruments.json"]

    def write_rows(self, name, rows):
        with open(self.path(name), "w") as f:
            f.write("\n".join([self.header] + rows) + "\n")
        return name

    def with_timestamps(self, name, convert):
        """The market with each epoch-ms timestamp replaced by convert(ms)."""
        rows = []
        for row in self.rows:
            fields = row.split(",")
            fields[0] = convert(int(fields[0]))
            rows.append(",".join(fields))
        return self.write_rows(name, rows)

    def with_field(self, name, row_index, column, value):
        rows = list(self.rows)
        fields = rows[row_index].split(",")
        fields[column] = value
        rows[row_index] = ",".join(fields)
        return self.write_rows(name, rows)

    def sweep_rows(self, data, output, *extra):
        output += "-sweep"  # never the data's own name (Note [Outputs checked before work])
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "--all-rows", "-o", output,
                         "--data", data, *self.instruments, *extra)
        with open(self.path(output + ".csv"), "rb") as f:
            csv_bytes = f.read()
        with open(self.path(output + ".json")) as f:
            rows = json.load(f)["rows"]
        return csv_bytes, rows, p.stderr


class TimestampUnits(MarketFileCase):
    """--timestamp-unit auto|s|ms|us|ns: detection, refusal, explicit units."""

    UNITS = {
        "s": (lambda ms: str(ms // 1000), "seconds"),
        "us": (lambda ms: str(ms * 1000), "microseconds"),
        "ns": (lambda ms: str(ms * 1000000), "nanoseconds"),
    }

    def test_every_unit_sweeps_like_milliseconds(self):
        # The example: a whole file in seconds was read as milliseconds
        # (the market squeezed into 5 minutes: other Sharpe, funding never settled).
        expected_csv, expected_rows, ms_stderr = self.sweep_rows("ms.csv", "ms")
        self.assertTrue(any(float(r["metrics"]["funding_paid"]) != 0.0 for r in expected_rows))
        for unit, (convert, words) in self.UNITS.items():
            with self.subTest(unit=unit):
                data = self.with_timestamps(unit + ".csv", convert)
                got_csv, got_rows, stderr = self.sweep_rows(data, unit)
                self.assertEqual(got_rows, expected_rows)
                self.assertEqual(got_csv, expected_csv)
                # The run says which unit it detected.
                self.assertIn("timestamps: integer timestamps read as epoch %s (detected" % words, stderr)
        self.assertIn("integer timestamps read as epoch milliseconds (detected", ms_stderr)

    def test_explicit_unit_is_honoured(self):
        seconds = self.with_timestamps("s.csv", self.UNITS["s"][0])
        expected_csv, _, _ = self.sweep_rows("ms.csv", "ms")
        got_csv, _, stderr = self.sweep_rows(seconds, "given", "--timestamp-unit", "s")
        self.assertEqual(got_csv, expected_csv)
        self.assertNotIn("detected", stderr)
        # Read as milliseconds, the same seconds are January 1970: the equity curve says so.
        self.btforge("replay", "--strategy", "sma_cross", "-c", "0", "--data", seconds, "--timestamp-unit", "ms",
                     "--trades", "t.csv", "--equity", "e.csv")
        _, equity, _ = e2e.read_csv(self.path("e.csv"))
        self.assertEqual(equity[0]["time"], "1970-01-20T17:21:07.200Z")

    def test_implausible_and_mixed_units_are_refused(self):
        # Milliseconds from the epoch, as hand-written test files have them: 1970 in every unit.
        small = self.with_timestamps("small.csv", lambda ms: str(ms - 1704067200000 + 1000))
        self.assert_rejected(["--data", small], r"small\.csv:2:1: ambiguous-timestamp-unit: .*epoch timestamp 1000"
                             r".*1971-01-01\.\.2099-12-31.*--timestamp-unit s\|ms\|us\|ns")
        # Bars at even hours in ms, the others in s: the second data row (line 3) mixes.
        mixed = self.with_timestamps("mixed.csv", lambda ms: str(ms // 1000) if ms % 7200000 else str(ms))
        self.assert_rejected(["--data", mixed], r"mixed\.csv:3:1: ambiguous-timestamp-unit: .*1704070800 is .*only "
                             r"in s, but the first one, 1704067200000 on line 2, only in ms; .*range from 1704070800 "
                             r"to 1704067200000; give the unit with --timestamp-unit")
        # The same file with its unit given still cannot be right: a clear error, not a guess.
        self.assert_rejected(["--data", mixed, "--timestamp-unit", "s"], r"mixed\.csv:2:1: timestamp-out-of-range: ")

    def test_sub_millisecond_timestamps_are_refused(self):
        # Microseconds, one of them 1 us past its millisecond (file line 6).
        self.with_timestamps("sub.csv", lambda ms: str(ms * 1000))
        with open(self.path("sub.csv")) as f:
            self.rows = f.read().splitlines()[1:]
        value = int(self.rows[4].split(",")[0]) + 1
        data = self.with_field("sub.csv", 4, 0, str(value))
        self.assert_rejected(["--data", data], r"sub\.csv:6:1: sub-millisecond-timestamp: .*\"%d\" in us" % value)

    def test_out_of_range_and_overflow(self):
        # Milliseconds said to be seconds: year 55970, beyond 9999.
        self.assert_rejected(["--data", "ms.csv", "--timestamp-unit", "s"],
                             r"ms\.csv:2:1: timestamp-out-of-range: .*0000\.\.9999")
        # x1000 would overflow an int64.
        data = self.with_field("huge.csv", 0, 0, "9223372036854775807")
        self.assert_rejected(["--data", data, "--timestamp-unit", "s"], r"huge\.csv:2:1: timestamp-out-of-range: ")

    def test_bad_unit_option_is_a_usage_error(self):
        self.assert_rejected(["--data", "ms.csv", "--timestamp-unit", "ks"],
                             r"--timestamp-unit must be auto, s, ms, us or ns", expect_code=2)
        self.assert_rejected(["--timestamp-unit", "s"], r"apply to --data", expect_code=2)


class AbsurdNumbers(MarketFileCase):
    """Note [Market value limits]: in the CSV (exit 1) and on the command line (exit 2)."""

    def test_csv_values_beyond_the_limits(self):
        # (row index, column index, value, rule); the row is file line index + 2, the column index + 1.
        cases = [
            (3, 2, "1e300", "price-out-of-range"),
            (4, 5, "1.7976931348623157e308", "price-out-of-range"),
            (5, 4, "1e-13", "price-out-of-range"),
            (6, 3, "2e12", "price-out-of-range"),
            (7, 6, "1e25", "volume-out-of-range"),
            (8, 6, "1e308", "volume-out-of-range"),
            (9, 7, "1e308", "funding-rate-out-of-range"),
            (10, 7, "-1.5", "funding-rate-out-of-range"),
            (11, 7, "inf", "not-a-number"),
        ]
        for row, column, value, rule in cases:
            with self.subTest(value=value, rule=rule):
                data = self.with_field("bad.csv", row, column, value)
                self.assert_rejected(["--data", data], r"bad\.csv:%d:%d: %s: " % (row + 2, column + 1, rule))

    def test_limits_themselves_are_accepted(self):
        rows = list(self.rows)
        for index, values in [(3, {7: "1"}), (4, {7: "-1"}), (5, {2: "1e12", 3: "1e12", 4: "1e12", 5: "1e12"}),
                              (6, {2: "1e-12", 3: "1e-12", 4: "1e-12", 5: "1e-12", 6: "1e24"})]:
            fields = rows[index].split(",")
            for column, value in values.items():
                fields[column] = value
            rows[index] = ",".join(fields)
        self.write_rows("edge.csv", rows)
        self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o", "OUT", "--data", "edge.csv",
                     "--funding-rate", "-1", "--funding-interval-hours", "8784")

    def test_command_line_rates_and_intervals(self):
        for value in ["1e308", "-1.5", "nan", "inf"]:
            with self.subTest(funding_rate=value):
                self.assert_rejected(["--data", "ms.csv", "--funding-rate", value],
                                     r"--funding-rate must be finite and within -1\.\.1", expect_code=2)
        for value in ["0", "-8", "nan", "inf", "1e300", "1e-9", "8785"]:
            with self.subTest(funding_interval_hours=value):
                self.assert_rejected(["--data", "ms.csv", "--funding-interval-hours", value],
                                     r"--funding-interval-hours must be a whole number of milliseconds", expect_code=2)
        # The synthetic market and data synth share the rule.
        before = sorted(os.listdir(self.dir))
        p = self.btforge("data", "synth", "-o", "x.csv", "--funding-interval-hours", "1e300", expect=2)
        self.assertIn("--funding-interval-hours must be", p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before)


    def test_synthetic_market_options_are_usage_errors(self):
        # Before: exit 1, and a far-future market failed only when its times were written.
        cases = [
            (["--synthetic-bar-minutes", "2000000000", "--synthetic-bars", "100"], r"reach beyond the year 9999"),
            (["--synthetic-bar-minutes", "0"], r"--synthetic-bar-minutes must be >= 1"),
            (["--synthetic-symbols", "0"], r"--synthetic-symbols must be in 1\.\."),
            (["--synthetic-bars", "0"], r"--synthetic-bars must be >= 1"),
        ]
        for args, pattern in cases:
            with self.subTest(args=args):
                self.assert_rejected(args, pattern, expect_code=2)
                before = sorted(os.listdir(self.dir))
                p = self.btforge("data", "synth", "-o", "x.csv", *args, expect=2)
                self.assertRegex(p.stderr, pattern)
                self.assertEqual(sorted(os.listdir(self.dir)), before)


class ReadingLimits(MarketFileCase):
    """Note [Reading input files] and Note [CSV rows] (issue 29, item 3): the
    market, a funding file and the files of `data import` are read in pieces,
    never whole. Before, /dev/zero and a 3 GB sparse file were read whole
    (3.9-6.3 GB resident); each run here has 1 GiB of address space, so one
    that reads them whole fails with "out of memory"."""

    def sparse(self, name, size=3 << 30):
        with open(self.path(name), "wb") as f:
            f.truncate(size)  # 3 GiB of holes: NUL bytes without a line end
        return self.path(name)

    def assert_refused_bounded(self, args, expected):
        """One error line, `expected` after the command's "error: ", exit 1,
        and at most 64 MiB resident."""
        p, peak = e2e.run_bounded(args, self.dir)
        errors = [line for line in p.stderr.splitlines() if "error:" in line]
        self.assertEqual(len(errors), 1, p.stderr)
        self.assertEqual(errors[0].split("error: ", 1)[1], expected)
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertLess(peak, 64 * MIB)

    def test_a_device_or_a_file_without_line_ends_as_the_market(self):
        sparse = self.sparse("sparse.csv")
        sweep = ["sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o", "out"]
        self.assert_refused_bounded(sweep + ["--data", "/dev/zero"],
                                    "/dev/zero: not-a-regular-file: is a character device, not a market file")
        for cache in [[], ["--no-market-cache"]]:
            with self.subTest(cache=cache):
                self.assert_refused_bounded(sweep + ["--data", sparse] + cache, sparse + ":1: " + ROW_TOO_LONG)
        self.assertFalse(os.path.exists(sparse + ".btfcache"))

    def test_a_device_or_a_file_without_line_ends_as_a_funding_file(self):
        sparse = self.sparse("sparse_f.csv")
        sweep = ["sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o", "out", "--data", "ms.csv"]
        self.assert_refused_bounded(sweep + ["--funding-file", "/dev/zero"],
                                    "/dev/zero: not-a-regular-file: is a character device, not a funding file")
        self.assert_refused_bounded(sweep + ["--funding-file", sparse], sparse + ":1: " + ROW_TOO_LONG)

    def test_a_device_or_a_file_without_line_ends_to_import(self):
        sparse = self.sparse("BTCUSDT-1m-2024-01.csv")
        formats = [("binance-klines", "kline file"), ("csv", "data file"), ("binance-funding", "funding-rate file")]
        for fmt, what in formats:
            with self.subTest(format=fmt):
                args = ["data", "import", "--format", fmt, "--symbol", "BTCUSDT", "-o", "out.csv"]
                self.assert_refused_bounded(args + ["/dev/zero"],
                                            "/dev/zero: not-a-regular-file: is a character device, not a " + what)
                self.assert_refused_bounded(args + [sparse], sparse + ":1: " + ROW_TOO_LONG)
                self.assertFalse(os.path.exists(self.path("out.csv")))

    def test_memory_follows_the_market_not_the_file(self):
        # 120 MB of rows of a symbol that is not selected, each with a long
        # ignored column: the run keeps the bars of SYN1USDT only, parsed or
        # read from its cache. Before: the whole file was held (peak > 120 MB).
        note = "x" * 4000
        with open(self.path("big.csv"), "w") as f:
            f.write(self.header + ",note\n")
            for row in self.rows:
                f.write(row + ",\n")
            last = int(self.rows[-1].split(",")[0])
            for k in range(30000):
                f.write("%d,OTHER,1,1,1,1,1,,%s\n" % (last + 60000 * (k + 1), note))
        size = os.path.getsize(self.path("big.csv"))
        self.assertGreater(size, 110 * MIB)
        expected, _, _ = self.sweep_rows("ms.csv", "small", "--symbols", "SYN1USDT", "--no-market-cache")
        for run, loading in [("parsed", "parsed in"), ("cached", "read from its cache")]:
            with self.subTest(run=run):
                p, peak = e2e.run_bounded(["sweep", "--strategy", "sma_cross", "--grid", self.grid, "--all-rows", "-o",
                                           run, "--data", "big.csv", "--symbols", "SYN1USDT", *self.instruments],
                                          self.dir)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertIn(loading, p.stderr)
                self.assertLess(peak, 64 * MIB)
                with open(self.path(run + ".csv"), "rb") as f:
                    self.assertEqual(f.read(), expected)

    def test_a_pipe_is_read_as_it_comes(self):
        # `--data <(cat ms.csv)`: a pipe is streamed, and not cached.
        expected, _, _ = self.sweep_rows("ms.csv", "file", "--no-market-cache")
        with open(self.path("ms.csv"), "rb") as f:
            text = f.read()
        read_end, write_end = os.pipe()

        def write():
            with os.fdopen(write_end, "wb") as out:
                out.write(text)

        writer = threading.Thread(target=write)
        writer.start()
        try:
            p = subprocess.run([e2e.BTFORGE, "sweep", "--strategy", "sma_cross", "--grid", self.grid, "--all-rows",
                                "-o", "piped", "--data", "/dev/fd/%d" % read_end, *self.instruments], cwd=self.dir,
                               capture_output=True, text=True, timeout=120, pass_fds=[read_end])
        finally:
            os.close(read_end)
            writer.join()
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("not cached: a stream (a FIFO or pipe) is read once", p.stderr)
        with open(self.path("piped.csv"), "rb") as f:
            self.assertEqual(f.read(), expected)


if __name__ == "__main__":
    e2e.main()
