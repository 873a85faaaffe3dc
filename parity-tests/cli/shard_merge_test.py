#!/usr/bin/env python3
"""sweep --shard i/N and merge (Note [Shards]): merged shards are one process.

Usage: shard_merge_test.py PATH/TO/btforge [unittest options]

A small synthetic market and a 36-combination grid of the default strategy.
One process's CSV, validation JSON and walk-forward CSV are compared byte for
byte with the merge of shards: uneven splits, more shards than needed, every
row kept, a random grid, the emu backend's shards; then every refusal:
missing, repeated and foreign shards, files that are not shards, bad --shard.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BTFORGE = None
MARKET = ["--synthetic-bars", "4000"]
PARAMS = ["--param", "ema_fast=8,12,20", "--param", "sl_atr=1.5,2,3", "--param", "tp_atr=3,5", "--param", "mode=0,1"]
VALIDATION = ["--walk-forward", "rolling:4", "--pbo"]


class ShardMergeTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="btforge-shards-")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def run_btforge(self, *args, expect=0):
        done = subprocess.run([BTFORGE, *args], cwd=self.dir, capture_output=True, text=True)
        self.assertEqual(done.returncode, expect, done.stderr + done.stdout)
        return done

    def read(self, name, mode="rb"):
        with open(os.path.join(self.dir, name), mode) as f:
            return f.read()

    def shards(self, n, extra, prefix="s"):
        files = []
        for i in range(n):
            self.run_btforge("sweep", *MARKET, *extra, "--shard", f"{i}/{n}", "-o", f"{prefix}{i}")
            files.append(f"{prefix}{i}.shard")
        return files

    def assert_same_as_one_process(self, extra, n, suffixes=("csv",), shard_extra=None):
        self.run_btforge("sweep", *MARKET, *extra, "-o", "one")
        files = self.shards(n, shard_extra if shard_extra is not None else extra)
        self.run_btforge("merge", *reversed(files), "-o", "merged")  # any order
        for suffix in suffixes:
            self.assertEqual(self.read(f"one.{suffix}"), self.read(f"merged.{suffix}"), f"{suffix} of {n} shards")
        one = json.loads(self.read("one.json"))
        merged = json.loads(self.read("merged.json"))
        for key in ("backend", "seconds", "cells_per_second"):
            one.pop(key), merged.pop(key)
        self.assertEqual(one, merged)

    def test_top_rows_with_validation(self):
        self.assert_same_as_one_process([*PARAMS, *VALIDATION, "--top", "10", "--backend", "cpu"], 3,
                                        ("csv", "validation.json", "walkforward.csv"))

    def test_uneven_and_more_shards_than_combinations_need(self):
        for n in (5, 40):
            with self.subTest(shards=n):
                self.assert_same_as_one_process([*PARAMS, "--periods", "4", "--backend", "cpu"], n,
                                                ("csv", "validation.json"))

    def test_every_row(self):
        self.assert_same_as_one_process([*PARAMS, "--all-rows", "--pbo", "--backend", "cpu"], 4,
                                        ("csv", "validation.json"))

    def test_random_grid(self):
        grid = {"strategy": "default", "parameters": {"ema_fast": {"values": [5, 8, 12, 20, 30]},
                                                      "sl_atr": {"values": [1, 1.5, 2, 2.5, 3, 4]},
                                                      "tp_atr": {"values": [2, 3, 5, 8]}},
                "random": {"count": 50, "seed": 7}}
        with open(os.path.join(self.dir, "grid.json"), "w") as f:
            json.dump(grid, f)
        self.assert_same_as_one_process(["--grid", "grid.json", *VALIDATION, "--backend", "cpu"], 3,
                                        ("csv", "validation.json", "walkforward.csv"))

    def test_emu_shards_merge_to_the_cpu_process(self):
        self.assert_same_as_one_process([*PARAMS, *VALIDATION, "--backend", "cpu"], 2,
                                        ("csv", "validation.json", "walkforward.csv"),
                                        shard_extra=[*PARAMS, *VALIDATION, "--backend", "emu"])

    def test_margin_tiers_are_part_of_the_identity(self):
        self.run_btforge("data", "synth", "--synthetic-bars", "2000", "-o", "m.csv")
        with open(os.path.join(self.dir, "m.instruments.json")) as f:
            instruments = json.load(f)
        for symbol in instruments.values():
            symbol["maintenance_margin"] = [{"notional_floor": 0, "rate": 0.01}]
        with open(os.path.join(self.dir, "tiers.json"), "w") as f:
            json.dump(instruments, f)
        data = ["--data", "m.csv", "--backend", "cpu", "--param", "ema_fast=8,12", "--param", "max_leverage=5,20"]
        self.run_btforge("sweep", *data, "--instruments", "m.instruments.json", "--shard", "0/2", "-o", "a")
        self.run_btforge("sweep", *data, "--instruments", "tiers.json", "--shard", "1/2", "-o", "b")
        done = self.run_btforge("merge", "a.shard", "b.shard", "-o", "m", expect=1)
        self.assertIn("market_sha256", done.stderr)

    def test_refusals(self):
        files = self.shards(3, [*PARAMS, "--backend", "cpu"])
        done = self.run_btforge("merge", files[0], files[2], "-o", "m", expect=1)
        self.assertIn("missing: 1/3", done.stderr)
        done = self.run_btforge("merge", files[0], files[1], files[2], files[1], "-o", "m", expect=1)
        self.assertIn("shard 1/3 is given twice", done.stderr)
        self.run_btforge("sweep", *MARKET, *PARAMS, "--synthetic-seed", "9", "--backend", "cpu", "--shard", "1/3",
                         "-o", "other")
        done = self.run_btforge("merge", files[0], "other.shard", files[2], "-o", "m", expect=1)
        self.assertIn("is a shard of another run", done.stderr)
        self.assertIn("market_sha256", done.stderr)
        self.run_btforge("sweep", *MARKET, "--param", "ema_fast=8,12", "--backend", "cpu", "--shard", "1/3",
                         "-o", "grid")
        done = self.run_btforge("merge", files[0], "grid.shard", files[2], "-o", "m", expect=1)
        self.assertIn("is a shard of another run", done.stderr)
        with open(os.path.join(self.dir, "junk.shard"), "w") as f:
            f.write("timestamp,symbol\n")
        done = self.run_btforge("merge", "junk.shard", "-o", "m", expect=1)
        self.assertIn("not-a-shard", done.stderr)
        with open(os.path.join(self.dir, files[1]), "rb") as f:
            cut = f.read()[:-100]
        with open(os.path.join(self.dir, "cut.shard"), "wb") as f:
            f.write(cut)
        done = self.run_btforge("merge", files[0], "cut.shard", files[2], "-o", "m", expect=1)
        self.assertIn("truncated-shard", done.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "m.csv")))
        for bad in ("3/3", "1", "a/2", "0/0"):
            done = self.run_btforge("sweep", *MARKET, "--shard", bad, "-o", "x", expect=2)
            self.assertIn("--shard", done.stderr)
        done = self.run_btforge("sweep", *MARKET, "--rank-by", "dsr", "--shard", "0/2", "-o", "x", expect=2)
        self.assertIn("--rank-by dsr", done.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "x.shard")))


if __name__ == "__main__":
    BTFORGE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
