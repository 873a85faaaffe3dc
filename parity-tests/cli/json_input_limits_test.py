#!/usr/bin/env python3
"""The JSON inputs (spec, grid, instruments) from the command line: no input
crashes, hangs or lies (issue 13). See Note [Checked JSON documents].

Usage: json_input_limits_test.py PATH/TO/btforge [unittest options]
"""

import json
import os
import subprocess

import cli_end_to_end as e2e

DEEP = 100000
BARS = ["--synthetic-bars", "200"]
TOO_DEEP = "expected arrays and objects nested at most 64 levels deep, got a deeper one here"


class JsonInputLimits(e2e.CliTestCase):
    def setUp(self):
        super().setUp()
        self.btforge("data", "synth", "-o", self.path("market.csv"), *BARS)
        with open(self.path("market.instruments.json")) as f:
            self.instruments = json.load(f)

    def write_text(self, name, text):
        with open(self.path(name), "w") as f:
            f.write(text)
        return self.path(name)

    def assert_refused(self, args, expected_stderr):
        """btforge exits 1 with exactly one error line, and writes no result."""
        before = sorted(os.listdir(self.dir))
        p = self.btforge(*args, "-o", self.path("out"), expect=1)
        errors = [line for line in p.stderr.splitlines() if "error:" in line]
        self.assertEqual(errors, ["btforge sweep: error: " + expected_stderr], p.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), before, "a refused sweep left a file behind")

    def sweep_with_instruments(self, name):
        return ["sweep", "--data", self.path("market.csv"), "--instruments", self.path(name)]

    def test_deep_instruments(self):
        # Before: a segmentation fault (exit 139).
        self.write_text("inst.json", '{"SYN1USDT": ' + "[" * DEEP + "]" * DEEP + "}")
        self.assert_refused(self.sweep_with_instruments("inst.json"),
                            self.path("inst.json") + ":1:" + str(14 + 63) + ": too-deep: " + TOO_DEEP)

    def test_deep_grid(self):
        # Before: the reader allocated about 10 GB and died of std::bad_alloc.
        grid = self.write_text("grid.json", '{"strategy": "sma_cross", "parameters": ' + '{"a": ' * DEEP + "1"
                               + "}" * DEEP + "}")
        self.assert_refused(["sweep", "--strategy", "sma_cross", "--grid", grid, *BARS],
                            grid + ":1:" + str(41 + 6 * 63) + ": " + TOO_DEEP)

    def test_deep_spec(self):
        spec = self.write_text("spec.json", '{"strategy": "sma_cross", "description": ' + "[" * DEEP)
        self.assert_refused(["sweep", "--spec", spec, *BARS], spec + ":1:" + str(42 + 63) + ": " + TOO_DEEP)

    def test_number_beyond_double_range_in_instruments(self):
        # Before: nlohmann's own exception text, naming no file.
        self.write_text("inst.json", '{"SYN1USDT": {"qty_step": -1e999}}')
        self.assert_refused(self.sweep_with_instruments("inst.json"),
                            self.path("inst.json") + ":1:27: number-out-of-range: expected a number of magnitude at "
                            "most 1.7976931348623157e308 (the double range), got -1e999")

    def test_instrument_sizes_out_of_range(self):
        # Before: accepted; 1e-320 turns every price / tick into infinity.
        for key, value in [("qty_step", 1e-320), ("min_qty", 1e-13), ("price_tick", 1e300)]:
            with self.subTest(key=key, value=value):
                doc = json.loads(json.dumps(self.instruments))
                doc["SYN2USDT"][key] = value
                self.write_json("inst.json", doc)
                self.assert_refused(self.sweep_with_instruments("inst.json"),
                                    "%s: out-of-range: /SYN2USDT/%s: expected a number in [1e-12, 1e9] (the "
                                    "accounting rounds to 1e-12, so a finer size is erased), got %s"
                                    % (self.path("inst.json"), key, json.dumps(value)))

    def test_initial_equity_beyond_1e12(self):
        spec_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec", "sma_cross.json")
        with open(spec_path) as f:
            spec = json.load(f)
        spec["account"]["initial_equity"] = 1e13
        self.write_json("spec.json", spec)
        self.assert_refused(["sweep", "--spec", self.path("spec.json"), *BARS],
                            self.path("spec.json") + ": /account/initial_equity: expected a positive number of at "
                            "most 1e12, got 10000000000000.0")

    def test_grid_of_2_20_values(self):
        # 2^20 distinct stop_pct values. Before: the repeat check compared
        # every pair; 200 000 values took 23 s and 2^20 more than 60 s on a
        # 2-core machine. Now about 0.5 s; 60 s leaves room for slow machines.
        n = 1 << 20
        values = [round(0.001 + i * (0.49 / n), 12) for i in range(n)]
        grid = self.write_json("grid.json", {"strategy": "sma_cross", "parameters": {"stop_pct": {"values": values}}})
        p = subprocess.run([e2e.BTFORGE, "replay", "--strategy", "sma_cross", "--grid", grid, "--combination",
                            str(n - 1), *BARS], cwd=self.dir, capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("stop_pct=%r" % values[-1], p.stdout)


    def test_spec_grid_and_instruments_that_are_no_documents(self):
        # Note [Reading input files] (issue 29, items 3 and 8): a directory, a
        # device, a missing file or one over 64 MiB is said as such, naming the
        # file, before a byte is read. Before: a directory given as --grid was
        # "invalid JSON ... unexpected end of input"; /dev/zero and a 3 GB
        # sparse file were read whole (here, in 1 GiB of address space, "out
        # of memory").
        sparse = self.path("sparse.json")
        with open(sparse, "wb") as f:
            f.truncate(3 << 30)
        folder = self.path("folder.json")
        os.mkdir(folder)
        missing = self.path("missing.json")
        too_large = "expected a JSON document of at most 64 MiB (67108864 bytes), got a larger file"
        reasons = [
            (folder, "not-a-regular-file", "is a directory, not a JSON file"),
            ("/dev/zero", "not-a-regular-file", "is a character device, not a JSON file"),
            (missing, "cannot-read", "no such file"),
            (sparse, "too-large", too_large),
        ]
        for file, rule, reason in reasons:
            for option, args, expected in [
                ("--grid", ["--strategy", "sma_cross", "--grid", file, *BARS], file + ": " + reason),
                ("--spec", ["--spec", file, *BARS], file + ": " + reason),
                ("--instruments", ["--data", self.path("market.csv"), "--instruments", file],
                 file + ": " + rule + ": " + reason),
            ]:
                with self.subTest(option=option, file=file):
                    p, peak = e2e.run_bounded(["sweep", *args, "-o", self.path("out")], self.dir)
                    errors = [line for line in p.stderr.splitlines() if "error:" in line]
                    self.assertEqual(errors, ["btforge sweep: error: " + expected], p.stderr)
                    self.assertEqual(p.returncode, 1)
                    self.assertLess(peak, 64 << 20)

    def test_grid_from_a_pipe(self):
        # A stream is read under the same limit: `--grid <(cat grid.json)`.
        grid = self.write_json("grid.json", {"strategy": "sma_cross", "parameters": {"stop_pct": {"values": [0.02]}}})
        with open(grid, "rb") as f:
            text = f.read()
        read_end, write_end = os.pipe()
        os.write(write_end, text)  # far below a pipe's buffer
        os.close(write_end)
        try:
            p = subprocess.run([e2e.BTFORGE, "replay", "--strategy", "sma_cross", "--grid", "/dev/fd/%d" % read_end,
                                "--combination", "0", *BARS], cwd=self.dir, capture_output=True, text=True,
                               timeout=60, pass_fds=[read_end])
        finally:
            os.close(read_end)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("stop_pct=0.02", p.stdout)

if __name__ == "__main__":
    e2e.main()
