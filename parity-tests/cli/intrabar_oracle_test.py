#!/usr/bin/env python3
"""--intrabar against an independent simulation of the finer bars, run by CTest.

Usage: intrabar_oracle_test.py PATH/TO/btforge [unittest options]

A random market of 1-minute bars (one symbol, seeded), its hours made here
by resampling (first open, highest high, lowest low, last close), and a
minute file in which a few hours lose a minute or have one whose high falls
short of the hour's (Note [Checking finer bars]: those hours keep the rule
of docs/ACCOUNTING.md §9). The default strategy is replayed on the hours
with the minutes, and this file simulates every trade's exits again from its
entry fill, written from docs/ACCOUNTING.md §9 and SPEC §6 and sharing no
code with btforge: an hour is settled on its minutes when it reaches a
favourable and an adverse event and its minutes agree with it, else by its
own prices and the fixed order; levels on the tick, quantities on the
step. It takes from btforge only what decides entries (the entry fills, the
signal exits at an open, the end of data) and the ATR of each entry's
decision bar (`btforge indicators`, held to TA-Lib elsewhere). Every exit
fill (bar, reason, price, quantity), the row's magnified_bars and its
ambiguous_bars must be the simulation's. Then a sweep with minutes that all
agree leaves no ambiguous bar to the rule in any row. The same simulation, each hour
that needs a path walked as its legs instead (Note [A bar as three legs]:
open, one extreme, a pause there, the other, a pause, close; a target
reached after the first leg fills at its level or at the hour's adverse
extreme), checks `replay --intrabar-order favourable-first` and
`adverse-first` on the hours alone, and `sweep --intrabar-bounds` writes
what those replays give. band_reversion's breakouts are simulated too
(Note [Walking the finer bars of a stop entry]): the stop entries its
closes rest beyond the bands (`btforge indicators` gives the bands and the
ATR), each filled on the first minute that reaches it where it fills
inside an hour with a path, then its stop from the fill and from each
later minute's open; every fill, magnified_bars and ambiguous_bars must be
the simulation's. Python 3 standard library only.
"""

import datetime
import json
import math
import os
import random

import cli_end_to_end as e2e

SYMBOL = "SYN"
HOURS = 1500
MINUTES = 60
TICK = 0.01
STEP = 0.001
MIN_QTY = 0.001
START = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)

# The combinations replayed: trend mode, every filter open, one position,
# no time exit, no slippage (fills on the levels), leverage 1 (no
# liquidation can come near).
BASE = {"mode": 0, "ema_fast": 5, "ema_slow": 20, "atr_period": 14, "allow_short": 1, "rsi_max_long": 100,
        "rsi_min_short": 0, "adx_min": 0, "breadth_min": 0, "max_positions": 1, "cooldown_bars": 0,
        "max_hold_bars": 0, "risk_per_trade": 0.01, "max_leverage": 1}
COMBINATIONS = [
    dict(BASE, sl_atr=1.0, tp1_atr=1.0, tp1_frac=0.5, tp_atr=2.5, trail_activate_atr=100, trail_atr=0),
    dict(BASE, sl_atr=1.5, tp1_atr=0.8, tp1_frac=0.5, tp_atr=3.0, trail_activate_atr=1.0, trail_atr=0.8),
    dict(BASE, sl_atr=0.7, tp1_atr=50, tp1_frac=0.5, tp_atr=1.5, trail_activate_atr=0.5, trail_atr=0.5),
    dict(BASE, sl_atr=1.2, tp1_atr=0.6, tp1_frac=1.0, tp_atr=2.0, trail_activate_atr=100, trail_atr=0),
]
# The legs' test adds targets close enough that one leg passes both: TP
# waits at the pause and fills at its level (Note [A bar as three legs]).
LEG_COMBINATIONS = COMBINATIONS + [
    dict(BASE, sl_atr=0.6, tp1_atr=0.25, tp1_frac=0.5, tp_atr=0.5, trail_activate_atr=100, trail_atr=0),
]


def c_round(x):
    """std::round: halves away from zero."""
    f = math.floor(abs(x))
    r = f + 1.0 if abs(x) - f >= 0.5 else f
    return math.copysign(r, x)


def decimal_grid(y):
    return c_round(y * 1e12) / 1e12


def on_tick(price):
    return decimal_grid(c_round(price / TICK) * TICK)


def floor_step(qty):
    return decimal_grid(math.floor(qty / STEP + 1e-9) * STEP)


def iso(ms):
    return (START + datetime.timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%SZ")


def make_minutes(seed):
    """Minutes of a random walk with gaps between minutes, on the tick."""
    rng = random.Random(seed)
    price = 100.0
    minutes = []
    for k in range(HOURS * MINUTES):
        o = on_tick(price + (rng.gauss(0, 0.08) if rng.random() < 0.1 else 0.0))
        c = on_tick(o + rng.gauss(0, 0.12))
        h = on_tick(max(o, c) + abs(rng.gauss(0, 0.05)))
        lo = on_tick(min(o, c) - abs(rng.gauss(0, 0.05)))
        minutes.append([k * 60_000, o, h, lo, c])
        price = c
    return minutes


def resample(minutes):
    hours = []
    for t in range(HOURS):
        m = minutes[t * MINUTES:(t + 1) * MINUTES]
        hours.append([m[0][0], m[0][1], max(x[2] for x in m), min(x[3] for x in m), m[-1][4]])
    return hours


def write_bars(path, bars):
    with open(path, "w") as f:
        f.write("timestamp,symbol,open,high,low,close,volume\n")
        for ms, o, h, lo, c in bars:
            f.write("%s,%s,%r,%r,%r,%r,1\n" % (iso(ms), SYMBOL, o, h, lo, c))


def with_faults(minutes, hours, seed):
    """The minute file: every 30th hour loses a minute, every 30th (offset) has its highs cut below the hour's."""
    rng = random.Random(seed)
    out = [list(m) for m in minutes]
    dropped = set()
    for t in range(3, HOURS, 30):
        dropped.add(t * MINUTES + rng.randrange(MINUTES))
    for t in range(17, HOURS, 30):
        for k in range(t * MINUTES, (t + 1) * MINUTES):
            if out[k][2] == hours[t][2]:
                out[k][2] = max(out[k][1], out[k][4])
    return [m for k, m in enumerate(out) if k not in dropped]


def paths_of(hours, minute_file_bars):
    """The hours whose minutes are all there and agree with them (Note [Checking finer bars])."""
    by_time = {m[0]: m for m in minute_file_bars}
    paths = {}
    for t, (ms, o, h, lo, c) in enumerate(hours):
        m = [by_time.get(ms + k * 60_000) for k in range(MINUTES)]
        if any(x is None for x in m):
            continue
        if m[0][1] == o and max(x[2] for x in m) == h and min(x[3] for x in m) == lo and m[-1][4] == c:
            paths[t] = m
    return paths


class Bracket:
    """One position of the default strategy between its entry and its exit."""

    def __init__(self, side, price, qty, atr, p):
        self.side, self.entry, self.qty, self.atr, self.p = side, price, qty, atr, p
        self.stop = on_tick(price - side * p["sl_atr"] * atr)
        self.tp1 = on_tick(price + side * p["tp1_atr"] * atr)
        self.tp = on_tick(price + side * p["tp_atr"] * atr)
        self.best = price
        self.tp1_done = False

    # Comparisons in the position's direction: "beyond" is favourable.
    def reached(self, level, h, lo):
        return h >= level if self.side > 0 else lo <= level

    def touched(self, stop, h, lo):
        return lo <= stop if self.side > 0 else h >= stop

    def tighter(self, a, b):
        return max(a, b) if self.side > 0 else min(a, b)

    def trailed(self, best, stop, h, lo):
        """The trailing rule on (best, stop) over a bar of this range: (best, stop) after it."""
        p = self.p
        if p["trail_atr"] <= 0:
            return best, stop
        if self.side > 0:
            best = max(best, h)
            if best - self.entry >= p["trail_activate_atr"] * self.atr:
                stop = max(stop, on_tick(best - p["trail_atr"] * self.atr))
        else:
            best = min(best, lo)
            if self.entry - best >= p["trail_activate_atr"] * self.atr:
                stop = min(stop, on_tick(best + p["trail_atr"] * self.atr))
        return best, stop

    def needs_path(self, h, lo):
        """A favourable and an adverse event in the hour (docs/ACCOUNTING.md §9)."""
        lifted = self.trailed(self.best, self.stop, h, lo)[1]
        partial = not self.tp1_done and self.reached(self.tp1, h, lo)
        if not partial and not self.reached(self.tp, h, lo) and lifted == self.stop:
            return False
        levels = [self.stop, lifted]
        if partial:
            levels.append(self.trailed(self.best, self.entry, h, lo)[1])
        tightest = levels[0]
        for level in levels[1:]:
            tightest = self.tighter(tightest, level)
        return self.touched(tightest, h, lo)

    def partial_qty(self):
        f = self.p["tp1_frac"]
        close = self.qty if f >= 1.0 else floor_step(self.qty * f)
        if decimal_grid(self.qty - close) < MIN_QTY:
            return self.qty
        return close if close >= MIN_QTY else 0.0

    def exits(self, o, h, lo, fills, target_ref=None):
        """SPEC §6 step 3 on one bar (or minute, or leg): at most one exit. Returns (closed, how) for the ambiguity
        count. A target reached fills at its level or at target_ref (the open unless given) where that is better."""
        ref = o if target_ref is None else target_ref
        gapped = o <= self.stop if self.side > 0 else o >= self.stop
        if gapped:
            fills.append(("stop_gap", o, self.qty))
            return True, "gap"
        if self.touched(self.stop, h, lo):
            fills.append(("stop_loss", self.stop, self.qty))
            return True, "stop"
        if not self.tp1_done and self.reached(self.tp1, h, lo):
            self.tp1_done = True
            price = max(self.tp1, ref) if self.side > 0 else min(self.tp1, ref)
            close = self.partial_qty()
            if close > 0:
                fills.append(("partial_target", price, close))
                self.qty = decimal_grid(self.qty - close) if close < self.qty else 0.0
                if self.qty == 0.0:
                    return True, "target"
            self.stop = self.entry
            return False, "partial"
        if self.reached(self.tp, h, lo):
            price = max(self.tp, ref) if self.side > 0 else min(self.tp, ref)
            fills.append(("target", price, self.qty))
            return True, "target"
        return False, None

    def bar(self, o, h, lo, fills, target_ref=None):
        """Steps 3 and 4 on a bar of these prices. Returns (closed, ambiguous by readings 1-3)."""
        before = (self.best, self.stop, self.tp1_done)
        lifted_from_old = self.trailed(self.best, self.stop, h, lo)[1]
        closed, how = self.exits(o, h, lo, fills, target_ref)
        if closed:
            if how == "stop":
                fav = (not before[2] and self.reached(self.tp1, h, lo)) or self.reached(self.tp, h, lo) or \
                    lifted_from_old != before[1]
                return True, fav
            if how == "target":
                return True, self.touched(lifted_from_old, h, lo)
            return True, False
        ambiguous = how == "partial" and self.p["trail_atr"] <= 0 and self.touched(self.stop, h, lo)
        if self.p["trail_atr"] > 0:
            self.best, self.stop = self.trailed(self.best, self.stop, h, lo)
            ambiguous = ambiguous or self.touched(self.stop, h, lo)
        return False, ambiguous


def legs_of(side, order, o, h, lo, c):
    """The hour as a path for a position on `side`: order +1 the favourable extreme first, -1 the adverse one.
    Five (open, high, low, target reference) legs: to the first extreme, a pause there, to the other, a pause,
    to the close; after the first, a target fills at its level or at the hour's adverse extreme."""
    first, second = (h, lo) if order * side > 0 else (lo, h)
    points = [(o, first), (first, first), (first, second), (second, second), (second, c)]
    adverse = lo if side > 0 else h
    return [(a, max(a, b), min(a, b), a if k == 0 else adverse) for k, (a, b) in enumerate(points)]


def simulate(hours, paths, atr, log, p, legs=0):
    """Every trade's exits from its entry fill. Returns (exit fills keyed by trade, magnified, ambiguous).
    legs +1/-1: an hour that needs a path walks its legs (legs_of) instead of its minutes."""
    by_trade = {}
    for f in log:
        by_trade.setdefault(f["trade"], []).append(f)
    expected = {}
    magnified = ambiguous = 0
    for trade, fills in by_trade.items():
        entry = fills[0]
        assert entry["reason"] == "entry", fills
        e = int(entry["bar"])
        side = 1 if entry["side"] == "buy" else -1
        pos = Bracket(side, float(entry["price"]), float(entry["qty"]), atr[e - 1], p)
        given = {int(f["bar"]): f for f in fills[1:] if f["reason"] in ("signal_exit", "end_of_data")}
        out = []
        for t in range(e, len(hours)):
            if t in given and given[t]["reason"] == "signal_exit":
                out.append((t, "signal_exit", hours[t][1], pos.qty))
                break
            _, o, h, lo, c = hours[t]
            if pos.needs_path(h, lo) and (legs != 0 or t in paths):
                magnified += 1
                minute_fills = []
                closed = False
                walk = legs_of(pos.side, legs, o, h, lo, c) if legs != 0 else \
                    [(mo, mh, ml, None) for _, mo, mh, ml, _ in paths[t]]
                for mo, mh, ml, ref in walk:
                    closed, _ = pos.bar(mo, mh, ml, minute_fills, ref)
                    if closed:
                        break
                out += [(t,) + f for f in minute_fills]
            else:
                hour_fills = []
                closed, was_ambiguous = pos.bar(o, h, lo, hour_fills)
                ambiguous += 1 if was_ambiguous else 0
                out += [(t,) + f for f in hour_fills]
            if closed:
                break
            if t == len(hours) - 1:
                out.append((t, "end_of_data", c, pos.qty))
        expected[trade] = out
    return expected, magnified, ambiguous


# band_reversion's breakouts replayed (Note [Walking the finer bars of a stop entry]): stop entries resting
# beyond the bands, a stop 1-2 ATR from the fill, leverage at most 1 (no liquidation can come near).
BREAKOUT = {"bb_period": 20, "bb_k": 2.0, "atr_period": 14, "mode": 1, "order_bars": 3, "position_fraction": 0.5,
            "allow_short": 1}
BREAKOUTS = [dict(BREAKOUT, entry_atr_frac=0.0, sl_atr=1.0), dict(BREAKOUT, entry_atr_frac=0.3, sl_atr=2.0),
             dict(BREAKOUT, bb_k=1.0, entry_atr_frac=0.1, sl_atr=0.5, order_bars=1),
             # A stop close enough that the minute of the fill often reaches it too.
             dict(BREAKOUT, entry_atr_frac=0.0, sl_atr=0.1)]


def stop_entry_fill(side, price, o, h, lo):
    """Where a stop entry fills on a bar: its open where it opens beyond, its price where the bar reaches it."""
    if side > 0:
        return o if o >= price else (price if h >= price else None)
    return o if o <= price else (price if lo <= price else None)


def stop_exit(side, stop, ref, o, h, lo):
    """The stop from `ref` (the open, or the fill's price) over a bar: (reason, price) or None."""
    if (ref <= stop) if side > 0 else (ref >= stop):
        return "stop_gap", o
    if (lo <= stop) if side > 0 else (h >= stop):
        return "stop_loss", stop
    return None


def simulate_breakouts(hours, paths, upper, lower, atr, log, p):
    """band_reversion in breakout mode, written from docs/ACCOUNTING.md §9 and the strategy's header: the stop
    entries its closes rest and every fill they make, walked on the minutes where an entry fills inside an
    hour that has them. The signal exits and the end of data come from btforge's log (the middle band decides
    them, not the path). Returns ([(bar, reason, price)], magnified, ambiguous)."""
    signal_exits = {int(f["bar"]) for f in log if f["reason"] == "signal_exit"}
    out = []
    magnified = ambiguous = 0
    order = None  # [side, price, last bar, ATR of its bar]
    pos = None    # [side, stop]
    for t, (_, o, h, lo, c) in enumerate(hours):
        if pos and t in signal_exits:
            out.append((t, "signal_exit", o))
            pos = None
        settled = False  # the hour's fill settled its stop too (the steps below are for the rest)
        if pos is None and order and t <= order[2]:
            side, price, _, order_atr = order
            q = stop_entry_fill(side, price, o, h, lo)
            settled = q is not None
            if q is not None and q != o and t in paths:
                magnified += 1
                for _, mo, mh, ml, _ in paths[t]:
                    ref = mo
                    if pos is None and order:
                        mq = stop_entry_fill(side, price, mo, mh, ml)
                        if mq is not None:
                            out.append((t, "resting_entry", mq))
                            pos, order, ref = [side, on_tick(mq - side * p["sl_atr"] * order_atr)], None, mq
                    if pos is None:
                        continue
                    exit_ = stop_exit(pos[0], pos[1], ref, mo, mh, ml)
                    if exit_:
                        out.append((t,) + exit_)
                        pos = None
                        break
            elif q is not None:
                out.append((t, "resting_entry", q))
                pos, order = [side, on_tick(q - side * p["sl_atr"] * order_atr)], None
                exit_ = stop_exit(side, pos[1], q, o, h, lo)
                if exit_:
                    out.append((t,) + exit_)
                    pos = None
                    ambiguous += 1 if q != o else 0  # reading 4: filled inside the hour, then taken out
        if order and t >= order[2]:
            order = None
        if pos and not settled:
            exit_ = stop_exit(pos[0], pos[1], o, o, h, lo)
            if exit_:
                out.append((t,) + exit_)
                pos = None
        if t == len(hours) - 1:
            if pos:
                out.append((t, "end_of_data", c))
            break
        if pos is None and not math.isnan(upper[t]) and not math.isnan(lower[t]) and not math.isnan(atr[t]):
            offset = p["entry_atr_frac"] * atr[t]
            if c > upper[t]:
                side, price = 1, on_tick(upper[t] + offset)
            elif c < lower[t] and p["allow_short"]:
                side, price = -1, on_tick(lower[t] - offset)
            else:
                side = 0
            if side != 0 and price > 0:
                order = [side, price, t + max(1, p["order_bars"]), atr[t]]
    return out, magnified, ambiguous


class IntrabarOracle(e2e.CliTestCase):
    def setUp(self):
        super().setUp()
        minutes = make_minutes(20241129)
        self.hours = resample(minutes)
        self.minute_bars = with_faults(minutes, self.hours, 7)
        self.hours_csv = self.path("hours.csv")
        self.minutes_csv = self.path("minutes.csv")
        self.clean_minutes_csv = self.path("clean_minutes.csv")
        write_bars(self.hours_csv, self.hours)
        write_bars(self.minutes_csv, self.minute_bars)
        write_bars(self.clean_minutes_csv, minutes)
        self.paths = paths_of(self.hours, self.minute_bars)

    def atr(self, period):
        out = self.path("atr.csv")
        self.btforge("indicators", "--name", "ATR", "--param", "period=%d" % period, "--data", self.hours_csv,
                     "--no-market-cache", "-o", out)
        _, rows, _ = e2e.read_csv(out)
        return [float(r["value"]) for r in rows]

    def test_the_minute_file_is_checked_as_the_simulation_checks_it(self):
        p = self.btforge("replay", "--strategy", "default", "--set", "sl_atr=2", "--data", self.hours_csv,
                         "--intrabar", self.minutes_csv,
                         "--no-market-cache", "--trades", self.path("t.csv"), "--equity", self.path("e.csv"))
        missing = len(range(3, HOURS, 30))
        self.assertIn("60 finer bars per bar (1-minute bars in 1-hour bars) from %s: %d of %d bars have their path; "
                      "%d lack finer bars, %d disagree with theirs"
                      % (self.minutes_csv, len(self.paths), HOURS, missing, HOURS - len(self.paths) - missing),
                      p.stderr + p.stdout)
        self.assertGreater(HOURS - len(self.paths) - missing, 0, "no hour of the minute file disagrees with its hour")

    def test_a_finer_file_that_does_not_divide_the_hours_is_refused(self):
        forty_fives = [[k * 2_700_000, 100.0, 100.0, 100.0, 100.0] for k in range(200)]
        write_bars(self.path("45m.csv"), forty_fives)
        p = self.btforge("sweep", "--param", "sl_atr=2", "--data", self.hours_csv, "--intrabar", self.path("45m.csv"),
                         "--no-market-cache", "-o", self.path("refused"), expect=1)
        self.assertIn("finer-bars-do-not-divide", p.stderr)
        self.assertIn("45m.csv", p.stderr)
        self.assertIn("its 45-minute bars do not divide the market's 1-hour bars", p.stderr)
        self.assertFalse(any(name.startswith("refused") for name in os.listdir(self.dir)))

    def replay(self, strategy, p, *settled):
        """`replay` of combination `p` on the hours, the bars `settled` as given (--intrabar FILE or
        --intrabar-order ORDER): the run, its metrics and its fill log."""
        sets = [a for k, v in p.items() for a in ("--set", "%s=%s" % (k, v))]
        trades = self.path("t.csv")
        run = self.btforge("replay", "--strategy", strategy, *sets, "--slippage", "0", "--data", self.hours_csv,
                           *settled, "--no-market-cache", "--trades", trades, "--equity", self.path("e.csv"))
        _, log, _ = e2e.read_csv(trades)
        return run, dict(e2e.parse_metrics(run.stdout)), log

    def test_every_exit_is_the_simulations(self):
        atr = self.atr(BASE["atr_period"])
        totals = {"magnified": 0, "ambiguous": 0, "trades": 0}
        for p in COMBINATIONS:
            with self.subTest(p=p):
                _, metrics, log = self.replay("default", p, "--intrabar", self.minutes_csv)
                self.assertNotIn("liquidation", [f["reason"] for f in log])
                expected, magnified, ambiguous = simulate(self.hours, self.paths, atr, log, p)
                for trade, fills in expected.items():
                    got = [(int(f["bar"]), f["reason"], float(f["price"]), float(f["qty"]))
                           for f in log if f["trade"] == trade][1:]
                    self.assertEqual(got, fills, "trade %s" % trade)
                self.assertEqual(int(metrics["magnified_bars"]), magnified)
                self.assertEqual(int(metrics["ambiguous_bars"]), ambiguous)
                totals["magnified"] += magnified
                totals["ambiguous"] += ambiguous
                totals["trades"] += len(expected)
        # The run must have exercised both paths, or the agreement proves little.
        self.assertGreater(totals["magnified"], 50, totals)
        self.assertGreater(totals["ambiguous"], 0, totals)
        self.assertGreater(totals["trades"], 200, totals)

    def test_every_exit_of_the_legs_is_the_simulations(self):
        atr = self.atr(BASE["atr_period"])
        for order, legs in (("favourable-first", 1), ("adverse-first", -1)):
            walked = trades = 0
            for p in LEG_COMBINATIONS:
                with self.subTest(order=order, p=p):
                    run, metrics, log = self.replay("default", p, "--intrabar-order", order)
                    self.assertIn("order inside a bar: the %s extreme first" % order.split("-")[0], run.stdout)
                    expected, magnified, ambiguous = simulate(self.hours, {}, atr, log, p, legs)
                    for trade, fills in expected.items():
                        got = [(int(f["bar"]), f["reason"], float(f["price"]), float(f["qty"]))
                               for f in log if f["trade"] == trade][1:]
                        self.assertEqual(got, fills, "trade %s" % trade)
                    self.assertEqual(int(metrics["magnified_bars"]), magnified)
                    self.assertEqual(int(metrics["ambiguous_bars"]), 0)
                    self.assertEqual(ambiguous, 0)
                    walked += magnified
                    trades += len(expected)
            self.assertGreater(walked, 50, order)
            self.assertGreater(trades, 200, order)

    def test_the_bounds_file_holds_the_replays_of_each_order(self):
        sets = ["--param", "sl_atr=0.7,1.5", "--param", "tp1_atr=0.6,1.0", "--param", "tp_atr=1.5,3.0"]
        for threads in ("1", "2"):
            self.btforge("sweep", "--strategy", "default", *sets, "--top", "3", "--intrabar-bounds", "--threads",
                         threads, "--data", self.hours_csv, "--no-market-cache", "-o", self.path("bounded" + threads))
        with open(self.path("bounded1.bounds.csv")) as one, open(self.path("bounded2.bounds.csv")) as two:
            self.assertEqual(one.read(), two.read(), "the replays depend on the thread count")
        with open(self.path("bounded1.json")) as f:
            self.assertEqual(json.load(f)["intrabar_bounds"], {"file": "bounded1.bounds.csv", "rows": 3,
                                                               "orders": ["rule", "favourable_first", "adverse_first"]})
        os.rename(self.path("bounded2.csv"), self.path("bounded.csv"))
        os.rename(self.path("bounded2.json"), self.path("bounded.json"))
        os.rename(self.path("bounded2.bounds.csv"), self.path("bounded.bounds.csv"))
        _, ranked, _ = e2e.read_csv(self.path("bounded.csv"))
        _, bounds, _ = e2e.read_csv(self.path("bounded.bounds.csv"))
        self.assertEqual([(r["rank"], r["order"]) for r in bounds],
                         [(str(k), o) for k in (1, 2, 3) for o in ("rule", "favourable_first", "adverse_first")])
        metric_names = [k for k in ranked[0] if k in bounds[0] and k not in ("rank", "combination_id")]
        self.assertIn("sharpe", metric_names)
        for row in ranked:
            mine = [b for b in bounds if b["combination_id"] == row["combination_id"]]
            self.assertEqual({k: mine[0][k] for k in metric_names}, {k: row[k] for k in metric_names})
            for b in mine[1:]:
                run = self.btforge("replay", "--from-results", self.path("bounded.json"), "--combination",
                                   row["combination_id"], "--intrabar-order", b["order"].replace("_", "-"),
                                   "--trades", self.path("t.csv"), "--equity", self.path("e.csv"))
                metrics = dict(e2e.parse_metrics(run.stdout))
                self.assertEqual(metrics["sharpe"], b["sharpe"], b["order"])
                self.assertEqual(metrics["magnified_bars"], b["magnified_bars"], b["order"])
        self.assertTrue(any(b["sharpe"] != bounds[0]["sharpe"] for b in bounds[1:3]),
                        "the orders moved nothing in the best row")
        refused = self.btforge("sweep", "--strategy", "sma_cross", "--intrabar-bounds", "--data", self.hours_csv,
                               "--no-market-cache", "-o", self.path("refused"), expect=2)
        self.assertIn("--intrabar-bounds: strategy 'sma_cross' settles no bar on a path inside it", refused.stderr)
        self.assertIn("these can: band_reversion, default", refused.stderr)

    def test_every_breakout_fill_is_the_simulations(self):
        walked = ambiguous_total = 0
        for p in BREAKOUTS:
            with self.subTest(p=p):
                bands = self.path("bb.csv")
                self.btforge("indicators", "--name", "BBANDS", "--param", "period=%d" % p["bb_period"], "--param",
                             "k=%r" % p["bb_k"], "--data", self.hours_csv, "--no-market-cache", "-o", bands)
                _, rows, _ = e2e.read_csv(bands)
                upper, lower = [float(r["upper"]) for r in rows], [float(r["lower"]) for r in rows]
                _, metrics, log = self.replay("band_reversion", p, "--intrabar", self.minutes_csv)
                expected, magnified, ambiguous = simulate_breakouts(self.hours, self.paths, upper, lower,
                                                                    self.atr(p["atr_period"]), log, p)
                self.assertEqual([(int(f["bar"]), f["reason"], float(f["price"])) for f in log], expected)
                self.assertEqual(int(metrics["magnified_bars"]), magnified)
                self.assertEqual(int(metrics["ambiguous_bars"]), ambiguous)
                walked += magnified
                ambiguous_total += ambiguous
        # Both kinds of hour must have come up, or the agreement proves little.
        self.assertGreater(walked, 30, walked)
        self.assertGreater(ambiguous_total, 0, ambiguous_total)
        print("breakouts: %d hours walked, %d left to the rule" % (walked, ambiguous_total))

    def test_band_reversion_favourable_first_is_its_rule(self):
        # Reading 4 of Note [Ambiguous bars]: the rule fills a stop entry inside the bar and then lets the
        # bar's adverse extreme meet the stop, which is the favourable extreme first. So band_reversion's
        # favourable-first legs (Note [Walking the finer bars of a stop entry]) must give the rule's rows
        # exactly, the bars they settle aside, while the adverse extreme first moves some.
        self.btforge("sweep", "--strategy", "band_reversion", "--param", "mode=1", "--param",
                     "position_fraction=0.5,10", "--param", "sl_atr=1,20", "--param", "order_bars=3",
                     "--intrabar-bounds", "--all-rows", "-o", self.path("breakout"))
        _, bounds, _ = e2e.read_csv(self.path("breakout.bounds.csv"))
        self.assertEqual(len(bounds), 12)
        settled = ("rank", "order", "magnified_bars", "ambiguous_bars")
        moved = 0
        for rule, favourable, adverse in zip(bounds[0::3], bounds[1::3], bounds[2::3]):
            self.assertEqual((rule["order"], favourable["order"], adverse["order"]),
                             ("rule", "favourable_first", "adverse_first"))
            self.assertEqual({k: v for k, v in rule.items() if k not in settled},
                             {k: v for k, v in favourable.items() if k not in settled}, rule["rank"])
            self.assertEqual(rule["magnified_bars"], "0")
            self.assertGreater(int(favourable["magnified_bars"]), 1000)
            self.assertEqual(favourable["ambiguous_bars"], "0")
            moved += adverse["sharpe"] != rule["sharpe"]
        self.assertGreater(sum(int(r["ambiguous_bars"]) for r in bounds[0::3]), 100)
        with open(self.path("breakout.json")) as f:
            self.assertEqual(json.load(f)["intrabar_bounds"]["rows"], 4)
        self.assertGreater(moved, 0)

    def test_minutes_that_all_agree_leave_no_ambiguous_bar_to_the_rule(self):
        grid = self.write_json("grid.json", {"strategy": "default", "parameters": dict(
            {k: {"values": [v]} for k, v in BASE.items()},
            sl_atr={"values": [0.7, 1.5]}, tp1_atr={"values": [0.6, 1.0, 50]}, tp_atr={"values": [1.5, 3.0]},
            trail_activate_atr={"values": [0.5, 100]}, trail_atr={"values": [0, 0.8]})})
        self.btforge("sweep", "--strategy", "default", "--grid", grid, "--all-rows", "--data", self.hours_csv,
                     "--no-market-cache", "-o", self.path("hourly"))
        self.btforge("sweep", "--strategy", "default", "--grid", grid, "--all-rows", "--data", self.hours_csv,
                     "--intrabar", self.clean_minutes_csv, "--no-market-cache", "-o", self.path("minutes"))
        _, hourly, _ = e2e.read_csv(self.path("hourly.csv"))
        _, magnified, _ = e2e.read_csv(self.path("minutes.csv"))
        hourly = {r["combination_id"]: r for r in hourly}
        magnified = {r["combination_id"]: r for r in magnified}
        self.assertEqual(sorted(hourly), sorted(magnified))
        self.assertTrue(all(int(r["magnified_bars"]) == 0 for r in hourly.values()))
        self.assertGreater(sum(int(r["ambiguous_bars"]) for r in hourly.values()), 100)
        self.assertEqual([r["ambiguous_bars"] for r in magnified.values()], ["0"] * len(magnified))
        # A row the hours left to the rule had its ambiguous bars settled on the minutes.
        for cid, row in hourly.items():
            if int(row["ambiguous_bars"]) > 0:
                self.assertGreater(int(magnified[cid]["magnified_bars"]), 0, cid)


if __name__ == "__main__":
    e2e.main()
