#!/usr/bin/env python3
"""Account settings on the command line and in a grid file (Note [Account settings]), run by CTest.

Usage: account_settings_test.py PATH/TO/btforge [unittest options]

Precedence command line > grid > spec, the same result in a sweep and in the
replay of its rows, the values in the result JSON, and one clear error per bad
value. Python 3 standard library only.
"""

import json
import os
import re
import shlex

import cli_end_to_end as e2e

SPEC_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "spec")
KEYS = ["initial_equity", "maker_fee", "taker_fee", "slippage", "margin_mode"]


def spec_account(strategy):
    """The spec's account block, with the margin mode a spec that names none has (cross)."""
    name = strategy + ".json"
    with open(os.path.join(SPEC_DIR, name)) as f:
        return dict({"margin_mode": "cross"}, **json.load(f)["account"])


def printed_account(stdout):
    m = re.search(r"^ *account: +(.*)$", stdout, re.M)
    if not m:
        raise AssertionError("no 'account:' line in the output:\n" + stdout)
    return {k: v if k == "margin_mode" else float(v) for k, v in (item.split("=", 1) for item in m.group(1).split())}


class AccountSettings(e2e.CliTestCase):
    def grid_with_account(self, strategy, account):
        grid = dict(e2e.GRIDS[strategy][0])
        grid["account"] = account
        return self.write_json("grid_account.json", grid)

    def result_json(self, output):
        with open(output + ".json") as f:
            return json.load(f)

    def test_precedence_command_line_over_grid_over_spec(self):
        strategy = "sma_cross"
        spec = spec_account(strategy)
        plain = self.write_grid(strategy)
        overridden = self.grid_with_account(strategy, {"taker_fee": 0.001, "initial_equity": 5000})
        self.sweep(strategy, plain, self.path("spec"))
        self.sweep(strategy, overridden, self.path("grid"))
        self.sweep(strategy, overridden, self.path("cli"), "--taker-fee", "0.002", "--slippage", "0")
        self.assertEqual(self.result_json(self.path("spec"))["account"], spec)
        self.assertEqual(self.result_json(self.path("grid"))["account"],
                         dict(spec, taker_fee=0.001, initial_equity=5000))
        self.assertEqual(self.result_json(self.path("cli"))["account"],
                         dict(spec, taker_fee=0.002, initial_equity=5000, slippage=0))
        self.assertEqual(list(self.result_json(self.path("cli"))["account"]), KEYS)

        # The values are used, not only reported: a dearer taker pays more fees on the same first trade.
        rows = {name: {r["combination_id"]: r for r in e2e.read_csv(self.path(name) + ".csv")[1]}
                for name in ("spec", "grid", "cli")}
        traded = [cid for cid, r in rows["spec"].items() if int(r["n_trades"]) > 0]
        self.assertTrue(traded)
        for cid in traded:
            self.assertNotEqual(rows["spec"][cid]["fees_paid"], rows["grid"][cid]["fees_paid"])
            self.assertNotEqual(rows["grid"][cid]["fees_paid"], rows["cli"][cid]["fees_paid"])

    def test_replay_of_a_sweep_row_uses_the_same_account(self):
        for strategy in ("default", "sma_cross"):
            with self.subTest(strategy=strategy):
                grid = self.grid_with_account(strategy, {"maker_fee": 0.0004, "slippage": 0.0005})
                extra = ["--initial-equity", "25000"]
                _, rows = self.sweep(strategy, grid, self.path("res"), *extra)
                busiest = max(rows, key=lambda r: int(r["n_trades"]))
                for row in (rows[0], busiest):
                    p = self.btforge("replay", "--strategy", strategy, "--grid", grid, "-c", row["combination_id"],
                                     *e2e.MARKET, *extra)
                    self.assertEqual(dict(e2e.parse_metrics(p.stdout)), {k: row[k] for k in e2e.METRICS})
                    self.assertEqual(printed_account(p.stdout),
                                     dict(spec_account(strategy), maker_fee=0.0004, slippage=0.0005,
                                          initial_equity=25000))
                # Without the overrides the same combination gives another result.
                p = self.btforge("replay", "--strategy", strategy, "--grid", self.write_grid(strategy), "-c",
                                 busiest["combination_id"], *e2e.MARKET)
                self.assertNotEqual(dict(e2e.parse_metrics(p.stdout))["final_equity"], busiest["final_equity"])

    def test_the_printed_replay_command_carries_the_options(self):
        grid = self.write_grid("sma_cross")
        p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", grid, "-o", "res", *e2e.MARKET,
                         "--initial-equity", "1234.5", "--maker-fee", "0")
        # Note [Replaying a row from its results]: the command is complete; the
        # result JSON carries the options.
        line = re.search(r"^replay the best: (.*)$", p.stdout, re.M)
        self.assertIsNotNone(line, p.stdout)
        words = shlex.split(line.group(1))
        self.assertEqual(words[:4], ["btforge", "replay", "--from-results", "res.json"])
        replay = self.btforge(*words[1:])
        self.assertIn("initial_equity=1234.5 maker_fee=0 ", replay.stdout)
        _, rows, _ = e2e.read_csv(self.path("res.csv"))
        self.assertEqual(dict(e2e.parse_metrics(replay.stdout)), {k: rows[0][k] for k in e2e.METRICS})

    def test_margin_mode_command_line_over_grid_over_spec(self):
        """Note [Cross and isolated margin]: the mode is an account setting like the others, and it is used."""
        strategy = "sma_cross"
        isolated = self.grid_with_account(strategy, {"margin_mode": "isolated"})
        # Leveraged entries, so the mode matters: 5x notional, isolated on 1x of equity each.
        leverage = ["--param", "position_fraction=5", "--param", "stop_pct=0.5"]
        self.sweep(strategy, self.write_grid(strategy), self.path("cross"), *leverage)
        self.sweep(strategy, isolated, self.path("isolated"), *leverage)
        self.sweep(strategy, isolated, self.path("back"), *leverage, "--margin-mode", "cross")
        self.assertEqual(self.result_json(self.path("cross"))["account"]["margin_mode"], "cross")
        self.assertEqual(self.result_json(self.path("isolated"))["account"]["margin_mode"], "isolated")
        self.assertEqual(self.result_json(self.path("back"))["account"]["margin_mode"], "cross")
        with open(self.path("cross.csv")) as a, open(self.path("back.csv")) as b:
            self.assertEqual(a.read(), b.read())
        with open(self.path("cross.csv")) as a, open(self.path("isolated.csv")) as b:
            self.assertNotEqual(a.read(), b.read())
        # The printed replay command carries the option, and reproduces the row.
        p = self.btforge("sweep", "--strategy", strategy, "--grid", isolated, "-o", "res", *e2e.MARKET, *leverage,
                         "--margin-mode", "isolated")
        line = re.search(r"^replay the best: (.*)$", p.stdout, re.M)
        replay = self.btforge(*shlex.split(line.group(1))[1:])
        self.assertEqual(printed_account(replay.stdout)["margin_mode"], "isolated")
        _, rows, _ = e2e.read_csv(self.path("res.csv"))
        self.assertEqual(dict(e2e.parse_metrics(replay.stdout)), {k: rows[0][k] for k in e2e.METRICS})
        p = self.btforge("sweep", "--strategy", strategy, "-o", "bad", *e2e.MARKET, "--margin-mode", "portfolio",
                         expect=2)
        self.assertIn("--margin-mode must be cross or isolated, got 'portfolio'", p.stderr)

    def test_replay_by_set_takes_the_account_of_grid(self):
        grid = self.grid_with_account("sma_cross", {"initial_equity": 777})
        p = self.btforge("replay", "--strategy", "sma_cross", "--set", "fast_period=5", *e2e.MARKET)
        self.assertEqual(printed_account(p.stdout)["initial_equity"], 10000)
        p = self.btforge("replay", "--strategy", "sma_cross", "--grid", grid, "--set", "fast_period=5", *e2e.MARKET)
        self.assertEqual(printed_account(p.stdout)["initial_equity"], 777)
        p = self.btforge("replay", "--strategy", "sma_cross", "--grid", grid, "--set", "fast_period=5", *e2e.MARKET,
                         "--initial-equity", "888")
        self.assertEqual(printed_account(p.stdout)["initial_equity"], 888)

    def test_bench_takes_the_options(self):
        p = self.btforge("bench", "--strategy", "sma_cross", "--bars", "300", "--symbols", "2",
                         "--max-combinations", "4", "--skip-single-thread", "--threads", "1",
                         "--taker-fee", "0.0011")
        self.assertEqual(printed_account(p.stdout),
                         dict(spec_account("sma_cross"), taker_fee=0.0011))

    def test_bench_no_funding_times_a_funding_free_market(self):
        # Note [Markets without funding]: the synthetic market's rates become 0, and bench says so.
        args = ("bench", "--strategy", "sma_cross", "--bars", "300", "--symbols", "1", "--max-combinations", "4",
                "--skip-single-thread", "--threads", "1")
        self.assertIn("funding: none (Note [Markets without funding])", self.btforge(*args, "--no-funding").stdout)
        self.assertNotIn("funding: none", self.btforge(*args).stdout)

    def test_bad_values_are_refused_with_one_clear_error(self):
        grid = self.write_grid("sma_cross")
        cases = [
            (["--taker-fee", "0.5"], 1, "--taker-fee: expected a fraction of notional in [0, 0.1), got 0.5"),
            (["--maker-fee", "-0.0001"], 1, "--maker-fee: expected a fraction of notional in [0, 0.1), got -1e-04"),
            (["--slippage", "0.1"], 1, "--slippage: expected a fraction of notional in [0, 0.1), got 0.1"),
            (["--initial-equity", "0"], 1, "--initial-equity: expected a positive number of at most 1e12, got 0"),
            (["--initial-equity", "nan"], 1, "--initial-equity: expected a positive number of at most 1e12, got nan"),
            (["--initial-equity", "inf"], 1, "--initial-equity: expected a positive number of at most 1e12, got inf"),
            (["--taker-fee", "0.1%"], 2, "--taker-fee"),
            (["--taker-fee", "0.001", "--taker-fee", "0.002"], 2, "taker-fee"),
        ]
        for args, code, message in cases:
            for command in (["sweep", "-o", "res"], ["replay", "-c", "0"]):
                with self.subTest(args=args, command=command[0]):
                    p = self.btforge(*command, "--strategy", "sma_cross", "--grid", grid, *e2e.MARKET, *args,
                                     expect=code)
                    self.assertEqual(p.stderr.count(message), 1, p.stderr)
                    self.assertEqual(os.listdir(self.dir), ["grid_sma_cross.json"])

    def test_bad_grid_account_blocks_name_the_json_pointer(self):
        cases = [
            ({"taker_fee": 0.2}, "/account/taker_fee: expected a fraction of notional in [0, 0.1), got 0.2"),
            ({"initial_equity": -5}, "/account/initial_equity: expected a positive number of at most 1e12, got -5"),
            ({"fee": 0.001}, "/account/fee: expected one of the keys initial_equity, maker_fee, taker_fee, "
                             "slippage, margin_mode, got unknown key \"fee\""),
            ({"margin_mode": "portfolio"}, "/account/margin_mode: expected \"cross\" or \"isolated\", got \"portfolio\""),
            ([0.001], "/account: expected an account object, got an array"),
        ]
        for account, message in cases:
            with self.subTest(account=account):
                grid = self.grid_with_account("sma_cross", account)
                p = self.btforge("sweep", "--strategy", "sma_cross", "--grid", grid, "-o", "res", *e2e.MARKET,
                                 expect=1)
                self.assertIn("grid_account.json: " + message, p.stderr)
                self.assertEqual(os.listdir(self.dir), ["grid_account.json"])

    def test_help_lists_the_options(self):
        for command in ("sweep", "replay", "bench"):
            with self.subTest(command=command):
                p = self.btforge(command, "--help")
                for option in ("--initial-equity", "--maker-fee", "--taker-fee", "--slippage", "--margin-mode"):
                    self.assertIn(option, p.stdout)


if __name__ == "__main__":
    e2e.main()
