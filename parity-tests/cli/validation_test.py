#!/usr/bin/env python3
"""sweep --periods / --pbo / --walk-forward (Note [Validation of a sweep]),
degenerate validations (Note [Undefined statistics]) and --min-trades (Note
[Rows with few trades]).

Usage: validation_test.py PATH/TO/btforge [unittest options]

A small synthetic market (4 symbols, 4000 hourly bars) and a 64-combination
grid of sma_cross. The checks tie the validation outputs to independent
runs: every walk-forward step's out-of-sample return equals the replayed
equity curve's over that period's bars, the stitched return compounds them,
each deflated row's Sharpe ratio is the replayed row's, and the cpu and emu
backends write byte-identical validation files. Sweeps with nothing to
select (one combination, identical ones, ones that never trade) report each
statistic they leave undefined with its reason; a validation file that is
not one is refused with its JSON pointer; rows with fewer trades than
--min-trades rank after the others on every path (the top rows, every row,
emu, --rank-by dsr, shards merged).
"""

import csv
import datetime
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import unittest

BTFORGE = None
MARKET = ["--synthetic-seed", "11", "--synthetic-bars", "4000"]
GRID = {"strategy": "sma_cross", "parameters": {
    "fast_period": {"values": [5, 10, 20, 30]}, "slow_period": {"values": [40, 60, 100, 150]},
    "stop_pct": {"values": [0.02, 0.05]}, "allow_short": {"values": [False, True]}}}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class ValidationTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="btforge-validation-")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.grid = self.path("grid.json")
        with open(self.grid, "w") as f:
            json.dump(GRID, f)

    def path(self, name):
        return os.path.join(self.dir, name)

    def btforge(self, *args, expect=0):
        p = subprocess.run([BTFORGE, *args], cwd=self.dir, capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, expect, "btforge %s\nstdout:\n%s\nstderr:\n%s"
                         % (" ".join(args), p.stdout[-3000:], p.stderr[-3000:]))
        return p

    def sweep(self, name, *extra, expect=0):
        return self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.grid, "-o", self.path(name),
                            "--threads", "2", *MARKET, *extra, expect=expect)

    def test_walk_forward_steps_are_the_replayed_periods(self):
        p = self.sweep("res", "--walk-forward", "rolling:4", "--pbo", "--periods", "8")
        with open(self.path("res.validation.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["periods"], 8)
        self.assertEqual(doc["trials"], 64)
        spans = doc["period_spans"]
        self.assertEqual(len(spans), 8)
        steps = doc["walk_forward"]["steps"]
        self.assertEqual([s["out_of_sample_period"] for s in steps], [4, 5, 6, 7])
        self.assertEqual([s["in_sample_periods"] for s in steps], [[0, 3], [1, 4], [2, 5], [3, 6]])
        rows = read_csv(self.path("res.walkforward.csv"))
        self.assertEqual(len(rows), 4)
        growth = 1.0
        for step, row in zip(steps, rows):
            self.assertEqual(int(row["combination_id"]), step["combination_id"])
            # The winner's equity curve, replayed on the reference.
            equity_file = self.path("e%d.csv" % step["out_of_sample_period"])
            self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", str(step["combination_id"]),
                         *MARKET, "--trades", self.path("t.csv"), "--equity", equity_file)
            curve = read_csv(equity_file)
            by_time = {e["time"]: float(e["equity"]) for e in curve}
            times = [e["time"] for e in curve]
            first = spans[step["out_of_sample_period"]]["first_bar_time"]
            last = spans[step["out_of_sample_period"]]["last_bar_time"]
            before = by_time[times[times.index(first) - 1]]
            self.assertAlmostEqual(step["out_of_sample_return"], by_time[last] / before - 1.0, delta=1e-12)
            growth *= 1.0 + step["out_of_sample_return"]
        self.assertAlmostEqual(doc["walk_forward"]["stitched_return"], growth - 1.0, delta=1e-12)
        self.assertIn("walk-forward rolling:4", p.stdout)
        self.assertIn("probability of backtest overfitting (CSCV, 70 splits of 8 periods", p.stdout)
        # Note [The verdict]: the decision first, then each test in words.
        self.assertRegex(p.stdout, r"verdict: (No evidence of an edge|Undecided): .*Probability of backtest overfitting")
        self.assertEqual(len(doc["pbo"]["logits"]), 70)
        self.assertTrue(0.0 <= doc["pbo"]["pbo"] <= 1.0)

    def test_replay_of_the_stitched_walk_forward_path(self):
        self.sweep("res", "--walk-forward", "rolling:4", "--periods", "8")
        with open(self.path("res.validation.json")) as f:
            doc = json.load(f)
        walk = doc["walk_forward"]
        p = self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, *MARKET,
                         "--walk-forward", self.path("res.validation.json"),
                         "--trades", self.path("wt.csv"), "--equity", self.path("we.csv"))
        equity = read_csv(self.path("we.csv"))
        fills = read_csv(self.path("wt.csv"))
        # Note [Stitched walk-forward path]: the path returns the walk-forward's stitched return.
        self.assertEqual(len(equity), walk["stitched_bars"])
        self.assertAlmostEqual(float(equity[-1]["equity"]) / 10000.0 - 1.0, walk["stitched_return"],
                               delta=1e-12 * max(1.0, abs(walk["stitched_return"])))
        spans = doc["period_spans"]
        for step in walk["steps"]:
            n = walk["steps"].index(step) + 1
            span = spans[step["out_of_sample_period"]]
            mine = [e for e in equity if int(e["step"]) == n]
            self.assertEqual((mine[0]["time"], mine[-1]["time"]), (span["first_bar_time"], span["last_bar_time"]))
            # The step's fills are its winner's own replay's, inside its period.
            own = self.path("own%d.csv" % n)
            self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, *MARKET,
                         "-c", str(step["combination_id"]), "--trades", own, "--equity", self.path("own_e.csv"))
            inside = [r for r in read_csv(own) if span["first_bar_time"] <= r["time"] <= span["last_bar_time"]]
            stitched = [{k: v for k, v in r.items() if k not in ("step", "combination_id")}
                        for r in fills if int(r["step"]) == n]
            self.assertEqual(stitched, inside)
        self.assertIn("stitched out-of-sample path: %d bars" % walk["stitched_bars"], p.stdout)

    def test_replay_of_a_walk_forward_refuses_another_market_or_file(self):
        self.sweep("res", "--walk-forward", "rolling:4", "--periods", "8")
        self.sweep("plain", "--periods", "4")
        base = ["replay", "--strategy", "sma_cross", "--grid", self.grid]
        cases = [
            (base + ["--synthetic-seed", "11", "--synthetic-bars", "3000", "--walk-forward", self.path("res.validation.json")],
             "was written for another market or window"),
            (base + MARKET + ["--walk-forward", self.path("plain.validation.json")], "has no walk-forward"),
            (base + MARKET + ["--walk-forward", self.path("res.validation.json"), "-c", "3"],
             "give exactly one of --combination, --set and --walk-forward"),
            (base + MARKET + ["--walk-forward", self.path("res.validation.json"), "--round-trips", "r.csv"],
             "--round-trips needs one combination"),
        ]
        for args, text in cases:
            with self.subTest(text=text):
                p = self.btforge(*args, "--trades", self.path("x.csv"), expect=2 if "give" in text or "--round" in text else 1)
                self.assertIn(text, p.stderr)
                self.assertFalse(os.path.exists(self.path("x.csv")))

    def test_deflated_rows_are_the_replayed_rows(self):
        self.sweep("res", "--periods", "4", "--top", "5")
        with open(self.path("res.validation.json")) as f:
            doc = json.load(f)
        ranked = {int(r["combination_id"]): r for r in read_csv(self.path("res.csv"))}
        self.assertEqual(len(doc["deflated_sharpe"]), 5)
        for row in doc["deflated_sharpe"]:
            sharpe = float(ranked[row["combination_id"]]["sharpe"])
            # Two-pass moments against the metrics' Welford: the same value to rounding.
            self.assertAlmostEqual(row["sharpe_annualized"], sharpe, delta=1e-9 * max(1.0, abs(sharpe)))
            self.assertTrue(0.0 <= row["dsr"] <= row["psr"] <= 1.0)
        self.assertNotIn("pbo", doc)
        self.assertNotIn("walk_forward", doc)

    def test_rank_by_dsr_keeps_the_rows_of_highest_deflated_sharpe(self):
        p = self.sweep("dsr", "--periods", "6", "--rank-by", "dsr", "--top", "8")
        self.sweep("all", "--periods", "6", "--all-rows")
        with open(self.path("dsr.validation.json")) as f:
            doc = json.load(f)
        kept = read_csv(self.path("dsr.csv"))
        every = {int(r["combination_id"]): r for r in read_csv(self.path("all.csv"))}
        self.assertEqual(len(kept), 8)
        # The rows, replayed on the CPU for their metrics, are the sweep's rows.
        for row in kept:
            self.assertEqual({k: v for k, v in row.items() if k != "rank"},
                             {k: v for k, v in every[int(row["combination_id"])].items() if k != "rank"})
        deflated = doc["deflated_sharpe"]
        self.assertEqual([d["combination_id"] for d in deflated], [int(r["combination_id"]) for r in kept])
        self.assertEqual([d["dsr"] for d in deflated], sorted((d["dsr"] for d in deflated), reverse=True))
        self.assertIn("rows ranked by dsr", p.stdout)

    def test_cpcv_is_an_independent_cpcv_of_the_replayed_equity_curves(self):
        # Note [Combinatorial purged cross-validation], written again from the
        # book on every combination's replayed equity curve: per-bar returns
        # cut by the period spans, every split's in-sample winner, every path.
        p = self.sweep("res", "--cpcv", "2:1", "--periods", "8")
        with open(self.path("res.validation.json")) as f:
            doc = json.load(f)
        cpcv = doc["cpcv"]
        spans = doc["period_spans"]
        periods = len(spans)
        sums = []  # per combination, per period: [sum r, sum r^2, bars]
        for c in range(64):
            self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", str(c), *MARKET,
                         "--trades", self.path("t.csv"), "--equity", self.path("e.csv"))
            row = [[0.0, 0.0, 0] for _ in range(periods)]
            previous = 10000.0
            for e in read_csv(self.path("e.csv")):
                equity = float(e["equity"])
                r = equity / previous - 1.0 if previous > 0.0 and equity != previous else 0.0
                previous = equity
                p_of = [i for i, s in enumerate(spans) if s["first_bar_time"] <= e["time"] <= s["last_bar_time"]]
                self.assertEqual(len(p_of), 1, e["time"])
                cell = row[p_of[0]]
                cell[0] += r
                cell[1] += r * r
                cell[2] += 1
            sums.append(row)

        def sharpe(cells):
            total, squares, bars = 0.0, 0.0, 0
            for cell in cells:
                total += cell[0]
                squares += cell[1]
                bars += cell[2]
            mean = total / bars
            variance = squares / bars - mean * mean
            return mean / math.sqrt(variance) if variance > 0.0 else 0.0

        tests = [m for m in range(1 << periods) if bin(m).count("1") == 2]
        winners = []
        for t in tests:
            excluded = t
            for q in range(periods):
                if t >> q & 1:
                    excluded |= (1 << max(q - 1, 0)) | (1 << min(q + 1, periods - 1))
            in_sample = [q for q in range(periods) if not excluded >> q & 1]
            scores = [sharpe([sums[c][q] for q in in_sample]) for c in range(64)]
            winners.append(max(range(64), key=lambda c: (scores[c], -c)))
            split = cpcv["splits"][len(winners) - 1]
            self.assertEqual(split["test_periods"], [q for q in range(periods) if t >> q & 1])
            self.assertEqual(split["in_sample_periods"], in_sample)
        self.assertEqual([s["combination_id"] for s in cpcv["splits"]], winners)
        annual = math.sqrt(365.25 * 24)
        testing = [[i for i, t in enumerate(tests) if t >> q & 1] for q in range(periods)]
        self.assertEqual(len(cpcv["paths"]), 7)  # C(7, 1)
        shown = []
        for j, path in enumerate(cpcv["paths"]):
            chosen = [testing[q][j] for q in range(periods)]
            self.assertEqual(path["splits"], chosen)
            mine = sharpe([sums[winners[chosen[q]]][q] for q in range(periods)]) * annual
            self.assertAlmostEqual(path["sharpe_annualized"], mine, delta=1e-9 * max(1.0, abs(mine)))
            shown.append(mine)
        mean = sum(shown) / len(shown)
        self.assertAlmostEqual(cpcv["mean_sharpe_annualized"], mean, delta=1e-9 * max(1.0, abs(mean)))
        deviation = math.sqrt(sum((x - mean) ** 2 for x in shown) / len(shown))
        self.assertAlmostEqual(cpcv["sharpe_deviation_annualized"], deviation, delta=1e-9 * max(1.0, deviation))
        self.assertEqual(cpcv["share_not_positive"], sum(1 for x in shown if x <= 0.0) / len(shown))
        self.assertIn("combinatorial purged cross-validation (28 splits testing 2 of 8 periods, an embargo of 1 "
                      "on each side; 7 out-of-sample paths", p.stdout)

    def replayed_streams(self, parts, market=MARKET):
        # Every combination's equity curve replayed on the reference, read at
        # the end of each of M parts (Note [Equity marks]), made returns.
        streams = []
        for c in range(64):
            self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", str(c), *market,
                         "--trades", self.path("t.csv"), "--equity", self.path("e.csv"))
            curve = [float(e["equity"]) for e in read_csv(self.path("e.csv"))]
            previous, stream = 10000.0, []
            for i in range(parts):
                mark = curve[(i + 1) * len(curve) // parts - 1]
                stream.append(mark / previous - 1.0 if previous > 0.0 else 0.0)
                previous = mark
            streams.append(stream)
        return streams

    def test_effective_trials_are_a_clustering_of_the_replayed_return_streams(self):
        # Note [Effective number of trials] end to end, against the replayed
        # streams: the clusters partition the combinations; ONC's sample is
        # every distinct stream (64 < 1024); the reported silhouette quality
        # is Rousseeuw's silhouettes of that partition with ONC's distance
        # sqrt((1 - rho) / 2), computed here from numpy's correlations; every
        # stream is nearest its own cluster's mean and each representative
        # is its cluster's member nearest the mean; the clustered expected
        # maximum is the formula of Bailey and López de Prado over the
        # representatives' Sharpe ratios.
        import numpy as np
        parts = 40
        self.sweep("res", "--returns", str(parts), "--periods", "8", "--top", "5")
        with open(self.path("res.validation.json")) as f:
            doc = json.load(f)
        effective = doc["effective_trials"]
        streams = np.array(self.replayed_streams(parts))
        flat = [bool(np.all(s == s[0])) for s in streams]
        distinct = {tuple(s) for s, f in zip(streams, flat) if not f}
        self.assertEqual(effective["sampled"], len(distinct))
        self.assertEqual(effective["left_out"], 0)
        clusters = effective["clusters"]
        self.assertEqual(effective["trials"], len(clusters))
        label = {}
        for k, c in enumerate(clusters):
            self.assertEqual(c["members"], len(c["combination_ids"]))
            self.assertIn(c["representative"], c["combination_ids"])
            for n in c["combination_ids"]:
                self.assertNotIn(n, label)
                label[n] = k
            self.assertEqual(c.get("returns_without_variance", False), all(flat[n] for n in c["combination_ids"]))
        self.assertEqual(sorted(label), list(range(64)))
        varying = [n for n in range(64) if not flat[n]]
        centred = streams - streams.mean(axis=1, keepdims=True)
        unit = {n: centred[n] / np.linalg.norm(centred[n]) for n in varying}
        # The sample: the first combination of each distinct stream.
        first = {}
        for n in varying:
            first.setdefault(tuple(streams[n]), n)
        sample = sorted(first.values())
        labels = np.array([label[n] for n in sample])
        rho = np.corrcoef(np.array([streams[n] for n in sample]))
        distance = np.sqrt(np.clip((1.0 - rho) / 2.0, 0.0, None))
        silhouettes = []
        for i in range(len(sample)):
            own = labels == labels[i]
            if own.sum() < 2:
                silhouettes.append(0.0)
                continue
            a = distance[i][own].sum() / (own.sum() - 1)
            b = min(distance[i][labels == k].mean() for k in set(labels) if k != labels[i])
            silhouettes.append((b - a) / max(a, b))
        silhouettes = np.array(silhouettes)
        quality = silhouettes.mean() / silhouettes.std()
        # numpy's correlations and btforge's dot products of unit streams round
        # apart, and sqrt(1 - rho) magnifies it for close streams: 1e-7.
        self.assertAlmostEqual(effective["silhouette_quality"], quality, delta=1e-7 * abs(quality))
        means = {k: np.mean([unit[n] for n in sample if label[n] == k], axis=0) for k in set(labels)}
        for n in varying:
            d = {k: float(np.sum((unit[n] - m) ** 2)) for k, m in means.items()}
            self.assertLessEqual(d[label[n]], min(d.values()) + 1e-12, n)
        for k, c in enumerate(clusters):
            if k in means:
                nearest = min(c["combination_ids"], key=lambda n: (float(np.sum((unit[n] - means[k]) ** 2)), n))
                self.assertEqual(c["representative"], nearest)
        sharpes = [c["sharpe_annualized"] for c in clusters]
        variance = float(np.var(sharpes, ddof=1))
        self.assertAlmostEqual(effective["sharpe_variance_annualized"], variance, delta=1e-9 * variance)
        gamma, trials = 0.5772156649015329, len(clusters)
        normal = statistics.NormalDist()
        expected = math.sqrt(variance) * ((1 - gamma) * normal.inv_cdf(1 - 1 / trials) +
                                          gamma * normal.inv_cdf(1 - 1 / (trials * math.e)))
        self.assertAlmostEqual(effective["expected_max_sharpe_annualized"], expected, delta=1e-9 * abs(expected))
        # The fewer, less spread trials expect a lower maximum by luck: each
        # row's clustered DSR is at least its naive one.
        self.assertLess(effective["expected_max_sharpe_annualized"], doc["expected_max_sharpe_annualized"])
        for row in doc["deflated_sharpe"]:
            self.assertGreaterEqual(row["clustered_dsr"], row["dsr"])
            self.assertEqual(row["cluster"], label[row["combination_id"]])
        # Without --spa, --pbo and --cpcv the verdict is undecided (or, when
        # the clustered DSR fails, no evidence) and says what it needs.
        dsr = doc["checks"][1]
        self.assertEqual(doc["decision"], "undecided" if dsr["passed"] else "no evidence of an edge")
        self.assertEqual(dsr["value"], doc["deflated_sharpe"][0]["clustered_dsr"])
        self.assertEqual([c["test"] for c in doc["checks"]], ["pbo", "clustered_dsr", "spa", "cpcv"])
        self.assertEqual([c["ran"] for c in doc["checks"]], [False, True, False, False])

    def test_spa_is_arch_on_the_replayed_return_streams(self):
        # Note [Reality Check, SPA and StepM] end to end: every combination's
        # equity curve replayed on the reference, read at the end of each of
        # M parts (Note [Equity marks]), made returns; the resamples drawn
        # again from Note [Stationary bootstrap] in Python; arch's SPA,
        # RealityCheck and StepM handed those resamples.
        try:
            import numpy as np
            from arch.bootstrap import SPA, StepM
        except ImportError as exc:
            self.fail("the arch oracle is missing (%s): scripts/install-deps --test" % exc)
        parts, resamples, seed = 40, 200, 7
        p = self.sweep("res", "--spa", str(resamples), "--returns", str(parts), "--spa-seed", str(seed))
        with open(self.path("res.validation.json")) as f:
            spa = json.load(f)["spa"]
        block = math.isqrt(parts)
        self.assertEqual((spa["observations"], spa["resamples"], spa["mean_block"], spa["seed"]),
                         (parts, resamples, block, seed))
        streams = self.replayed_streams(parts)
        returns = np.array(streams).T  # T x K
        positions = [stationary_bootstrap_positions(parts, block, seed, b) for b in range(resamples)]

        oracle = SPA(np.zeros(parts), -returns, block_size=block, reps=resamples)
        hand_resamples(oracle.bootstrap, positions)
        oracle.compute()
        self.assertEqual(spa["reality_check_pvalue"], float(oracle.pvalues["upper"]))
        self.assertEqual(spa["spa_pvalue"], float(oracle.pvalues["consistent"]))
        self.assertEqual(spa["spa_pvalue_lower"], float(oracle.pvalues["lower"]))
        critical = float(oracle.critical_values(0.05)["consistent"])
        self.assertAlmostEqual(spa["stepm_critical_value"], critical, delta=1e-9 * max(1e-6, abs(critical)))
        stepm = StepM(np.zeros(parts), -returns, size=0.05, block_size=block, reps=resamples)
        hand_resamples(stepm.spa.bootstrap, positions)
        stepm.compute()
        self.assertEqual(spa["stepm_superior"]["combination_ids"], [int(i) for i in stepm.superior_models])
        best = max(range(64), key=lambda c: (sum(streams[c]) / parts, -c))
        self.assertEqual(spa["best"]["combination_id"], best)
        self.assertIn("reality check, SPA and StepM against holding cash (64 return streams of 40 parts", p.stdout)
        self.assertIn("Against holding cash, over every combination's returns in 40 parts", p.stdout)

    def test_spa_against_buy_and_hold_is_arch_with_the_benchmark(self):
        # Note [Buy-and-hold benchmark]: the market written as CSV, the
        # benchmark's marks computed here from its rows (equal shares at each
        # symbol's first open, valued at the parts' last closes), and arch's
        # SPA and StepM given the benchmark's losses beside the streams'.
        import numpy as np
        from arch.bootstrap import SPA, StepM
        self.btforge("data", "synth", *MARKET, "-o", self.path("m.csv"))
        market = ["--data", self.path("m.csv"), "--instruments", self.path("m.instruments.json")]
        parts, resamples, seed = 40, 200, 3
        p = self.sweep("hold", *market, "--spa", str(resamples), "--returns", str(parts), "--spa-seed", str(seed),
                       "--spa-benchmark", "hold")
        with open(self.path("hold.validation.json")) as f:
            spa = json.load(f)["spa"]
        self.assertEqual(spa["benchmark"], "buy and hold")
        rows = read_csv(self.path("m.csv"))
        times = sorted({r["timestamp"] for r in rows})
        bar_of = {t: i for i, t in enumerate(times)}
        benchmark = buy_and_hold_returns(rows, lambda r: bar_of[r["timestamp"]],
                                         [(i + 1) * len(times) // parts - 1 for i in range(parts)])
        streams = np.array(self.replayed_streams(parts, market)).T
        block = math.isqrt(parts)
        positions = [stationary_bootstrap_positions(parts, block, seed, b) for b in range(resamples)]

        oracle = SPA(-np.array(benchmark), -streams, block_size=block, reps=resamples)
        hand_resamples(oracle.bootstrap, positions)
        oracle.compute()
        self.assertEqual(spa["reality_check_pvalue"], float(oracle.pvalues["upper"]))
        self.assertEqual(spa["spa_pvalue"], float(oracle.pvalues["consistent"]))
        self.assertEqual(spa["spa_pvalue_lower"], float(oracle.pvalues["lower"]))
        stepm = StepM(-np.array(benchmark), -streams, size=0.05, block_size=block, reps=resamples)
        hand_resamples(stepm.spa.bootstrap, positions)
        stepm.compute()
        self.assertEqual(spa["stepm_superior"]["combination_ids"], [int(i) for i in stepm.superior_models])
        self.assertIn("reality check, SPA and StepM against buying and holding every symbol (64 return streams", p.stdout)
        self.assertIn("Against buying and holding every symbol, over every combination's returns in 40 parts", p.stdout)

    def test_daily_returns_are_the_replayed_curves_at_utc_day_ends(self):
        # Note [Equity marks at UTC days] end to end: a window that starts
        # mid-day; its UTC days found here from the bars' timestamps; every
        # combination's replayed equity curve read at each day's last bar, and
        # the buy-and-hold benchmark valued there; arch's SPA and StepM handed
        # the same resamples give the sweep's p-values and set.
        import numpy as np
        from arch.bootstrap import SPA, StepM
        self.btforge("data", "synth", *MARKET, "-o", self.path("m.csv"))
        start = "2024-01-03T07:00:00Z"
        market = ["--data", self.path("m.csv"), "--instruments", self.path("m.instruments.json"), "--from", start]
        resamples, seed = 200, 5
        p = self.sweep("daily", *market, "--spa", str(resamples), "--returns", "daily", "--spa-seed", str(seed),
                       "--spa-benchmark", "hold")
        with open(self.path("daily.validation.json")) as f:
            spa = json.load(f)["spa"]
        rows = read_csv(self.path("m.csv"))
        epoch_ms = lambda text: round(datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)
        first = epoch_ms(start)
        times = sorted({epoch_ms(r["timestamp"]) for r in rows if epoch_ms(r["timestamp"]) >= first})
        day_ends = [i for i, t in enumerate(times) if i + 1 == len(times) or t // 86400000 != times[i + 1] // 86400000]
        days = len(day_ends)
        self.assertEqual(days, len({t // 86400000 for t in times}))
        self.assertEqual((spa["observations"], spa["observations_are"]), (days, "utc_days"))
        streams = []
        for c in range(64):
            self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, "-c", str(c), *market,
                         "--trades", self.path("t.csv"), "--equity", self.path("e.csv"))
            curve = read_csv(self.path("e.csv"))
            self.assertEqual([epoch_ms(e["time"]) for e in curve], times)
            previous, stream = 10000.0, []
            for bar in day_ends:
                mark = float(curve[bar]["equity"])
                stream.append(mark / previous - 1.0 if previous > 0.0 else 0.0)
                previous = mark
            streams.append(stream)
        bar_of = {t: i for i, t in enumerate(times)}
        benchmark = buy_and_hold_returns(rows, lambda r: bar_of.get(epoch_ms(r["timestamp"])), day_ends)
        block = math.isqrt(days)
        positions = [stationary_bootstrap_positions(days, block, seed, b) for b in range(resamples)]

        returns = np.array(streams).T
        oracle = SPA(-np.array(benchmark), -returns, block_size=block, reps=resamples)
        hand_resamples(oracle.bootstrap, positions)
        oracle.compute()
        self.assertEqual(spa["reality_check_pvalue"], float(oracle.pvalues["upper"]))
        self.assertEqual(spa["spa_pvalue"], float(oracle.pvalues["consistent"]))
        stepm = StepM(-np.array(benchmark), -returns, size=0.05, block_size=block, reps=resamples)
        hand_resamples(stepm.spa.bootstrap, positions)
        stepm.compute()
        self.assertEqual(spa["stepm_superior"]["combination_ids"], [int(i) for i in stepm.superior_models])
        self.assertIn("(64 return streams of %d UTC days of the window" % days, p.stdout)
        # The same on the emulated kernels, byte for byte; M parts and daily together are refused.
        self.sweep("daily_emu", *market, "--spa", str(resamples), "--returns", "daily", "--spa-seed", str(seed),
                   "--spa-benchmark", "hold", "--backend", "emu")
        with open(self.path("daily.validation.json"), "rb") as a, open(self.path("daily_emu.validation.json"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        p = self.sweep("bad", "--returns", "weekly", expect=2)
        self.assertIn("--returns: expected a whole number of parts M or daily, got 'weekly'", p.stderr)

    def test_cpu_and_emu_write_the_same_validation(self):
        self.sweep("cpu", "--walk-forward", "anchored:2", "--pbo", "--cpcv", "2:0", "--periods", "6", "--backend", "cpu",
                   "--spa", "100", "--returns", "30")
        self.sweep("emu", "--walk-forward", "anchored:2", "--pbo", "--cpcv", "2:0", "--periods", "6", "--backend", "emu",
                   "--spa", "100", "--returns", "30")
        for suffix in (".validation.json", ".walkforward.csv"):
            with open(self.path("cpu" + suffix), "rb") as a, open(self.path("emu" + suffix), "rb") as b:
                self.assertEqual(a.read(), b.read(), suffix)

    def test_refusals(self):
        cases = [
            (["--pbo", "--periods", "5"], "--periods must be even and at least 2, got 5"),
            (["--periods", "17"], "--periods must be in 1..16, got 17"),
            (["--walk-forward", "rolling:16"], "needs more than 16 periods (--periods 16)"),
            (["--walk-forward", "rolling:4", "--rank-by", "max_drawdown"], "sharpe, sortino or total_return"),
            (["--walk-forward", "sideways"], "--walk-forward: expected anchored, anchored:K or rolling:K"),
            (["--cpcv", "0"], "--cpcv: expected K or K:E (K test periods >= 1, E embargo periods >= 0), got '0'"),
            (["--cpcv", "2:x"], "--cpcv: the embargo E must be a whole number of periods >= 0, got 'x'"),
            (["--cpcv", "6", "--periods", "6"], "--cpcv 6: K test periods must leave one in sample: 1 <= K < 6"),
            (["--cpcv", "2:2", "--periods", "4"],
             "--cpcv 2:2: the split testing periods 0,1 of 4 has no in-sample period left after an embargo of 2"),
            (["--periods", "16", "--from", "2024-01-01T00:00", "--to", "2024-01-01T05:00"],
             "--periods 16 needs at least that many bars; the window has 5"),
            (["--rank-by", "dsr", "--all-rows"], "--rank-by dsr ranks the kept rows after the sweep"),
            (["--rank-by", "dsr", "--periods", "0"], "--rank-by dsr needs the period statistics"),
            (["--rank-by", "dsr", "--top", "1001"], "--rank-by dsr replays each kept row on the CPU: --top at most 1000"),
            (["--pbo", "--pbo-backend", "gpu"], "--pbo-backend must be auto, cpu or cuda, got 'gpu'"),
            (["--spa", "0"], "--spa: expected B or B:L (B resamples >= 1, L mean block length >= 1), got '0'"),
            (["--spa", "100:0.5"], "--spa: the mean block length L must be a number >= 1, got '0.5'"),
            (["--returns", "0"], "--returns must be 1 or more parts of the window, got 0"),
            (["--returns", "30", "--periods", "0"], "--returns reports in the validation, which --periods 0 turns off"),
            (["--spa", "--returns", "0"], "--returns must be 1 or more parts of the window, got 0"),
            (["--spa", "--returns", "4001"], "--returns 4001 needs at least that many bars; the window has 4000"),
            (["--spa", "--spa-size", "1"], "--spa-size must be in (0, 1), got 1"),
            (["--spa", "--spa-benchmark", "index"], "--spa-benchmark must be cash or hold, got 'index'"),
            (["--spa-benchmark", "hold"], "--spa-benchmark sets what --spa tests against; give --spa too"),
            (["--spa", "--periods", "0"], "--spa reports in the validation, which --periods 0 turns off"),
            (["--pbo", "--pbo-backend", "cuda", "--backend", "cpu"],
             "--pbo-backend cuda runs the CSCV on the GPU of a cuda sweep: this sweep runs on cpu"),
        ]
        for extra, text in cases:
            with self.subTest(extra=extra):
                p = self.sweep("refused", *extra, expect=2)
                self.assertIn(text, p.stderr)
                self.assertFalse(os.path.exists(self.path("refused.csv")))


def hand_resamples(bootstrap, positions):
    """Makes arch's bootstrap draw `positions`, one resample per call, in order."""
    import numpy as np
    drawn = iter(positions)
    bootstrap.update_indices = lambda: np.array(next(drawn), dtype=np.int64)


def buy_and_hold_returns(rows, bar_of_row, mark_bars, initial=10000.0):
    """Note [Buy-and-hold benchmark] computed again from a market CSV's rows:
    equal shares at each symbol's first open in the window, each valued at
    its last close at or before each of `mark_bars`; the returns between
    marks. `bar_of_row` gives a row's bar in the window, None outside it."""
    first_open, closes = {}, {}
    for r in rows:
        bar = bar_of_row(r)
        if bar is None:
            continue
        first_open.setdefault(r["symbol"], (bar, float(r["open"])))
        closes.setdefault(r["symbol"], {})[bar] = float(r["close"])
    share = initial / len(first_open)
    previous, returns = initial, []
    for bar in mark_bars:
        mark = 0.0
        for symbol, (bought, cost) in first_open.items():
            held = [b for b in closes[symbol] if b <= bar]
            mark += share * closes[symbol][max(held)] / cost if bought <= bar else share
        returns.append(mark / previous - 1.0)
        previous = mark
    return returns


def stationary_bootstrap_positions(observations, mean_block, seed, resample):
    """Note [Stationary bootstrap], written again: the positions of one resample."""
    mask = (1 << 64) - 1

    def finalize(z):
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    key = finalize(seed)

    def word(j):
        return finalize((key + (resample * 2 * observations + j + 1) * 0x9E3779B97F4A7C15) & mask)

    positions = [(word(1) * observations) >> 64]
    for i in range(1, observations):
        if (word(2 * i) >> 11) * 2.0 ** -53 < 1.0 / mean_block:
            positions.append((word(2 * i + 1) * observations) >> 64)
        else:
            positions.append((positions[-1] + 1) % observations)
    return positions


def write_grid(path, parameters):
    with open(path, "w") as f:
        json.dump({"strategy": "sma_cross", "parameters": parameters}, f)


class DegenerateValidationTest(unittest.TestCase):
    """Issue 29: one combination gave "PBO 1.00 ... most likely overfit",
    identical combinations PBO 1.00 and a DSR from a variance of zero, rows
    that never traded PSR and DSR 0.5."""

    setUp = ValidationTest.setUp
    path = ValidationTest.path
    btforge = ValidationTest.btforge

    def sweep(self, name, parameters, *extra, market=MARKET, expect=0):
        write_grid(self.path(name + "-grid.json"), parameters)
        return self.btforge("sweep", "--strategy", "sma_cross", "--grid", self.path(name + "-grid.json"),
                            "-o", self.path(name), "--threads", "2", *market, *extra, expect=expect)

    def validation(self, name):
        with open(self.path(name + ".validation.json")) as f:
            return json.load(f)

    def test_one_combination_selects_nothing(self):
        p = self.sweep("one", {"fast_period": 10, "slow_period": 40}, "--pbo", "--periods", "4",
                       "--walk-forward", "rolling:2")
        doc = self.validation("one")
        reason = "one combination: nothing was selected"
        self.assertIsNone(doc["pbo"]["pbo"])
        self.assertEqual(doc["pbo"]["pbo_undefined"], reason)
        self.assertEqual(doc["pbo"]["informative_splits"], 0)
        self.assertEqual(doc["pbo"]["logits"], [None] * 6)
        self.assertIsNone(doc["pbo"]["probability_of_loss"])
        self.assertIsNone(doc["sharpe_variance_annualized"])
        self.assertEqual(doc["sharpe_variance_undefined"], reason)
        # One trial: nothing selected, no deflation: the DSR is the PSR(0).
        self.assertEqual(doc["expected_max_sharpe_annualized"], 0.0)
        row = doc["deflated_sharpe"][0]
        self.assertEqual(row["dsr"], row["psr"])
        walk = doc["walk_forward"]
        self.assertEqual([s["selection_undefined"] for s in walk["steps"]], [reason, reason])
        self.assertIsNone(walk["efficiency"])
        self.assertEqual(walk["efficiency_undefined"], reason)
        self.assertIn("PBO undefined (one combination: nothing was selected)", p.stdout)
        self.assertIn("The probability of backtest overfitting is undefined (one combination", p.stdout)
        self.assertNotIn("most likely overfit", p.stdout)
        self.assertNotIn("PBO 1.000", p.stdout)
        self.assertIn("nothing selected at step 1, 2 (one combination: nothing was selected)", p.stdout)
        # The stitched path is still the combination's own: replay takes the file as it is.
        r = self.btforge("replay", "--strategy", "sma_cross", "--grid", self.path("one-grid.json"), *MARKET,
                         "--walk-forward", self.path("one.validation.json"), "--trades", self.path("t.csv"),
                         "--equity", self.path("e.csv"))
        self.assertIn("walk-forward of", r.stdout)

    def test_identical_combinations_rank_nothing(self):
        # Stops of 40% and 50% are never hit here: the two combinations are the same run.
        p = self.sweep("same", {"fast_period": 10, "slow_period": 40, "stop_pct": {"values": [0.4, 0.5]}},
                       "--pbo", "--periods", "4", "--walk-forward", "anchored:2")
        doc = self.validation("same")
        self.assertEqual(len(doc["deflated_sharpe"]), 1)  # one outcome (Note [Distinct outcomes])
        self.assertIsNone(doc["pbo"]["pbo"])
        self.assertEqual(doc["pbo"]["pbo_undefined"], "all combinations have identical period returns")
        self.assertEqual(doc["sharpe_variance_annualized"], 0.0)
        self.assertIsNone(doc["expected_max_sharpe_annualized"])
        self.assertEqual(doc["expected_max_sharpe_undefined"], "zero variance of the trials' Sharpe ratios")
        for row in doc["deflated_sharpe"]:
            self.assertTrue(0.0 < row["psr"] < 1.0)  # each row's own PSR(0) is measured
            self.assertIsNone(row["dsr"])
            self.assertEqual(row["dsr_undefined"], "zero variance of the trials' Sharpe ratios")
        self.assertEqual(doc["walk_forward"]["efficiency_undefined"], "every combination has the same in-sample score")
        self.assertIn("expected maximum by luck undefined (zero variance of the trials' Sharpe ratios)", p.stdout)
        self.assertIn("The best row's deflated Sharpe ratio is undefined (zero variance", p.stdout)
        self.assertNotIn("most likely overfit", p.stdout)

    def test_combinations_that_never_trade_have_no_psr(self):
        # A slow SMA longer than the market: never defined, never a trade, equity flat.
        p = self.sweep("idle", {"fast_period": {"values": [5, 10]}, "slow_period": 2000}, "--periods", "4",
                       market=["--synthetic-seed", "11", "--synthetic-bars", "1000"])
        doc = self.validation("idle")
        reason = "zero variance of its bar returns (its equity never moved)"
        # The two combinations are one outcome (Note [Distinct outcomes]): one row.
        self.assertEqual(len(doc["deflated_sharpe"]), 1)
        self.assertIn("2 combinations, 1 distinct outcomes: one row per outcome", p.stdout)
        for row in doc["deflated_sharpe"]:
            self.assertEqual(row["sharpe_annualized"], 0.0)
            self.assertIsNone(row["psr"])
            self.assertEqual(row["psr_undefined"], reason)
            self.assertIsNone(row["dsr"])
            self.assertEqual(row["dsr_undefined"], reason)
            self.assertIsNone(row["skewness"])
        self.assertIn("id 0: PSR and DSR undefined (zero variance of its bar returns", p.stdout)
        self.assertIn("The best row's deflated Sharpe ratio is undefined (zero variance of its bar returns", p.stdout)


class ValidationFileTest(unittest.TestCase):
    """Note [Reading a validation file]: replay --walk-forward refuses what
    is not a sweep's walk-forward, by JSON pointer. Before: nlohmann's text,
    a combination id of 1e300 replayed as 0, a period traded twice."""

    setUp = ValidationTest.setUp
    path = ValidationTest.path
    btforge = ValidationTest.btforge

    def test_refusals_name_the_json_pointer(self):
        ValidationTest.sweep(self, "res", "--walk-forward", "rolling:2", "--periods", "4")
        with open(self.path("res.validation.json")) as f:
            good = json.load(f)
        cases = [
            (("walk_forward", "steps", 0, "parameters"), 5,
             "/walk_forward/steps/0/parameters: expected an array, got a number"),
            (("walk_forward", "steps", 0, "combination_id"), 1e300,
             "/walk_forward/steps/0/combination_id: expected a whole number in 0..18446744073709551615, got 1e+300"),
            (("walk_forward", "steps", 1, "out_of_sample_period"), 2,
             "/walk_forward/steps/1/out_of_sample_period: the steps trade periods in increasing order; period 2 "
             "follows period 2"),
            (("periods",), 4.7, "/periods: expected a whole number in 1..16, got 4.7"),
            (("period_spans", 0), [], "/period_spans/0: expected an object, got an array"),
        ]
        for keys, value, text in cases:
            with self.subTest(text=text):
                doc = json.loads(json.dumps(good))
                at = doc
                for key in keys[:-1]:
                    at = at[key]
                at[keys[-1]] = value
                with open(self.path("bad.json"), "w") as f:
                    json.dump(doc, f)
                p = self.btforge("replay", "--strategy", "sma_cross", "--grid", self.grid, *MARKET,
                                 "--walk-forward", self.path("bad.json"), "--trades", self.path("x.csv"), expect=1)
                self.assertIn(self.path("bad.json") + ": " + text, p.stderr)
                self.assertNotIn("json.exception", p.stderr)
                self.assertFalse(os.path.exists(self.path("x.csv")))


# Note [Rows with few trades]: one week of the synthetic market, where the
# best Sharpe ratios belong to rows of 2 to 5 trades.
WEEK = ["--strategy", "sma_cross", "--from", "2024-06-01", "--to", "2024-06-08", "--threads", "2"]


def group(row):
    """A row's group in the ranking: enough trades, few trades, non-finite metrics."""
    return 2 if row["valid"] != "true" else 0 if row["enough_trades"] == "true" else 1


class MinTradesTest(unittest.TestCase):
    setUp = ValidationTest.setUp
    path = ValidationTest.path
    btforge = ValidationTest.btforge

    def sweep(self, name, *extra, expect=0):
        return self.btforge("sweep", *WEEK, "-o", self.path(name), *extra, expect=expect)

    def assert_ranked(self, rows, min_trades):
        for row in rows:
            self.assertEqual(row["enough_trades"] == "true", int(row["n_trades"]) >= min_trades)
        keys = [(group(r), -float(r["sharpe"]) if r["valid"] == "true" else 0.0, int(r["combination_id"]))
                for r in rows]
        self.assertEqual(keys, sorted(keys))

    def test_rows_with_few_trades_rank_after_the_others(self):
        self.sweep("all", "--all-rows")
        rows = read_csv(self.path("all.csv"))
        self.assert_ranked(rows, 10)
        self.assertGreaterEqual(int(rows[0]["n_trades"]), 10)  # before: 4 trades, the first with 10 ranked 18th
        few = [r for r in rows if r["enough_trades"] == "false" and r["valid"] == "true"]
        self.assertTrue(few and float(few[0]["sharpe"]) > float(rows[0]["sharpe"]))
        # The kept top rows (TopN) are the spooled rows' first ones (Note [Rows spooled to disk]).
        p = self.sweep("top", "--top", "30")
        self.assertEqual(read_csv(self.path("top.csv")), rows[:30])
        with open(self.path("top.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["min_trades"], 10)
        self.assertEqual([r["enough_trades"] for r in doc["rows"]], [r["enough_trades"] == "true" for r in rows[:30]])
        self.assertNotIn("enough_trades", p.stdout)  # the shown 20 rows all have enough
        p = self.sweep("top", "--top", "30", "--min-trades", "20")
        self.assertIn("rows with fewer than 20 trades (enough_trades NO) rank after the others", p.stdout)

    def test_without_a_minimum_the_metric_alone_ranks(self):
        self.sweep("plain", "--all-rows", "--min-trades", "0")
        rows = read_csv(self.path("plain.csv"))
        self.assert_ranked(rows, 0)
        self.assertTrue(all(r["enough_trades"] == "true" for r in rows))
        self.assertLess(int(rows[0]["n_trades"]), 10)

    def test_every_backend_and_path_keeps_the_order(self):
        self.sweep("cpu", "--min-trades", "5", "--top", "40", "--backend", "cpu")
        self.sweep("emu", "--min-trades", "5", "--top", "40", "--backend", "emu")
        self.assertEqual(read_csv(self.path("cpu.csv")), read_csv(self.path("emu.csv")))
        self.assert_ranked(read_csv(self.path("cpu.csv")), 5)
        # Shards carry the minimum in their identity; merged, they are one process.
        for i in range(3):
            self.sweep("s%d" % i, "--min-trades", "5", "--top", "40", "--shard", "%d/3" % i)
        self.btforge("merge", self.path("s0.shard"), self.path("s1.shard"), self.path("s2.shard"),
                     "-o", self.path("merged"))
        with open(self.path("cpu.csv"), "rb") as a, open(self.path("merged.csv"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.sweep("other", "--min-trades", "6", "--top", "40", "--shard", "2/3")
        p = self.btforge("merge", self.path("s0.shard"), self.path("s1.shard"), self.path("other.shard"),
                         "-o", self.path("mixed"), expect=1)
        self.assertIn("min_trades", p.stderr)

    def test_rank_by_dsr_puts_rows_with_few_trades_after(self):
        self.sweep("dsr", "--rank-by", "dsr", "--periods", "4", "--top", "60")
        rows = read_csv(self.path("dsr.csv"))
        groups = [group(r) for r in rows]
        self.assertEqual(groups, sorted(groups))
        self.assertIn(1, groups)
        self.assertEqual(groups[0], 0)

    def test_refusal(self):
        p = self.sweep("refused", "--min-trades", "-1", expect=2)
        self.assertIn("--min-trades must be 0 (no minimum) or more, got -1", p.stderr)
        self.assertFalse(os.path.exists(self.path("refused.csv")))


if __name__ == "__main__":
    BTFORGE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
