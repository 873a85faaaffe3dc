#!/usr/bin/env python3
"""End-to-end tests of the market cache (Note [Market cache], issue 16).

Usage: market_cache_test.py PATH/TO/btforge [unittest options]

A CSV market is parsed once and kept beside it as CSV.btfcache; a later run
reads the cache and must sweep byte-identically to a parse. Any change of
the CSV, the instruments file or a load option, and any damage to the
cache, makes the run parse again and say why; --no-market-cache neither
reads nor writes it; a directory that cannot be written costs only the
cache. A FIFO in the cache's place is not opened; a cache is keyed by the
bytes that were parsed; a cache whose checksum is right but whose content
breaks a rule of the CSV is not used (issue 29). Python 3 standard library
only.
"""

import ctypes
import hashlib
import json
import os
import select
import stat
import struct
import subprocess
import threading

import cli_end_to_end as e2e

# The ends of a cache (host/data/market_cache.cpp): magic, version, key |
# payload | payload size, payload SHA-256 in hex.
HEADER_BYTES = 8 + 4 + 64
TRAILER_BYTES = 8 + 64
IN_OPEN = 0x20


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


    def csv_values(self):
        """The rows of m.csv as dicts of floats (and the symbol)."""
        with open(self.path("m.csv")) as f:
            lines = f.read().splitlines()
        names = lines[0].split(",")
        rows = []
        for line in lines[1:]:
            row = dict(zip(names, line.split(",")))
            rows.append({k: (v if k == "symbol" else float(v) if v else None) for k, v in row.items()})
        return rows

    def forge(self, old, new):
        """Replaces the one occurrence of the double `old` in the cache's
        payload by `new`, and rewrites the trailer's size and SHA-256 to
        match: a cache whose checksum is right."""
        with open(self.cache, "rb") as f:
            data = f.read()
        payload = bytearray(data[HEADER_BYTES:len(data) - TRAILER_BYTES])
        old_bytes = struct.pack("<d", old)
        self.assertEqual(payload.count(old_bytes), 1, "the value to forge is not unique in the cache")
        at = payload.find(old_bytes)
        payload[at:at + 8] = struct.pack("<d", new)
        with open(self.cache, "wb") as f:
            f.write(data[:HEADER_BYTES] + payload + struct.pack("<Q", len(payload)) +
                    hashlib.sha256(payload).hexdigest().encode())

    def unique_close(self):
        """A row whose close occurs once in the cache's payload."""
        with open(self.cache, "rb") as f:
            data = f.read()
        for row in self.csv_values()[100:]:
            if data.count(struct.pack("<d", row["close"])) == 1:
                return row
        self.fail("no close occurs only once in the cache")

    def test_a_cache_whose_checksum_is_right_but_whose_content_breaks_the_rules_is_not_used(self):
        # Note [Market cache], Note [Market rules]. Before: used as is (a NaN
        # close, a close above its high, a qty_step of 0 reached the engines).
        with open(self.path("m.instruments.json")) as f:
            instruments = json.load(f)
        instruments["SYN2USDT"]["qty_step"] = 0.0007  # a value the cache holds once
        self.write_json("m.instruments.json", instruments)
        parsed, _ = self.sweep("parsed", "--no-market-cache")
        cases = [
            ("nan close", lambda row: (row["close"], float("nan")), "(not-a-number)"),
            ("close above high", lambda row: (row["close"], row["high"] * 2), "(high-below-open-close)"),
            ("qty_step 0", lambda row: (0.0007, 0.0), "(out-of-range)"),
        ]
        for name, edit, rule in cases:
            with self.subTest(forgery=name):
                self.sweep("write")  # a good cache of the market
                self.forge(*edit(self.unique_close()))
                forged, stderr = self.sweep("forged")
                line = self.loading_line(stderr)
                self.assertIn("(its cache was not used: corrupt: ", line)
                self.assertIn(rule, line)
                self.assertEqual(forged, parsed)

    def test_a_fifo_in_the_cache_place_is_not_opened(self):
        # Before: open() hung on the FIFO, which has no writer, and the first
        # Ctrl-C was swallowed. Now the cache is read only when it is a
        # regular file, and what is in its place is left there.
        parsed, _ = self.sweep("parsed", "--no-market-cache")
        os.mkfifo(self.cache)
        try:
            p = subprocess.run([e2e.BTFORGE, "sweep", "--strategy", "sma_cross", "--grid", self.grid, "--all-rows",
                                "-o", "fifo", "--data", "m.csv", "--instruments", "m.instruments.json"],
                               cwd=self.dir, capture_output=True, text=True, timeout=60)
        except subprocess.TimeoutExpired:
            self.fail("the run hung on the FIFO in the cache's place")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("(its cache was not used: it is a FIFO or pipe, not a market cache", self.loading_line(p.stderr))
        self.assertIn("; not cached: m.csv.btfcache is left as it is", self.loading_line(p.stderr))
        self.assertTrue(stat.S_ISFIFO(os.lstat(self.cache).st_mode))
        with open(self.path("fifo.csv"), "rb") as f:
            self.assertEqual(f.read(), parsed)

    def test_a_csv_swapped_while_it_is_read_keys_only_what_was_parsed(self):
        # The CSV is swapped for another of the same size the moment it is
        # first opened, and swapped back after the run. Before: the key was
        # hashed from one opening of the path and the market parsed from a
        # second, so the cache held the other file's market under this file's
        # key, and the next run read it ("read from its cache", wrong market).
        # Now the key is the hash of the bytes parsed.
        self.btforge("data", "synth", "-o", self.path("m.csv"), "--timestamps", "ms", "--synthetic-bars", "40000",
                     "--synthetic-symbols", "3", "--synthetic-seed", "11")
        self.btforge("data", "synth", "-o", self.path("other.csv"), "--timestamps", "ms", "--synthetic-bars",
                     "40000", "--synthetic-symbols", "3", "--synthetic-seed", "12")
        contents = {}
        for name in ["m.csv", "other.csv"]:
            with open(self.path(name), "rb") as f:
                contents[name] = f.read()
        size = max(len(c) for c in contents.values())
        for name, content in contents.items():  # the same size: blank lines at the end are nothing
            with open(self.path(name), "wb") as f:
                f.write(content + b"\n" * (size - len(content)))
        for copy, name in [("m.copy", "m.csv"), ("other.copy", "other.csv")]:
            with open(self.path(name), "rb") as f, open(self.path(copy), "wb") as out:
                out.write(f.read())
        expected, _ = self.sweep("expected", "--no-market-cache")

        libc = ctypes.CDLL(None, use_errno=True)
        watch = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        self.assertGreaterEqual(watch, 0)
        self.addCleanup(os.close, watch)
        self.assertGreaterEqual(libc.inotify_add_watch(watch, self.dir.encode(), IN_OPEN), 0)
        swapped = threading.Event()
        stop = threading.Event()

        def swap_on_first_open():
            while not stop.is_set():
                if not select.select([watch], [], [], 0.05)[0]:
                    continue
                events = os.read(watch, 65536)
                at = 0
                while at < len(events):
                    _, mask, _, length = struct.unpack_from("iIII", events, at)
                    name = events[at + 16:at + 16 + length].rstrip(b"\0")
                    at += 16 + length
                    if mask & IN_OPEN and name == b"m.csv":
                        os.replace(self.path("other.csv"), self.path("m.csv"))
                        swapped.set()
                        return

        watcher = threading.Thread(target=swap_on_first_open)
        watcher.start()
        try:
            self.sweep("during")
        finally:
            stop.set()
            watcher.join()
        self.assertTrue(swapped.is_set(), "the CSV was not swapped")
        os.replace(self.path("m.copy"), self.path("m.csv"))  # and back
        again, stderr = self.sweep("after")
        self.assertIn("read from its cache", self.loading_line(stderr))
        self.assertEqual(again, expected)

if __name__ == "__main__":
    e2e.main()
