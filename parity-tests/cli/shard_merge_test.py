#!/usr/bin/env python3
"""sweep --shard i/N and merge (Note [Shards]): merged shards are one process.

Usage: shard_merge_test.py PATH/TO/btforge [unittest options]

A small synthetic market and a 36-combination grid of the default strategy.
One process's CSV, validation JSON and walk-forward CSV are compared byte for
byte with the merge of shards: uneven splits, more shards than needed, every
row kept, a random grid, the emu backend's shards; then every refusal:
missing, repeated and foreign shards, files that are not shards, bad --shard.
ShardFileTest edits shard files (shard_format.py) as a hostile or unlucky
user would, and each edit is refused naming the file and what is wrong
(Note [Shard files], issue 29).
"""

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import unittest

from shard_format import Shard

BTFORGE = None
MARKET = ["--synthetic-bars", "4000"]
PARAMS = ["--param", "ema_fast=8,12,20", "--param", "sl_atr=1.5,2,3", "--param", "tp_atr=3,5", "--param", "mode=0,1"]
VALIDATION = ["--walk-forward", "rolling:4", "--pbo", "--cpcv", "--spa", "100", "--returns", "40"]


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

    def test_return_streams_alone_cluster_the_union(self):
        # --returns without --spa: the shards carry the marks and the merge
        # clusters the union (Note [Effective number of trials]).
        self.assert_same_as_one_process([*PARAMS, "--returns", "40", "--top", "10", "--backend", "cpu"], 3,
                                        ("csv", "validation.json"))

    def test_buy_and_hold_benchmark_through_shards(self):
        # Note [Buy-and-hold benchmark]: the identity carries the benchmark's
        # marks; the merge tests against them as one process does.
        self.assert_same_as_one_process([*PARAMS, "--spa", "100", "--returns", "40", "--spa-benchmark", "hold",
                                         "--top", "10", "--backend", "cpu"], 2, ("csv", "validation.json"))

    def test_daily_returns_through_shards(self):
        # Note [Equity marks at UTC days]: the identity carries the number of
        # days; the shards' marks are the kernels' day ends, as one process's.
        self.assert_same_as_one_process([*PARAMS, "--spa", "100", "--returns", "daily", "--spa-benchmark", "hold",
                                         "--top", "10", "--backend", "cpu"], 2, ("csv", "validation.json"))

    def test_uneven_and_more_shards_than_combinations_need(self):
        for n in (5, 40):
            with self.subTest(shards=n):
                self.assert_same_as_one_process([*PARAMS, "--periods", "4", "--backend", "cpu"], n,
                                                ("csv", "validation.json"))

    def test_every_row(self):
        self.assert_same_as_one_process([*PARAMS, "--all-rows", "--pbo", "--backend", "cpu"], 4,
                                        ("csv", "validation.json"))

    def test_conditional_grid(self):
        # Note [Conditional axes]: ema_fast only in mode 0; the run order of
        # the subset (Note [Run order of a conditional grid]) is cut into shards.
        conditional = ["--param", "ema_fast=8,12,20 when mode=0", *PARAMS[2:]]
        for extra in (["--top", "5"], ["--all-rows"]):
            with self.subTest(extra=extra):
                self.assert_same_as_one_process([*conditional, *extra, "--pbo", "--backend", "cpu"], 3,
                                                ("csv", "validation.json"))
        self.assertEqual(json.loads(self.read("one.json"))["combinations"], (3 + 1) * 3 * 2)
        # A shard of the same grid without the condition is another run.
        self.shards(1, [*PARAMS, "--pbo", "--backend", "cpu"], prefix="plain")
        self.shards(2, [*conditional, "--pbo", "--backend", "cpu"], prefix="cond")
        refused = self.run_btforge("merge", "plain0.shard", "cond1.shard", "-o", "mixed", expect=1)
        self.assertIn("is a shard of another run", refused.stderr)

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

    def test_where_the_cscv_of_a_merge_runs(self):
        # Note [CSCV of a merge]. Without a usable GPU auto says so and runs on
        # the CPU; cuda is an error that writes nothing; cpu never looks.
        files = self.shards(2, [*PARAMS, *VALIDATION, "--backend", "cpu"])
        has_gpu = "sweeps run on the CPU" not in self.run_btforge("devices").stdout
        done = self.run_btforge("merge", *files, "--pbo-backend", "cpu", "-o", "cpu")
        self.assertNotIn("CSCV", done.stderr)
        done = self.run_btforge("merge", *files, "-o", "auto", "-j", "1")
        self.assertEqual(self.read("cpu.validation.json"), self.read("auto.validation.json"))
        if not has_gpu:
            self.assertIn("btforge merge: no usable GPU for the CSCV (", done.stderr)
            self.assertIn("); it runs on 1 thread\n", done.stderr)
            done = self.run_btforge("merge", *files, "--pbo-backend", "cuda", "-o", "cuda", expect=1)
            self.assertIn("--pbo-backend cuda cannot run: ", done.stderr)
            self.assertEqual([f for f in os.listdir(self.dir) if f.startswith("cuda")], [])
        done = self.run_btforge("merge", *files, "--pbo-backend", "gpu", "-o", "x", expect=2)
        self.assertIn("--pbo-backend must be auto, cpu or cuda, got 'gpu'", done.stderr)
        # Without --pbo nothing is looked for.
        files = self.shards(2, [*PARAMS, "--periods", "4", "--backend", "cpu"], prefix="p")
        done = self.run_btforge("merge", *files, "--pbo-backend", "cuda", "-o", "p")
        self.assertNotIn("CSCV", done.stderr)

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


SMALL = ["--synthetic-bars", "1000", "--param", "ema_fast=8,12,20", "--param", "sl_atr=1.5,2", "--periods", "2",
         "--top", "2", "--backend", "cpu", "--threads", "1"]


def limit_memory():
    # A merge that believes a forged count must fail fast, not take the machine.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


class ShardFileTest(unittest.TestCase):
    """Two shards of a 6-combination sweep (3 each, 2 rows kept, 2 periods), edited."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="btforge-shard-file-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        for i in range(2):
            self.run_btforge("sweep", *SMALL, "--shard", f"{i}/2", "-o", f"s{i}")

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_btforge(self, *args, expect=0):
        done = subprocess.run([BTFORGE, *args], cwd=self.dir, capture_output=True, timeout=120,
                              preexec_fn=limit_memory)
        out, err = done.stdout.decode(errors="backslashreplace"), done.stderr.decode(errors="backslashreplace")
        self.assertEqual(done.returncode, expect, err + out)
        # No library text, no raw control character or binary byte.
        for text in ("json.exception", "internal error", "CombinationSpace", "vector", "basic_string",
                     "out of memory", "\x1b"):
            self.assertNotIn(text, err + out)
        self.assertFalse(any(b < 0x20 and b not in b"\n\t" or b == 0x7f or b >= 0x80 for b in done.stderr),
                         done.stderr)
        return out, err

    def merge_refused(self, *names, says=()):
        _, err = self.run_btforge("merge", *names, "-o", "m", expect=1)
        for text in says:
            self.assertIn(text, err)
        self.assertFalse(os.path.exists(self.path("m.csv")))
        return err

    def edited(self, name, edit, out=None):
        shard = Shard.read(self.path(name))
        edit(shard)
        shard.write(self.path(out or name))

    def test_intact_shards_merge(self):
        self.run_btforge("merge", "s0.shard", "s1.shard", "-o", "m")
        # ROW_SHARPE is where the Sharpe is: the merged CSV says so.
        with open(self.path("m.csv")) as f:
            rows = [line.split(",") for line in f.read().splitlines()]
        column = rows[0].index("sharpe")
        sharpe = {int(row[1]): float(row[column]) for row in rows[1:]}
        shard = Shard.read(self.path("s0.shard"))
        for k in range(shard.row_count()):
            self.assertAlmostEqual(shard.sharpe(k), sharpe[shard.row_id(k)], places=9)

    def test_an_edited_row_is_refused_by_its_checksum(self):
        for what, edit in (("one flipped bit in a sharpe", lambda s: s.flip_bit("rows", 96)),
                           ("a sharpe set to 99", lambda s: s.set_sharpe(0, 99.0)),
                           ("a flipped bit in a period's statistics", lambda s: s.flip_bit("periods", 5, 3))):
            with self.subTest(what):
                def keep_digests(shard, edit=edit):
                    edit(shard)
                    shard.keep_digests = True
                self.edited("s0.shard", keep_digests, "bad.shard")
                section = "periods" if "period" in what else "rows"
                self.merge_refused("bad.shard", "s1.shard",
                                   says=("bad.shard: shard-checksum: its " + section + " section does not match "
                                         "its SHA-256",))
        # The header has its own.
        self.edited("s0.shard", lambda s: (s.header["summary"].update(invalid_rows=1),
                                           setattr(s, "keep_digests", True)), "bad.shard")
        self.merge_refused("bad.shard", "s1.shard", says=("bad.shard: shard-checksum: its header section",))

    def test_rows_are_their_shards_own_combinations_once(self):
        # Checksums made to match: what merge derives still refuses.
        first = Shard.read(self.path("s0.shard")).row_id(0)
        self.edited("s0.shard", lambda s: s.set_row_id(1, first), "twice.shard")
        self.merge_refused("twice.shard", "s1.shard",
                           says=(f"twice.shard: rows section: combination id {first} has more than one row",))
        # Note [Distinct outcomes]: the two top rows' combinations made one
        # outcome, a third combination another, so the count still holds.
        def one_outcome(s):
            ordinals = [s.row_id(k) - s.header["shard"]["first_ordinal"] for k in range(2)]
            other = ({0, 1, 2} - set(ordinals)).pop()
            key = s.outcomes[16 * ordinals[0]:16 * ordinals[0] + 16]
            s.outcomes[16 * ordinals[1]:16 * ordinals[1] + 16] = key
            s.outcomes[16 * other:16 * other + 16] = bytes(16)
        self.edited("s0.shard", one_outcome, "same.shard")
        self.merge_refused("same.shard", "s1.shard",
                           says=("same.shard: rows section: two of its top rows have one outcome",))
        # Shard 1 holds ordinals 3..6: id 4 is another shard's, 1000 no one's.
        for id in (4, 1000, 2**64 - 1):
            with self.subTest(id=id):
                self.edited("s0.shard", lambda s: s.set_row_id(0, id), "foreign.shard")
                self.merge_refused("foreign.shard", "s1.shard",
                                   says=(f"foreign.shard: rows section: row 0 has combination id {id}, which is not "
                                         "one of the shard's combinations (ordinals 0..3",))

    def test_counts_follow_from_the_options_and_the_shard(self):
        sizes = Shard.read(self.path("s0.shard"))
        # Period statistics cut by one combination's, the count edited to match.
        self.edited("s0.shard", lambda s: s.periods.__delitem__(slice(-2 * s.period_bytes, None)), "cut.shard")
        self.merge_refused("cut.shard", "s1.shard",
                           says=("cut.shard: inconsistent-shard: its periods section holds 4 period statistics "
                                 f"({4 * sizes.period_bytes} bytes); its shard 0/2 has 3 combinations, each of 2 periods "
                                 "(--periods): 6",))
        # A row less than --top 2 keeps of its 3 combinations' 3 distinct
        # outcomes (Note [Distinct outcomes]), and a row more.
        self.edited("s0.shard", lambda s: s.rows.__delitem__(slice(-s.row_bytes, None)), "short.shard")
        self.merge_refused("short.shard", "s1.shard",
                           says=("short.shard: inconsistent-shard: its rows section holds 1 rows; its 3 distinct "
                                 "outcomes of which --top 2 keeps 2",))
        self.edited("s0.shard", lambda s: s.rows.extend(s.rows[:s.row_bytes]), "long.shard")
        self.merge_refused("long.shard", "s1.shard",
                           says=("long.shard: inconsistent-shard: its rows section holds 3 rows "
                                 f"({3 * sizes.row_bytes} bytes); its shard 0/2 has 3 combinations, of which --top 2 "
                                 "keeps at most 2",))
        # Outcome keys cut by one combination's.
        self.edited("s0.shard", lambda s: s.outcomes.__delitem__(slice(-16, None)), "keys.shard")
        self.merge_refused("keys.shard", "s1.shard",
                           says=("keys.shard: inconsistent-shard: its outcomes section holds 2 outcome keys (32 "
                                 "bytes); its shard 0/2 has 3 combinations, each an outcome key",))
        # Every combination one outcome: --top 2 keeps one row, not two.
        self.edited("s0.shard", lambda s: s.outcomes.__setitem__(slice(None), s.outcomes[:16] * 3), "one.shard")
        self.merge_refused("one.shard", "s1.shard",
                           says=("one.shard: inconsistent-shard: its rows section holds 2 rows; its 1 distinct "
                                 "outcomes of which --top 2 keeps 1",))

    def test_equity_marks_are_checked(self):
        # Note [Equity marks]: a --spa shard carries --returns marks per
        # combination; cut, edited or promised otherwise by its identity, it
        # is refused.
        for i in range(2):
            self.run_btforge("sweep", *SMALL, "--spa", "50", "--returns", "10", "--shard", f"{i}/2", "-o", f"p{i}")
        self.assertEqual(len(Shard.read(self.path("p0.shard")).marks), 3 * 10 * 8)
        self.assertEqual(len(Shard.read(self.path("s0.shard")).marks), 0)  # none without --spa
        self.run_btforge("merge", "p0.shard", "p1.shard", "-o", "pm")
        self.edited("p0.shard", lambda s: s.marks.__delitem__(slice(-8, None)), "cut.shard")
        self.merge_refused("cut.shard", "p1.shard",
                           says=("cut.shard: inconsistent-shard: its marks section holds 29 equity marks (232 "
                                 "bytes); its shard 0/2 has 3 combinations, each of 10 equity marks (--spa, --returns)",))
        self.edited("p0.shard", lambda s: (s.flip_bit("marks", 9, 2), setattr(s, "keep_digests", True)), "bad.shard")
        self.merge_refused("bad.shard", "p1.shard",
                           says=("bad.shard: shard-checksum: its marks section does not match its SHA-256",))
        self.edited("p0.shard", lambda s: s.header["identity"].update(returns=5000), "many.shard")
        self.merge_refused("many.shard", "p1.shard",
                           says=("many.shard: bad-shard-header: its header's /identity/returns: expected -1 or "
                                 "1..1000 (the window's bars), got 5000",))
        self.edited("p0.shard", lambda s: s.header["identity"].update(spa="0"), "zero.shard")
        self.merge_refused("zero.shard", "p1.shard", says=("zero.shard: bad-shard-header: its header's /identity/spa",))
        # The buy-and-hold benchmark's marks are checked before they are used.
        for i in range(2):
            self.run_btforge("sweep", *SMALL, "--spa", "50", "--returns", "10", "--spa-benchmark", "hold",
                             "--shard", f"{i}/2", "-o", f"h{i}")
        self.assertEqual(len(Shard.read(self.path("h0.shard")).header["identity"]["benchmark_marks"]), 10)
        self.edited("h0.shard", lambda s: s.header["identity"]["benchmark_marks"].__setitem__(3, -1.0), "neg.shard")
        self.merge_refused("neg.shard", "h1.shard",
                           says=("neg.shard: bad-shard-header: its header's /identity/benchmark_marks/3: expected a "
                                 "finite positive number, got -1",))
        self.edited("h0.shard", lambda s: s.header["identity"]["benchmark_marks"].pop(), "short.shard")
        self.merge_refused("short.shard", "h1.shard",
                           says=("short.shard: bad-shard-header: its header's /identity/benchmark_marks: expected an "
                                 "array of 10 equity marks",))
        self.edited("p0.shard", lambda s: s.header["identity"].update(benchmark_marks=[1.0] * 10), "stray.shard")
        self.merge_refused("stray.shard", "p1.shard",
                           says=("stray.shard: bad-shard-header: its header's /identity/benchmark_marks: expected none "
                                 "without \"spa_benchmark\"",))
        # Daily marks: the days are checked against the window, and M beside them is refused.
        for i in range(2):
            self.run_btforge("sweep", *SMALL, "--returns", "daily", "--shard", f"{i}/2", "-o", f"d{i}")
        days = Shard.read(self.path("d0.shard")).header["identity"]["return_days"]
        self.assertEqual(len(Shard.read(self.path("d0.shard")).marks), 3 * days * 8)
        self.run_btforge("merge", "d0.shard", "d1.shard", "-o", "dm")
        self.edited("d0.shard", lambda s: s.header["identity"].update(return_days=5000), "days.shard")
        self.merge_refused("days.shard", "d1.shard",
                           says=("days.shard: bad-shard-header: its header's /identity/return_days: expected",))
        self.edited("d0.shard", lambda s: s.header["identity"].update(returns=10), "both.shard")
        self.merge_refused("both.shard", "d1.shard",
                           says=("both.shard: bad-shard-header: its header's /identity/returns: expected -1 beside "
                                 "\"return_days\", got 10",))
        self.edited("d0.shard", lambda s: s.header["identity"].update(return_days=days - 1), "fewer.shard")
        self.merge_refused("fewer.shard", "d1.shard",
                           says=("fewer.shard: inconsistent-shard: its marks section holds",))
        # --returns alone keeps marks too: an identity that says so over a
        # shard without them is refused.
        self.edited("s0.shard", lambda s: s.header["identity"].update(returns=10), "alone.shard")
        self.merge_refused("alone.shard", "s1.shard",
                           says=("alone.shard: inconsistent-shard: its marks section holds 0 equity marks (0 bytes); "
                                 "its shard 0/2 has 3 combinations, each of 10 equity marks (--spa, --returns)",))

    def test_a_forged_count_costs_nothing(self):
        # A section that says 2^64-1 bytes; a run of 2^64-1 shards. Under a
        # 2 GiB address-space limit, refused at once.
        def forged_length(shard):
            shard.lengths["periods"] = (2**64 - 1) if shard.version > 1 else 2**60 * shard.period_bytes
            if shard.version == 1:
                shard.periods = bytearray()  # 9b5b75c: 2^60 statistics of 112 bytes "fit" the body modulo 2^64
        self.edited("s0.shard", forged_length, "long.shard")
        self.merge_refused("long.shard", "s1.shard", says=("long.shard: truncated-shard: its periods section says",))
        for i in range(2):
            self.edited(f"s{i}.shard", lambda s: s.header["shard"].update(count=2**64 - 1), f"many{i}.shard")
        self.merge_refused("many0.shard", "many1.shard",
                           says=("many0.shard: bad-shard-header: its header's /shard/count: expected a whole number "
                                 "in 0..100000, got 18446744073709551615",))

    def test_the_header_goes_through_the_checked_json_reader(self):
        def deep(shard):
            text = json.dumps(shard.header)
            shard.header_text = text.replace('"identity": {', '"identity": {"x": ' + "[" * 100000 + "]" * 100000 +
                                             ", ", 1).encode()
        self.edited("s0.shard", deep, "deep.shard")
        self.merge_refused("deep.shard", "s1.shard",
                           says=("deep.shard: too-deep: its header (line 1, column", "nested at most 64 levels"))
        self.edited("s0.shard", lambda s: setattr(s, "header_text", json.dumps(s.header).encode()[:-1] +
                                                  b', "identity": {}}'), "twice.shard")
        self.merge_refused("twice.shard", "s1.shard", says=("twice.shard: duplicate-key: its header's /identity",))
        self.edited("s0.shard", lambda s: setattr(s, "header_text", b'{"format": "\xff\xfe\x1b[31m"}'), "bin.shard")
        self.merge_refused("bin.shard", "s1.shard", says=("bin.shard: bad-json: its header",))

    def test_every_header_field_read_is_checked(self):
        def drop(key):
            return lambda h: h.pop(key)
        def put(path, value):
            def edit(h):
                for key in path[:-1]:
                    h = h[key]
                h[path[-1]] = value
            return edit
        cases = [
            (put(["identity", "top"], "x"), "its header's /identity/top: expected a whole number in 1..", '"x"'),
            (drop("summary"), "its header's /: expected a member \"summary\"", "none"),
            (drop("spans"), "its header's /: expected a member \"spans\"", "none"),
            (put(["spans"], 5), "its header's /spans: expected an array", "5"),
            (put(["spans"], [["a"], ["b", "c"]]), "its header's /spans/0: expected [first bar time, last bar time]",
             "an array"),
            (put(["identity", "account", "taker_fee"], -1), "its header's /identity/account/taker_fee: expected", "-1"),
            (put(["identity", "account", "margin_mode"], "both"), "/identity/account/margin_mode", '"both"'),
            (put(["identity", "periods"], 17), "its header's /identity/periods: expected a whole number in 0..16", "17"),
            (put(["identity", "window"], {"first_bar": -1, "bars": 1000}), "/identity/window/first_bar", "-1"),
            (put(["identity", "combinations"], 2**64 - 1), "/identity/combinations", "18446744073709551615"),
            (put(["identity", "spec_sha256"], 12), "/identity/spec_sha256: expected a string", "12"),
            (put(["inputs", "param"], [1]), "its header's /inputs/param/0: expected a string", "1"),
            (put(["summary", "seconds"], "soon"), "its header's /summary/seconds: expected a number", '"soon"'),
            (put(["summary", "invalid_rows"], 4), "/summary/invalid_rows: expected a whole number in 0..3", "4"),
            (put(["bars_per_year"], 0), "its header's /bars_per_year: expected a positive number", "0"),
            (put(["row_bytes"], 8), "shard-layout: written by a build whose rows", "8"),
            (put(["identity", "rank_by"], "luck"), "its identity's options are not a sweep's", "unknown metric 'luck'"),
            (put(["shard", "index"], 7), "inconsistent-shard: its header names shard 7/2", "index < count"),
            (put(["shard", "end_ordinal"], 4), "inconsistent-shard: its header says shard 0/2 holds combinations 0..4",
             "it holds 0..3"),
        ]
        for edit, says, got in cases:
            with self.subTest(says):
                # Both shards, so their identities stay equal and the field is read.
                for i in range(2):
                    self.edited(f"s{i}.shard", lambda s: edit(s.header), f"e{i}.shard")
                err = self.merge_refused("e0.shard", "e1.shard", says=("e0.shard: ", says))
                self.assertIn(got, err)

    def test_no_byte_of_a_bad_header_is_echoed(self):
        # A key and a value with ESC, in one shard and in both.
        self.edited("s0.shard", lambda s: s.header["identity"].update({"\x1b[31mevil": 1}), "key.shard")
        self.merge_refused("key.shard", "s1.shard", says=("\\x1b[31mevil",))
        for i in range(2):
            self.edited(f"s{i}.shard", lambda s: s.header["summary"].update(backend="cpu\x1b[2J\u0085"), f"e{i}.shard")
        self.merge_refused("e0.shard", "e1.shard",
                           says=("e0.shard: bad-shard-header: its header's /summary/backend: expected text without "
                                 "control characters",))

    def test_the_fuzz_seeds_are_of_this_format(self):
        # fuzz/shard_fuzz.cpp mutates inside the seeds' framing: a seed of an
        # older format stops at the version, and so does every input made
        # from it. Each seed must read; alone, it is a shard of a run whose
        # other shards are missing.
        seeds = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz", "corpus", "shard")
        names = sorted(n for n in os.listdir(seeds) if n.endswith(".shard"))
        self.assertEqual(len(names), 6)
        for name in names:
            with self.subTest(seed=name):
                shutil.copy(os.path.join(seeds, name), self.path(name))
                err = self.merge_refused(name)
                self.assertRegex(err, r"the run has \d+ shards; \d+ missing")

    def test_an_older_format_is_named(self):
        self.edited("s0.shard", lambda s: setattr(s, "version", 1), "old.shard")
        self.merge_refused("old.shard", "s1.shard",
                           says=("old.shard: shard-version: shard format version 1, this btforge reads version 8 "
                                 "(an older btforge wrote it",))

    def test_a_grid_edited_since_the_shards_ran_is_refused(self):
        grid = {"strategy": "default", "parameters": {"ema_fast": {"values": [8, 12, 20]},
                                                      "sl_atr": {"values": [1.5, 2]}}}
        with open(self.path("grid.json"), "w") as f:
            json.dump(grid, f)
        options = ["--synthetic-bars", "1000", "--grid", "grid.json", "--backend", "cpu", "--threads", "1"]
        for i in range(2):
            self.run_btforge("sweep", *options, "--shard", f"{i}/2", "-o", f"g{i}")
        grid["parameters"]["ema_fast"]["values"] = [9, 13, 21]  # as many combinations, other values
        with open(self.path("grid.json"), "w") as f:
            json.dump(grid, f)
        self.merge_refused("g0.shard", "g1.shard",
                           says=("grid.json is not the one the shards ran", "grid_sha256"))
        grid["parameters"]["ema_fast"]["values"] = [8, 12, 20]
        with open(self.path("grid.json"), "w") as f:
            json.dump(grid, f)
        self.run_btforge("merge", "g0.shard", "g1.shard", "-o", "m")

    def test_the_number_of_shards_is_bounded(self):
        _, err = self.run_btforge("sweep", *SMALL, "--shard", "0/1000000000", "-o", "x", expect=2)
        self.assertIn("--shard: expected at most 100000 shards, got 0/1000000000", err)
        self.assertFalse(os.path.exists(self.path("x.shard")))
        self.run_btforge("sweep", *SMALL, "--shard", "0/100000", "-o", "x")
        err = self.merge_refused("x.shard", says=("the run has 100000 shards; 99999 missing: 1/100000, 2/100000, "
                                                  "3/100000, 4/100000, 5/100000, ...",))
        self.assertLess(len(err), 400)


if __name__ == "__main__":
    BTFORGE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
