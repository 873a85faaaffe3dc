#!/usr/bin/env python3
"""The checks every strategy gets in CI (Note [Strategy discovery]): CTest runs
this script once per strategy the build discovered, so a new strategy is
checked without anyone adding it to a list.

Usage: strategy_checks_test.py PATH/TO/btforge STRATEGY [unittest options]

  * its quickstart grid (spec/grids/STRATEGY_quickstart.json, embedded) runs
    and ranks rows, and some combination trades;
  * replaying a row of that sweep prints exactly the row (best, middle,
    worst, the busiest), and the busiest row's round trips can be derived;
  * the generated kernel compiled for the host (--backend emu) writes the
    same bytes as the reference (--backend cpu);
  * its large workload (spec/grids/STRATEGY_bench_large.json, the speed
    guard's) has about 2^20 combinations.
Parity itself (field by field, 10,000 random combinations) is the
parity_emu_STRATEGY test.
"""

import os
import re
import sys

import cli_end_to_end as e2e

STRATEGY = None  # set in main() from argv[2]
MARKET = ["--synthetic-seed", "11", "--synthetic-bars", "2000", "--synthetic-symbols", "3"]


class StrategyChecks(e2e.CliTestCase):
    def quickstart(self, name, *extra):
        out = self.path(name)
        self.btforge("sweep", "--strategy", STRATEGY, "--all-rows", "--threads", "2", "-o", out, *MARKET, *extra)
        header, rows, raw = e2e.read_csv(out + ".csv")
        return header, rows, raw

    def test_quickstart_grid_runs_and_trades(self):
        header, rows, _ = self.quickstart("q")
        self.parameter_columns(header)
        self.assertGreater(len(rows), 1, "the quickstart grid should sweep more than one combination")
        self.assertEqual([int(r["rank"]) for r in rows], list(range(1, len(rows) + 1)))
        self.assertTrue(any(int(r["n_trades"]) > 0 for r in rows),
                        "no combination of the quickstart grid trades on the synthetic market")

    def test_replay_prints_the_sweep_row(self):
        header, rows, _ = self.quickstart("q")
        params = self.parameter_columns(header)
        busiest = max(rows, key=lambda r: int(r["n_trades"]))
        for label, row in {"best": rows[0], "middle": rows[len(rows) // 2], "worst": rows[-1],
                           "busiest": busiest}.items():
            cid = row["combination_id"]
            with self.subTest(which=label, combination=cid):
                p = self.btforge("replay", "--strategy", STRATEGY, "--combination", cid, *MARKET)
                printed = e2e.parse_metrics(p.stdout)
                self.assertEqual([name for name, _ in printed], e2e.METRICS, p.stdout)
                for name, value in printed:
                    self.assertEqual(value, row[name], "%s: replay prints %s, the sweep row has %s"
                                     % (name, value, row[name]))
                self.assertEqual(e2e.parse_parameters(p.stdout), {k: row[k] for k in params})

    def test_round_trips_of_the_busiest_row(self):
        # Note [Round trips from the fill log]: the strategy's bar order lets
        # the round trips be derived (or the replay refuses them).
        _, rows, _ = self.quickstart("q")
        busiest = max(rows, key=lambda r: int(r["n_trades"]))
        rt = self.path("rt.csv")
        self.btforge("replay", "--strategy", STRATEGY, "--combination", busiest["combination_id"], *MARKET,
                     "--trades", self.path("t.csv"), "--round-trips", rt)
        _, trips, _ = e2e.read_csv(rt)
        self.assertEqual(len(trips), int(busiest["n_trades"]))

    def test_large_workload_is_its_own_grid_of_about_a_million(self):
        # Note [Speed guard] (scripts/speed-guard): the workload the guard times.
        p = self.btforge("bench", "--strategy", STRATEGY, "--workload", "large", "--bars", "300", "--symbols", "4",
                         "--max-combinations", "8", "--skip-single-thread", "--threads", "2")
        self.assertIn("grid <embedded spec/grids/%s_bench_large.json>" % STRATEGY, p.stdout)
        m = re.search(r"x 8 of (\d+) combinations", p.stdout)
        self.assertTrue(m, p.stdout)
        self.assertTrue(2 ** 19 <= int(m.group(1)) <= 2 ** 21,
                        "%s combinations: the speed guard's workload should be about 2^20" % m.group(1))

    def test_generated_kernel_writes_the_reference_bytes(self):
        _, _, cpu = self.quickstart("cpu", "--backend", "cpu")
        _, _, emu = self.quickstart("emu", "--backend", "emu")
        self.assertEqual(cpu, emu, "--backend emu and --backend cpu rank different rows for " + STRATEGY)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: %s PATH/TO/btforge STRATEGY [unittest options]" % os.path.basename(sys.argv[0]))
    STRATEGY = sys.argv.pop(2)
    e2e.main()
