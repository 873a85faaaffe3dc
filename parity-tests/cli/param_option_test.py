#!/usr/bin/env python3
"""Grid axes on the command line: --param (Note [Grid axes on the command line]), run by CTest.

Usage: param_option_test.py PATH/TO/btforge [unittest options]

--param gives the same combinations as the equivalent grid file, replaces an
axis of --grid, works for sweep and replay --combination (and the printed
replay command), and a bad option fails with one error naming it: exit 2 for
text that forms no grid value, exit 1 for a value the grid file would refuse
too. Python 3 standard library only.
"""

import json
import os
import re
import shlex

import cli_end_to_end as e2e

# e2e.SMA_GRID written as options.
SMA_PARAMS = [
    "--param", "fast_period=5:15:5",
    "--param", "slow_period=40,100",
    "--param", "stop_pct=log:0.01:0.1:3",
    "--param", "position_fraction=0.25,0.5",
    "--param", "allow_short=false,true",
]


class ParamOption(e2e.CliTestCase):
    def sweep_rows(self, output, *args):
        self.btforge("sweep", "--strategy", "sma_cross", "--all-rows", "-o", output, *e2e.MARKET, *args)
        with open(output + ".csv", "rb") as f:
            return f.read()

    def test_options_give_the_combinations_of_the_equivalent_grid_file(self):
        by_file = self.sweep_rows(self.path("file"), "--grid", self.write_grid("sma_cross"))
        by_options = self.sweep_rows(self.path("options"), *SMA_PARAMS)
        self.assertEqual(by_options, by_file)
        self.assertEqual(len(by_file.splitlines()), 1 + 72)
        with open(self.path("options.json")) as f:
            self.assertEqual(json.load(f)["grid"], " ".join(SMA_PARAMS))
        # Bools as 0/1 are the same values.
        bools = [a.replace("allow_short=false,true", "allow_short=0,1") for a in SMA_PARAMS]
        self.assertEqual(self.sweep_rows(self.path("bools"), *bools), by_file)

    def test_option_replaces_the_axis_of_the_grid_file(self):
        grid = self.write_grid("sma_cross")
        replaced = self.sweep_rows(self.path("replaced"), "--grid", grid, "--param", "slow_period=60",
                                   "--param", "stop_pct=0.02")
        narrowed = dict(e2e.SMA_GRID, parameters=dict(e2e.SMA_GRID["parameters"], slow_period=60, stop_pct=0.02))
        by_file = self.sweep_rows(self.path("file"), "--grid", self.write_json("narrowed.json", narrowed))
        self.assertEqual(replaced, by_file)
        _, rows, _ = e2e.read_csv(self.path("replaced.csv"))
        self.assertEqual(len(rows), 3 * 2 * 2)
        self.assertEqual({r["slow_period"] for r in rows}, {"60"})
        with open(self.path("replaced.json")) as f:
            self.assertEqual(json.load(f)["grid"],
                             grid + " with --param slow_period=60 --param stop_pct=0.02")

    def test_without_grid_the_other_parameters_keep_their_defaults(self):
        self.sweep_rows(self.path("alone"), "--param", "fast_period=5,10")
        _, rows, _ = e2e.read_csv(self.path("alone.csv"))
        self.assertEqual(sorted(r["fast_period"] for r in rows), ["10", "5"])
        self.assertEqual({r["slow_period"] for r in rows}, {"40"})  # the spec's default, not the quickstart grid's

    def test_replay_combination_uses_the_same_grid(self):
        for strategy, params in (("sma_cross", SMA_PARAMS),
                                 ("default", ["--param", "ema_fast=8,20", "--param", "sl_atr=1.5:3:1.5",
                                              "--param", "mode=0,1", "--param", "tp_atr=log:2:6:3"])):
            with self.subTest(strategy=strategy):
                self.btforge("sweep", "--strategy", strategy, "--all-rows", "-o", "res", *e2e.MARKET, *params)
                _, rows, _ = e2e.read_csv(self.path("res.csv"))
                for row in (rows[0], rows[len(rows) // 2], rows[-1]):
                    p = self.btforge("replay", "--strategy", strategy, "-c", row["combination_id"], *e2e.MARKET,
                                     *params)
                    self.assertEqual(dict(e2e.parse_metrics(p.stdout)), {k: row[k] for k in e2e.METRICS})

    def test_the_printed_replay_command_carries_the_options(self):
        params = ["--param", "fast_period=5:15:5", "--param", "stop_pct=0.01, 0.05"]  # a blank: quoted
        p = self.btforge("sweep", "--strategy", "sma_cross", "-o", "res", *e2e.MARKET, *params)
        # Note [Replaying a row from its results]: the result JSON carries the
        # --param options, blanks and all.
        line = re.search(r"^replay the best: (.*)$", p.stdout, re.M)
        self.assertIsNotNone(line, p.stdout)
        words = shlex.split(line.group(1))
        replay = self.btforge(*words[1:])
        _, rows, _ = e2e.read_csv(self.path("res.csv"))
        self.assertEqual(dict(e2e.parse_metrics(replay.stdout)), {k: rows[0][k] for k in e2e.METRICS})

    def test_syntax_errors_are_usage_errors(self):
        cases = [
            ("fast_period", "--param fast_period: expected NAME=V, NAME=A,B,C, NAME=START:STOP:STEP or "
                            "NAME=log:START:STOP:NUM"),
            ("fast_period=5:30", "--param fast_period=5:30: expected START:STOP:STEP, got \"5:30\""),
            ("fast_period=5:x:5", "--param fast_period=5:x:5: expected a number, true or false, got \"x\""),
            ("fast_period=1,,2", "--param fast_period=1,,2: expected values A,B,C, got \"1,,2\""),
            ("stop_pct=log:0.01:0.1", "--param stop_pct=log:0.01:0.1: expected log:START:STOP:NUM"),
        ]
        for option, message in cases:
            for command in (["sweep", "-o", "res"], ["replay", "-c", "0"]):
                with self.subTest(option=option, command=command[0]):
                    p = self.btforge(*command, "--strategy", "sma_cross", "--param", option, *e2e.MARKET, expect=2)
                    self.assertEqual(p.stderr.count(message), 1, p.stderr)
                    self.assertIn("(see btforge %s --help)" % command[0], p.stderr)
                    self.assertEqual(os.listdir(self.dir), [])

    def test_values_the_grid_file_would_refuse_are_bad_input(self):
        cases = [
            (["fast_period=5:30:0"], "--param fast_period=5:30:0: /range/step: expected a positive number, got 0"),
            (["fast_period=1"], "--param fast_period=1: expected a value within [2, 500] (the bounds of "
                                "fast_period), got 1"),
            (["fast_period=5.5"], "--param fast_period=5.5: expected an integer (fast_period is an int), got 5.5"),
            (["fast_period=5,6,5"], "--param fast_period=5,6,5: /values/2: expected a value not listed before"),
            (["allow_short=0:1:1"], "--param allow_short=0:1:1: /range: expected \"values\" or a single value"),
            (["stop_pct=log:0.1:0.01:3"], "--param stop_pct=log:0.1:0.01:3: /log_range/stop: expected a number > "
                                          "start (0.1), got 0.01"),
            (["fast_perod=5"], "--param fast_perod=5: expected a parameter of strategy sma_cross ("),
            (["fast_period=5", "fast_period=6"], "--param fast_period=6: expected one --param per parameter, got "
                                                 "fast_period again"),
        ]
        for options, message in cases:
            args = [a for o in options for a in ("--param", o)]
            for command in (["sweep", "-o", "res"], ["replay", "-c", "0"]):
                with self.subTest(options=options, command=command[0]):
                    p = self.btforge(*command, "--strategy", "sma_cross", *args, *e2e.MARKET, expect=1)
                    self.assertEqual(p.stderr.count(message), 1, p.stderr)
                    self.assertEqual(os.listdir(self.dir), [])

    def test_random_count_is_checked_against_the_narrowed_space(self):
        grid = self.write_json("random.json", dict(e2e.SMA_GRID, random={"count": 20, "seed": 3}))
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", grid, "--param", "fast_period=5",
                         "--param", "slow_period=40", "-o", "res", *e2e.MARKET, expect=1)
        self.assertIn("random.json: /random/count: expected at most 12 (the size of the grid's combination space), "
                      "got 20", p.stderr)

    def test_param_and_set_do_not_mix(self):
        p = self.btforge("replay", "--strategy", "sma_cross", "--set", "fast_period=5", "--param", "slow_period=50",
                         *e2e.MARKET, expect=2)
        self.assertIn("--param gives the grid of --combination", p.stderr)

    def test_help_describes_the_forms(self):
        for command in ("sweep", "replay"):
            p = self.btforge(command, "--help")
            self.assertIn("--param NAME=VALUES", p.stdout)
            self.assertIn("NAME=log:START:STOP:NUM", p.stdout)


if __name__ == "__main__":
    e2e.main()
