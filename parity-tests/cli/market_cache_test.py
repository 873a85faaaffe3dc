#!/usr/bin/env python3
"""End-to-end tests of the market cache (Note [Market cache], issue 16).

Usage: market_cache_test.py PATH/TO/btforge [unittest options]

A CSV market is parsed once and kept beside it as CSV.btfcache; a later run
reads the cache and must sweep byte-identically to a parse. Any change of
the CSV, the instruments file or a load option, and any damage to the
cache, makes the run parse again and say why; --no-market-cache neither
reads nor writes it; a directory that cannot be written costs only the
cache. Python 3 standard library only.
"""

import os
import stat

import cli_end_to_end as e2e


class MarketCache(e2e.CliTestCase):
    def setUp(self):
        super().setUp()
        self.btforge("data", "synth", "-o", self.path("m.csv"), "--timestamps", "ms", "--synthetic-bars", "500",
                     "--synthetic-symbols", "3", "--synthetic-seed", "11")
        self.grid = self.write_grid("sma_cross")
        self.cache = self.path("m.csv.btfcache")

    def sweep(self, output, *extra, data="m.csv"):
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "--all-rows", "-o", output,
                         "--data", data, "--instruments", "m.instruments.json", *extra)
        with open(self.path(output + ".csv"), "rb") as f:
            return f.read(), p.stderr

    def loading_line(self, stderr):
        lines = [line for line in stderr.splitlines() if line.startswith("  loading:")]
        self.assertEqual(len(lines), 1, stderr)
        return lines[0]

    def test_second_run_reads_the_cache_and_sweeps_the_same(self):
        parsed, stderr = self.sweep("first")
        self.assertRegex(self.loading_line(stderr), r"parsed in [0-9.]+ s; cached in m.csv.btfcache for the next run")
        self.assertTrue(os.path.exists(self.cache))
        cached, stderr = self.sweep("second")
        self.assertRegex(self.loading_line(stderr), r"read from its cache m.csv.btfcache in [0-9.]+ s")
        self.assertEqual(cached, parsed)
        # replay reads it too, and its row is the sweep's.
        p = self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", "3", "--data", "m.csv",
                         "--instruments", "m.instruments.json", "--trades", "t.csv", "--equity", "e.csv")
        self.assertIn("read from its cache", p.stdout + p.stderr)

    def test_changed_inputs_and_damage_rebuild_it(self):
        parsed, _ = self.sweep("first")
        # Other load options: the key differs, the run parses again.
        _, stderr = self.sweep("rate", "--funding-rate", "0.0002")
        self.assertIn("its cache was not used: the CSV or the options changed", self.loading_line(stderr))
        # The cache now holds the --funding-rate run; the plain run rebuilds it and still sweeps the same.
        again, stderr = self.sweep("again")
        self.assertIn("the CSV or the options changed", self.loading_line(stderr))
        self.assertEqual(again, parsed)
        # A flipped byte in the middle of the cache.
        with open(self.cache, "r+b") as f:
            f.seek(os.path.getsize(self.cache) // 2)
            byte = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([byte[0] ^ 1]))
        damaged, stderr = self.sweep("damaged")
        self.assertIn("its cache was not used: corrupt:", self.loading_line(stderr))
        self.assertEqual(damaged, parsed)
        self.assertIn("read from its cache", self.loading_line(self.sweep("healed")[1]))
        # A truncated cache.
        with open(self.cache, "r+b") as f:
            f.truncate(os.path.getsize(self.cache) - 7)
        self.assertIn("corrupt: its size does not match", self.loading_line(self.sweep("cut")[1]))
        # The CSV edited: one price changed.
        with open(self.path("m.csv")) as f:
            lines = f.read().splitlines()
        fields = lines[200].split(",")
        fields[5] = repr(float(fields[5]) * 1.0001)  # the close, inside its bar's range or not: any change will do
        fields[3] = repr(max(float(fields[3]), float(fields[5])))
        fields[4] = repr(min(float(fields[4]), float(fields[5])))
        lines[200] = ",".join(fields)
        with open(self.path("m.csv"), "w") as f:
            f.write("\n".join(lines) + "\n")
        edited, stderr = self.sweep("edited")
        self.assertIn("the CSV or the options changed", self.loading_line(stderr))
        self.assertNotEqual(edited, parsed)

    def test_no_market_cache_neither_reads_nor_writes(self):
        parsed, stderr = self.sweep("plain", "--no-market-cache")
        self.assertNotIn("  loading:", stderr)
        self.assertFalse(os.path.exists(self.cache))
        self.sweep("first")
        with open(self.cache, "r+b") as f:  # a cache that would be refused: never looked at
            f.write(b"X")
        again, stderr = self.sweep("again", "--no-market-cache")
        self.assertEqual(again, parsed)
        self.assertNotIn("corrupt", stderr)

    def test_a_directory_that_cannot_be_written_costs_only_the_cache(self):
        if os.geteuid() == 0:
            self.skipTest("root writes into read-only directories")
        data = os.path.join(self.dir, "ro")
        os.mkdir(data)
        os.rename(self.path("m.csv"), os.path.join(data, "m.csv"))
        os.chmod(data, stat.S_IRUSR | stat.S_IXUSR)
        self.addCleanup(os.chmod, data, stat.S_IRWXU)
        _, stderr = self.sweep("ro", data=os.path.join("ro", "m.csv"))
        self.assertIn("; not cached: ", self.loading_line(stderr))


if __name__ == "__main__":
    e2e.main()
