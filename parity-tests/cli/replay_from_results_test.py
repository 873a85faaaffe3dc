#!/usr/bin/env python3
"""replay --from-results: a sweep's row replayed from its result JSON, or refused (issue 29, section 2).

Usage: replay_from_results_test.py PATH/TO/btforge [unittest options]

Note [Replaying a row from its results]: the replay command a sweep prints
is complete and reproduces the row on the sweep's own inputs (a user's file
and instruments); a market, instruments file, grid or spec changed since the
sweep is named and refused. Before issue 29 the printed command replayed on
the embedded synthetic market (another Sharpe, exit 0).
"""

import json
import shlex

import cli_end_to_end as e2e

PARAMS = ["--param", "ema_fast=8,12,20", "--param", "sl_atr=1.5,3"]


def metrics_of(stdout):
    return dict(e2e.parse_metrics(stdout))


class ReplayFromResults(e2e.CliTestCase):
    def setUp(self):
        super().setUp()
        self.btforge("data", "synth", "-o", "m.csv", "--synthetic-bars", "1500", "--synthetic-seed", "7")
        self.grid = self.write_json("grid.json", {"strategy": "default", "parameters": {
            "ema_fast": {"values": [8, 12, 20]}, "sl_atr": {"values": [1.5, 3]}}})
        p = self.btforge("sweep", "--data", "m.csv", "--instruments", "m.instruments.json", "--grid", self.grid,
                         "--all-rows", "-o", "res")
        self.sweep_stdout = p.stdout
        _, rows, _ = e2e.read_csv(self.path("res.csv"))
        self.rows = {row["combination_id"]: row for row in rows}
        self.best = rows[0]["combination_id"]

    def assert_replays_row(self, stdout, cid):
        metrics = metrics_of(stdout)
        for name in ("sharpe", "net_pnl", "n_trades", "max_drawdown", "final_equity"):
            self.assertEqual(float(metrics[name]), float(self.rows[cid][name]), name)

    def test_the_printed_command_reproduces_the_best_row(self):
        line = next(l for l in self.sweep_stdout.splitlines() if l.startswith("replay the best: "))
        command = shlex.split(line[len("replay the best: "):])
        self.assertEqual(command[:3], ["btforge", "replay", "--from-results"])
        self.assertNotIn("[same market options]", line)
        p = self.btforge(*command[1:])
        self.assert_replays_row(p.stdout, self.best)
        self.assertNotIn("SYNTHETIC", p.stdout)

    def test_best_row_by_default_and_any_row_by_id(self):
        p = self.btforge("replay", "--from-results", "res.json")
        self.assert_replays_row(p.stdout, self.best)
        for cid in self.rows:
            p = self.btforge("replay", "--from-results", "res.json", "--combination", cid)
            self.assert_replays_row(p.stdout, cid)

    def test_inputs_changed_since_the_sweep_are_refused(self):
        with open(self.path("m.instruments.json")) as f:
            instruments = json.load(f)
        first = next(iter(instruments))
        instruments[first]["qty_step"] = instruments[first]["qty_step"] * 10
        with open(self.path("m.instruments.json"), "w") as f:
            json.dump(instruments, f)
        p = self.btforge("replay", "--from-results", "res.json", expect=1)
        self.assertIn("cannot replay a row of res.json: the market differs from the one the sweep ran", p.stderr)
        self.assertFalse([n for n in self.listdir() if n.startswith("btforge-replay")], "files written")

    def test_data_and_grid_changed_since_the_sweep_are_refused(self):
        with open(self.path("m.csv")) as f:
            lines = f.readlines()
        parts = lines[5].split(",")
        parts[5] = str(float(parts[5]) * 1.0001)  # one close moved, still inside its bar's range or not: refused either way
        parts[3] = str(max(float(parts[3]), float(parts[5])))
        parts[4] = str(min(float(parts[4]), float(parts[5])))
        lines[5] = ",".join(parts)
        with open(self.path("m.csv"), "w") as f:
            f.writelines(lines)
        p = self.btforge("replay", "--from-results", "res.json", expect=1)
        self.assertIn("the market differs from the one the sweep ran", p.stderr)
        self.setUp()  # the original data again, a fresh sweep
        self.write_json("grid.json", {"strategy": "default", "parameters": {
            "ema_fast": {"values": [9, 12, 20]}, "sl_atr": {"values": [1.5, 3]}}})
        p = self.btforge("replay", "--from-results", "res.json", expect=1)
        self.assertIn("the grid differs from the one the sweep ran", p.stderr)

    def test_options_beside_from_results_are_usage_errors(self):
        p = self.btforge("replay", "--from-results", "res.json", "--data", "m.csv", expect=2)
        self.assertIn("leave out --data", p.stderr)
        p = self.btforge("replay", "--from-results", "res.json", "--set", "sl_atr=2", expect=2)
        self.assertIn("give --combination, or nothing for its best row", p.stderr)

    def test_results_that_cannot_be_replayed(self):
        with open(self.path("res.json")) as f:
            doc = json.load(f)
        old = dict(doc)
        del old["identity"]
        self.write_json("old.json", old)
        p = self.btforge("replay", "--from-results", "old.json", expect=1)
        self.assertIn("does not record its sweep's inputs and identity", p.stderr)
        memory = dict(doc)
        memory["inputs"] = dict(doc["inputs"], data="<DataFrame>")
        self.write_json("memory.json", memory)
        p = self.btforge("replay", "--from-results", "memory.json", expect=1)
        self.assertIn("lived in memory (<DataFrame>)", p.stderr)
        p = self.btforge("replay", "--from-results", "m.csv", expect=1)
        self.assertIn("m.csv", p.stderr)
        self.assertNotIn("json.exception", p.stderr)
        p = self.btforge("replay", "--from-results", "absent.json", expect=1)
        self.assertIn("absent.json", p.stderr)

    def listdir(self):
        import os
        return os.listdir(self.dir)


if __name__ == "__main__":
    e2e.main()
