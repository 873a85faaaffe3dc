#!/usr/bin/env python3
"""scripts/speed-guard (Note [Speed guard]) judged on bench logs written
here: within 3% of the best passes, more than 3% below fails and names the
strategy, a device or strategy without a baseline fails, --record raises a
best and never lowers it. The strategies are the binary's own
(`btforge strategies --names`), so a new strategy without a baseline fails.

Usage: speed_guard_test.py PATH/TO/btforge [unittest options]
"""

import json
import os
import subprocess
import sys

import cli_end_to_end as e2e

GUARD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "speed-guard")
DEVICE = "NVIDIA H100 80GB HBM3"


def bench_log(cells_per_second, device=DEVICE):
    return ("btforge bench: strategy x, grid <embedded spec/grids/x_bench_large.json>\n"
            "workload: 4 symbols x 100000 bars x 1048576 combinations = 4.19430e+11 cells\n"
            "cpu 16 threads: 1.0 s, 1.0e+09 cells/s\n"
            "cuda (device 0: %s, sm_90, driver 13.0); kernel variant narrow (up to 16 symbols): 4.0 s, 1e+11 cells/s\n"
            "cuda kernels only: %.6g s, %.6g cells/s (4 launches of up to 262144 combinations)\n"
            % (device, 4.194304e11 / cells_per_second, cells_per_second))


class SpeedGuard(e2e.CliTestCase):
    def setUp(self):
        super().setUp()
        self.strategies = self.btforge("strategies", "--names").stdout.split()
        self.assertGreaterEqual(len(self.strategies), 1)
        self.logs = self.path("logs")
        os.makedirs(self.logs)
        self.baseline = self.path("baseline.json")

    def write_logs(self, figures, device=DEVICE):
        """figures: strategy -> the cells/s of each round."""
        for s, runs in figures.items():
            for r, cells in enumerate(runs, 1):
                with open(os.path.join(self.logs, "%s_%d.log" % (s, r)), "w") as f:
                    f.write(bench_log(cells, device))

    def write_baseline(self, bests, device=DEVICE):
        doc = {"tolerance": 0.03,
               "devices": {device: {"strategies": {s: {"cells_per_second": v} for s, v in bests.items()}}}}
        with open(self.baseline, "w") as f:
            json.dump(doc, f)

    def guard(self, *extra):
        return subprocess.run([sys.executable, GUARD, self.logs, "--from-logs", "--btforge", e2e.BTFORGE,
                               "--baseline", self.baseline, *extra], capture_output=True, text=True)

    def test_within_three_percent_passes(self):
        self.write_baseline({s: 1e11 for s in self.strategies})
        # medians 0.975e11 (2.5% below the best) and above it
        self.write_logs({s: [0.90e11, 0.975e11, 1.2e11] if i % 2 else [1.01e11] * 3
                         for i, s in enumerate(self.strategies)})
        p = self.guard()
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        for s in self.strategies:
            self.assertRegex(p.stdout, r"(?m)^%s\s.*\sok$" % s)

    def test_more_than_three_percent_below_fails_and_names_the_strategy(self):
        self.write_baseline({s: 1e11 for s in self.strategies})
        slow = self.strategies[-1]
        self.write_logs({s: ([0.96e11, 0.965e11, 0.99e11] if s == slow else [1e11] * 3) for s in self.strategies})
        p = self.guard()
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"(?m)^%s\s.*FAIL \(3\.5%% below its best\)$" % slow)

    def test_a_strategy_or_device_without_a_baseline_fails(self):
        self.write_baseline({s: 1e11 for s in self.strategies[1:]})
        self.write_logs({s: [1e11] for s in self.strategies})
        p = self.guard()
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertRegex(p.stdout, r"(?m)^%s\s.*NO BASELINE" % self.strategies[0])
        self.write_baseline({s: 1e11 for s in self.strategies}, device="NVIDIA H200")
        p = self.guard()
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)

    def test_a_log_without_a_figure_fails(self):
        self.write_baseline({s: 1e11 for s in self.strategies})
        self.write_logs({s: [1e11] for s in self.strategies})
        with open(os.path.join(self.logs, "%s_2.log" % self.strategies[0]), "w") as f:
            f.write("btforge: cuda: out of memory\n")
        p = self.guard()
        self.assertEqual(p.returncode, 3, p.stdout + p.stderr)
        self.assertIn("no 'cuda kernels only' figure", p.stderr)

    def test_record_raises_a_best_and_never_lowers_one(self):
        self.write_baseline({s: 1e11 for s in self.strategies})
        first = self.strategies[0]
        self.write_logs({s: ([1.2e11] * 3 if s == first else [0.5e11] * 3) for s in self.strategies})
        p = self.guard("--record", "--commit", "abc1234")
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(self.baseline) as f:
            recorded = json.load(f)["devices"][DEVICE]["strategies"]
        self.assertEqual(recorded[first]["cells_per_second"], 1.2e11)
        self.assertEqual(recorded[first]["commit"], "abc1234")
        self.assertIn("--workload large", recorded[first]["command"])
        for s in self.strategies[1:]:
            self.assertEqual(recorded[s], {"cells_per_second": 1e11})
        p = self.guard("--record")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("--record needs --commit", p.stderr)


if __name__ == "__main__":
    e2e.main()
