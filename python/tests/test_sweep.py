"""btforge.sweep is `btforge sweep`: the same rows, summary and evidence."""

import importlib.metadata
import json
import pathlib
import re
import shutil
import subprocess
import threading
import time
import _thread

import numpy as np
import pandas as pd
import pytest

import btforge
from btforge._csv import read_csv

BARS = 3000
SYNTH = ["--synthetic-bars", str(BARS)]
PARAMS = ["ema_fast=8,12,20", "sl_atr=1.5,2,3", "tp_atr=3,5", "mode=0,1"]


def cli_params():
    out = []
    for p in PARAMS:
        out += ["--param", p]
    return out


def cli_table(path, result):
    """The CLI's CSV typed as the DataFrame is (a float column whose kept
    values are whole numbers reads back as integers)."""
    return read_csv(path).astype(result.table.dtypes.to_dict())


@pytest.mark.parametrize("rank_by", ["sharpe", "total_return"])
def test_table_equals_the_cli_csv(run_cli, tmp_path, rank_by):
    market = btforge.Market.synthetic(bars=BARS)
    result = btforge.sweep(market, params=PARAMS, rank_by=rank_by, top=10, threads=2, backend="cpu",
                           progress=False)
    run_cli("sweep", *SYNTH, *cli_params(), "--rank-by", rank_by, "--top", "10", "--threads", "2", "--backend",
            "cpu", "-o", "r")
    pd.testing.assert_frame_equal(result.table, cli_table(tmp_path / "r.csv", result), check_exact=True)
    summary = json.loads((tmp_path / "r.json").read_text())
    rows = summary.pop("rows")
    assert len(rows) == len(result.table) == 10
    for key in ("seconds", "cells_per_second"):
        summary.pop(key), result.summary.pop(key)
    assert result.summary == summary


def test_intrabar_bounds_equal_the_cli(run_cli, tmp_path):
    # Note [Bounds of the order inside a bar]: the same file, read back the same way.
    market = btforge.Market.synthetic(bars=BARS)
    result = btforge.sweep(market, params=PARAMS, top=5, intrabar_bounds=True, threads=2, backend="cpu",
                           progress=False)
    run_cli("sweep", *SYNTH, *cli_params(), "--top", "5", "--intrabar-bounds", "--threads", "2", "--backend", "cpu",
            "-o", "r")
    pd.testing.assert_frame_equal(result.bounds, read_csv(tmp_path / "r.bounds.csv"), check_exact=True)
    assert list(result.bounds["order"][:3]) == ["rule", "favourable_first", "adverse_first"]
    assert btforge.sweep(market, params=PARAMS, top=5, threads=2, backend="cpu", progress=False).bounds is None


def test_every_row_and_validation_equal_the_cli(run_cli, tmp_path):
    market = btforge.Market.synthetic(bars=BARS)
    result = btforge.sweep(market, params=PARAMS, all_rows=True, walk_forward="rolling:4", pbo=True, cpcv="2:1",
                           spa="300:4", returns=48, spa_seed=3, spa_benchmark="hold", threads=2, backend="cpu",
                           progress=False)
    run_cli("sweep", *SYNTH, *cli_params(), "--all-rows", "--walk-forward", "rolling:4", "--pbo", "--cpcv", "2:1",
            "--spa", "300:4", "--returns", "48", "--spa-seed", "3", "--spa-benchmark", "hold", "--threads", "2",
            "--backend", "cpu", "-o", "r")
    assert len(result.table) == result.summary["combinations"] == 36
    pd.testing.assert_frame_equal(result.table, cli_table(tmp_path / "r.csv", result), check_exact=True)
    # Note [Distinct outcomes]: every row names its outcome; mode 1 reads no
    # EMA, so its combinations fall into outcomes of three each.
    outcomes = result.table.groupby("outcome_first_id")
    assert result.distinct_outcomes == outcomes.ngroups < 36
    assert (outcomes.size() == outcomes["outcome_combinations"].first()).all()
    assert (outcomes["combination_id"].min() == outcomes.size().index).all()
    assert (result.table[result.table["mode"] == 1]["outcome_combinations"] % 3 == 0).all()
    validation = json.loads((tmp_path / "r.validation.json").read_text())
    ours = dict(result.validation)
    ours.pop("text")
    assert ours == validation
    walk_forward = read_csv(tmp_path / "r.walkforward.csv").astype(result.walk_forward.dtypes.to_dict())
    pd.testing.assert_frame_equal(result.walk_forward, walk_forward, check_exact=True)
    assert 0.0 <= result.pbo["pbo"] <= 1.0 and result.verdict
    assert len(result.validation["cpcv"]["paths"]) == 15  # C(15, 1) of 16 periods
    spa = result.validation["spa"]
    assert (spa["observations"], spa["resamples"], spa["mean_block"], spa["seed"]) == (48, 300, 4.0, 3)
    assert spa["benchmark"] == "buy and hold"
    assert 0.0 <= spa["spa_pvalue"] <= spa["reality_check_pvalue"] <= 1.0
    # Note [Effective number of trials], Note [The verdict]: all four tests ran.
    effective = result.validation["effective_trials"]
    assert sum(c["members"] for c in effective["clusters"]) + effective["left_out"] == 36
    assert result.validation["decision"] in ("evidence of an edge", "no evidence of an edge")
    assert [c["ran"] for c in result.validation["checks"]] == [True] * 4


def test_returns_alone_cluster_the_trials_as_the_cli(run_cli, tmp_path):
    market = btforge.Market.synthetic(bars=BARS)
    result = btforge.sweep(market, params=PARAMS, returns=32, spa_seed=5, threads=2, backend="cpu", progress=False)
    run_cli("sweep", *SYNTH, *cli_params(), "--returns", "32", "--spa-seed", "5", "--threads", "2", "--backend", "cpu",
            "-o", "r")
    ours = dict(result.validation)
    ours.pop("text")
    assert ours == json.loads((tmp_path / "r.validation.json").read_text())
    assert ours["effective_trials"]["seed"] == 5 and "spa" not in ours


def test_daily_returns_equal_the_cli(run_cli, tmp_path):
    # Note [Equity marks at UTC days]: returns="daily" is --returns daily.
    market = btforge.Market.synthetic(bars=BARS)
    result = btforge.sweep(market, params=PARAMS, spa="200", returns="daily", spa_seed=2, threads=2, backend="cpu",
                           progress=False)
    run_cli("sweep", *SYNTH, *cli_params(), "--spa", "200", "--returns", "daily", "--spa-seed", "2", "--threads", "2",
            "--backend", "cpu", "-o", "d")
    ours = dict(result.validation)
    ours.pop("text")
    assert ours == json.loads((tmp_path / "d.validation.json").read_text())
    assert ours["spa"]["observations_are"] == "utc_days"


def test_min_trades_equals_the_cli(run_cli, tmp_path):
    """Note [Rows with few trades]: min_trades is --min-trades; rows with fewer
    trades are marked and rank after the others (here 71 trades ranked 7th)."""
    market = btforge.Market.synthetic(bars=BARS)
    result = btforge.sweep(market, params=PARAMS, min_trades=100, all_rows=True, threads=2, backend="cpu",
                           progress=False)
    run_cli("sweep", *SYNTH, *cli_params(), "--min-trades", "100", "--all-rows", "--threads", "2", "--backend",
            "cpu", "-o", "r")
    pd.testing.assert_frame_equal(result.table, cli_table(tmp_path / "r.csv", result), check_exact=True)
    assert result.summary["min_trades"] == 100
    enough = result.table["enough_trades"]
    assert enough.dtype == bool
    assert (enough == (result.table["n_trades"] >= 100)).all()
    assert enough.any() and not enough.all()
    first_few = int(np.argmin(enough.to_numpy()))
    assert enough.iloc[:first_few].all() and not enough.iloc[first_few:].any()
    plain = btforge.sweep(market, params=PARAMS, min_trades=0, all_rows=True, threads=2, backend="cpu",
                          progress=False)
    assert plain.table["enough_trades"].all()
    assert list(plain.table["sharpe"]) == sorted(plain.table["sharpe"], reverse=True)
    assert list(plain.table["combination_id"]) != list(result.table["combination_id"])


def test_a_conditional_axis_runs_fewer_combinations_and_loses_no_outcome(run_cli, tmp_path):
    # Note [Conditional axes]: the default strategy reads ema_fast in mode 0 only.
    market = btforge.Market.synthetic(bars=BARS)
    plain = {"ema_fast": [8, 12, 20], "mode": [0, 1], "sl_atr": [1.5, 3]}
    conditional = dict(plain, ema_fast={"values": [8, 12, 20], "when": {"mode": [0]}})
    full = btforge.sweep(market, grid=plain, top=100, min_trades=0, threads=2, backend="cpu", progress=False)
    fewer = btforge.sweep(market, grid=conditional, top=100, min_trades=0, threads=2, backend="cpu",
                          progress=False)
    assert full.summary["combinations"] == 12 and fewer.summary["combinations"] == 8
    assert fewer.distinct_outcomes == full.distinct_outcomes
    same = [c for c in full.table.columns if c != "outcome_combinations"]
    pd.testing.assert_frame_equal(fewer.table[same], full.table[same], check_exact=True)
    run_cli("sweep", *SYNTH, "--param", "ema_fast=8,12,20 when mode=0", "--param", "mode=0,1", "--param",
            "sl_atr=1.5,3", "--top", "100", "--min-trades", "0", "--threads", "2", "--backend", "cpu", "-o", "r")
    pd.testing.assert_frame_equal(fewer.table, cli_table(tmp_path / "r.csv", fewer), check_exact=True)
    # Note [Parameters a mode reads]: "when": "spec" is the spec's proven claim, mode 0 here.
    from_spec = dict(plain, ema_fast={"values": [8, 12, 20], "when": "spec"})
    proven = btforge.sweep(market, grid=from_spec, top=100, min_trades=0, threads=2, backend="cpu", progress=False)
    pd.testing.assert_frame_equal(proven.table, fewer.table, check_exact=True)


def test_grid_dict_equals_the_grid_file(tmp_path):
    grid = {"ema_fast": [8, 12], "sl_atr": {"range": {"start": 1.5, "stop": 3, "step": 0.5}}}
    document = {"strategy": "default", "parameters": {"ema_fast": {"values": [8, 12]},
                                                      "sl_atr": {"range": {"start": 1.5, "stop": 3, "step": 0.5}}}}
    (tmp_path / "g.json").write_text(json.dumps(document))
    market = btforge.Market.synthetic(bars=BARS)
    by_dict = btforge.sweep(market, grid=grid, threads=2, backend="cpu", progress=False)
    by_file = btforge.sweep(market, grid=str(tmp_path / "g.json"), threads=2, backend="cpu", progress=False)
    assert by_dict.summary["combinations"] == 8
    pd.testing.assert_frame_equal(by_dict.table, by_file.table, check_exact=True)


def test_replay_equals_its_row():
    market = btforge.Market.synthetic(bars=BARS)
    result = btforge.sweep(market, params=PARAMS, top=3, threads=2, backend="cpu", progress=False)
    for rank in (1, 3):
        replay = result.replay(rank)
        row = result.table.iloc[rank - 1]
        for name, value in replay.metrics.items():
            assert row[name] == value or (np.isnan(row[name]) and np.isnan(value)), name
        assert replay.equity.iloc[-1] == row["final_equity"]
        assert len(replay.equity) == BARS
        assert replay.round_trips["net_pnl"].sum() == pytest.approx(row["net_pnl"], rel=1e-9, abs=1e-9)
        assert (replay.fills["reason"] == "entry").sum() + (replay.fills["reason"] == "resting_entry").sum() >= 1
    by_values = btforge.replay(market, values=result.replay(1).parameters)
    assert by_values.metrics == result.replay(1).metrics


def test_replay_equals_the_cli_trade_log(run_cli, tmp_path):
    market = btforge.Market.synthetic(bars=BARS)
    replay = btforge.replay(market, combination=5, params=PARAMS)
    printed = run_cli("replay", *SYNTH, *cli_params(), "--combination", "5", "--trades", "t.csv", "--equity",
                      "e.csv", "--round-trips", "rt.csv").stdout
    # Note [Statistics of a replay]: the command line prints the values the package returns.
    statistics = dict(re.findall(r"^  ([a-z_]+): (\S+)$", printed, re.M))
    ours = dict(replay.statistics)
    ours["max_drawdown_duration_ms"] = ours.pop("max_drawdown_duration") // pd.Timedelta(milliseconds=1)
    assert statistics.keys() == ours.keys()
    for name, text in statistics.items():
        assert float(text) == ours[name] or (np.isnan(float(text)) and np.isnan(ours[name])), name
    fills = read_csv(tmp_path / "t.csv")
    fills["time"] = pd.to_datetime(fills["time"], utc=True)
    pd.testing.assert_frame_equal(replay.fills, fills.astype(replay.fills.dtypes.to_dict()), check_exact=True)
    equity = read_csv(tmp_path / "e.csv")
    assert np.array_equal(replay.equity.to_numpy(), equity["equity"].to_numpy())


# Errors: the command line's messages, as exceptions with their location.
ERROR_CASES = [
    ({"top": 0}, btforge.UsageError, "--top must be in 1..1000000"),
    ({"rank_by": "luck"}, btforge.UsageError, "unknown metric 'luck'"),
    ({"walk_forward": "sideways:3"}, btforge.UsageError, "--walk-forward"),
    ({"strategy": "nope"}, btforge.BtforgeError, "unknown strategy 'nope'"),
    ({"grid": {"sl_atr": {"range": {"start": 1, "stop": 3, "step": 0}}}}, btforge.SpecError, "/parameters/sl_atr"),
    ({"grid": {"no_such": [1, 2]}}, btforge.SpecError, "no_such"),
    ({"taker_fee": 0.5}, btforge.SpecError, "--taker-fee"),
    ({"margin_mode": "sideways"}, btforge.UsageError, "--margin-mode must be cross or isolated"),
    ({"start": "2030-01-01"}, btforge.BtforgeError, "2030-01-01"),
]


@pytest.mark.parametrize("arguments,error,text", ERROR_CASES)
def test_errors_are_the_cli_messages(arguments, error, text):
    market = btforge.Market.synthetic(bars=BARS)
    with pytest.raises(error) as raised:
        btforge.sweep(market, threads=2, backend="cpu", progress=False, **arguments)
    assert text in str(raised.value)


def test_grid_errors_carry_their_json_path():
    with pytest.raises(btforge.SpecError) as raised:
        btforge.sweep(btforge.Market.synthetic(bars=BARS), grid={"sl_atr": {"range": {"start": 1, "stop": 3, "step": 0}}},
                      progress=False)
    assert raised.value.origin == "<grid dict>"
    assert raised.value.json_pointer == "/parameters/sl_atr/range/step"


def test_the_gil_is_released_while_it_runs():
    market = btforge.Market.synthetic(bars=BARS)
    ticks = [0]
    stop = threading.Event()

    def count():
        while not stop.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        result = btforge.sweep(market, threads=1, backend="cpu", progress=False)
    finally:
        stop.set()
        counter.join()
    # About one tick per millisecond of the sweep; a held GIL would give a handful.
    assert result.seconds > 0.2
    assert ticks[0] > 0.25 * 1000 * result.seconds


def test_ctrl_c_stops_the_run():
    # 13824 combinations x 4 symbols x 17520 bars on one thread: 9.7e8 cells,
    # about 10 s at the reference's 1e8 cells/s a core.
    market = btforge.Market.synthetic()
    grid = {"ema_fast": [8, 12, 20], "ema_slow": [40, 80], "rsi_period": [14, 21], "sl_atr": [1.5, 2, 3],
            "tp_atr": [3, 5], "mode": [0, 1], "adx_min": [15, 25], "cooldown_bars": [2, 4, 8],
            "max_hold_bars": [120, 480], "bb_k": [2, 2.5], "trail_atr": [0, 1.5], "risk_per_trade": [0.005, 0.01]}
    timer = threading.Timer(0.5, _thread.interrupt_main)
    began = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        btforge.sweep(market, grid=grid, threads=1, backend="cpu", progress=False)
    timer.join()
    assert time.perf_counter() - began < 3.0


def test_one_version(cli, run_cli, tmp_path):
    """Note [One version]: the wheel's metadata, the extension, the command line and a result JSON all name
    the version of the root CMakeLists.txt, and CHANGELOG.md has a section for it; Note [The commit of a
    build]: the extension, the command line and the JSON name the commit of this tree."""
    root = pathlib.Path(__file__).resolve().parents[2]
    version = re.search(r"^project\(btforge VERSION ([0-9]+\.[0-9]+\.[0-9]+)", (root / "CMakeLists.txt").read_text(),
                        re.M).group(1)
    assert importlib.metadata.version("btforge") == version
    assert btforge.__version__ == version
    build = btforge.build_info()
    assert build["version"] == version
    if shutil.which("git"):  # CI's fresh root has no git: the build read HEAD's file
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
        assert build["commit"].removesuffix("+modified") == head, (
            f"the installed package was built at {build['commit']}, this tree is at {head}: reinstall it "
            "(scripts/test does: pip install ./python)")
    assert re.fullmatch(r"[0-9a-f]{40}(\+modified)?", build["commit"])
    shown = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True).stdout
    assert shown == f"btforge {version} (commit {build['commit']})\n"
    run_cli("sweep", "--synthetic-bars", "500", "--param", "ema_fast=8", "--threads", "1", "--backend", "cpu",
            "-o", "v")
    written = json.loads((tmp_path / "v.json").read_text())
    assert written["identity"]["btforge"] == version
    assert written["build"] == {"version": version, "commit": build["commit"]}
    assert re.search(rf"^## {re.escape(version)} ", (root / "CHANGELOG.md").read_text(), re.M)
