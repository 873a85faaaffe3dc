#!/usr/bin/env python3
"""btforge parity's options (issue 14): --help lists exactly the backends
parity accepts, and a rejected backend's error names the accepted ones.

Usage: parity_options_test.py PATH/TO/btforge [unittest options]
"""
import os
import re

import cli_end_to_end as e2e


class ParityOptions(e2e.CliTestCase):
    def test_help_lists_only_the_backends_parity_takes(self):
        help_text = self.btforge("parity", "--help").stdout
        backend = help_text[help_text.index("--backend"):help_text.index("--device")]
        backend = re.sub(r"\s+", " ", backend)
        self.assertIn("emu|cuda: emu = the generated kernels compiled for the host; cuda = the generated kernels "
                      "on the GPU", backend)
        for rejected in ("cpu =", "auto ="):
            self.assertNotIn(rejected, backend)

    def test_sweep_help_still_lists_all_four(self):
        help_text = re.sub(r"\s+", " ", self.btforge("sweep", "--help").stdout)
        for name in ("cpu =", "emu =", "cuda =", "auto ="):
            self.assertIn(name, help_text)

    def test_a_rejected_backend_names_the_accepted_ones(self):
        p = self.btforge("parity", "--backend", "cpu", expect=2)
        self.assertIn("(emu or cuda)", p.stderr)


class PeriodOptions(e2e.CliTestCase):
    """--periods (Note [Period statistics]) on parity and bench."""

    def test_parity_compares_the_period_statistics(self):
        p = self.btforge("parity", "--backend", "emu", "--strategy", "sma_cross", "--bars", "400", "--symbols", "2",
                         "--combinations", "50", "--periods", "5")
        self.assertIn("period statistics: 5 per combination", p.stdout)
        for field in ("return_sum", "return_sum_squares", "downside_sum_squares", "return_sum_cubes",
                      "return_sum_fourths", "start_equity", "end_equity",
                      "max_drawdown", "gross_profit", "gross_loss", "fees", "funding", "bars", "trades", "wins"):
            self.assertRegex(p.stdout, r"period\.%s +250/250 " % field)
        p = self.btforge("parity", "--backend", "emu", "--strategy", "sma_cross", "--bars", "400", "--symbols", "2",
                         "--combinations", "50", "--periods", "0")
        self.assertNotIn("period.", p.stdout)

    def test_out_of_range_periods_are_usage_errors(self):
        for command in (["parity", "--backend", "emu"], ["bench"]):
            for value in ("17", "-1"):
                with self.subTest(command=command[0], value=value):
                    p = self.btforge(*command, "--periods", value, expect=2)
                    self.assertIn("--periods must be in 0..16, got " + value, p.stderr)
        p = self.btforge("parity", "--backend", "emu", "--bars", "10", "--periods", "16", "--from", "2024-01-01T05:00",
                         expect=2)
        self.assertIn("--periods 16 needs at least that many bars in the window, which has 5", p.stderr)


class LiquidationOptions(e2e.CliTestCase):
    """--margin-mode and --min-liquidated (Note [Liquidation rule]) on parity."""

    LEVERAGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "specs", "default_leveraged.json")

    def run_parity(self, *extra, expect=0):
        return self.btforge("parity", "--backend", "emu", "--spec", self.LEVERAGED, "--bars", "3000", "--symbols", "2",
                            "--combinations", "300", "--periods", "0", *extra, expect=expect)

    def test_the_share_of_liquidated_combinations_is_reported_and_can_be_required(self):
        for mode in ("cross", "isolated"):
            with self.subTest(mode=mode):
                p = self.run_parity("--margin-mode", mode)
                m = re.search(r"^liquidations \(%s margin\): (\d+) in (\d+) of 300 combinations \(([0-9.]+)%%\)$" % mode,
                              p.stdout, re.M)
                self.assertIsNotNone(m, p.stdout)
                self.assertGreater(int(m.group(2)), 0)
                self.assertIn("verdict: PASS", p.stdout)
        p = self.run_parity("--min-liquidated", "1", expect=1)
        self.assertRegex(p.stdout, r"verdict: FAIL \(liquidations in [0-9.]+% of the combinations, --min-liquidated "
                                   r"asks for 100%: the liquidation paths are not covered\)")

    def test_bad_values_are_usage_errors(self):
        p = self.btforge("parity", "--backend", "emu", "--margin-mode", "portfolio", expect=2)
        self.assertIn("--margin-mode must be cross or isolated, got 'portfolio'", p.stderr)
        p = self.btforge("parity", "--backend", "emu", "--min-liquidated", "1.5", expect=2)
        self.assertIn("--min-liquidated must be a share in 0..1, got 1.5", p.stderr)
        # Note [Synthetic finer bars]: finer bars that do not divide the hour, on parity and on bench.
        for command in (["parity", "--backend", "emu"], ["bench", "--backend", "cpu"]):
            for value in ("1", "7"):
                with self.subTest(command=command[0], finer_bars=value):
                    p = self.btforge(*command, "--finer-bars", value, expect=2)
                    self.assertIn("--finer-bars must be 0, or 2 or more dividing the hour", p.stderr)


if __name__ == "__main__":
    e2e.main()
