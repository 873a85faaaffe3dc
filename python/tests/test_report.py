"""The report renders in headless Chromium with every chart and no script error."""

import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import btforge
import btforge.report


def chromium() -> str:
    for name in (os.environ.get("BTFORGE_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    pytest.fail("no headless Chromium (Debian's chromium package; scripts/install-deps --test installs it)")


FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
         "--virtual-time-budget=30000"]


def render(page, screenshot):
    """The page's own check (Note [A report that checks itself]), read from the DOM after its scripts ran."""
    url = "file://" + os.path.abspath(page)
    dom = subprocess.run([chromium(), *FLAGS, "--dump-dom", url], capture_output=True, text=True, timeout=300)
    assert dom.returncode == 0, dom.stderr[-2000:]
    status = re.search(r'<p id="btforge-report-status" data-charts="(\d+)" data-drawn="(\d+)" data-errors="(\d+)">'
                       r'([^<]*)', dom.stdout)
    assert status, "the page's check did not run: " + dom.stdout[-500:]
    shot = subprocess.run([chromium(), *FLAGS, "--window-size=1280,6000", f"--screenshot={screenshot}", url],
                          capture_output=True, text=True, timeout=300)
    assert shot.returncode == 0 and os.path.getsize(screenshot) > 10_000, shot.stderr[-2000:]
    return int(status.group(1)), int(status.group(2)), int(status.group(3)), status.group(4)


def test_report_of_a_python_sweep(tmp_path, artifacts):
    market = btforge.Market.synthetic(bars=4000)
    result = btforge.sweep(market, params=["ema_fast=8,12,20", "sl_atr=1.5,2,3", "tp_atr=3,5"], all_rows=True,
                           walk_forward="rolling:4", pbo=True, threads=2, backend="cpu", progress=False)
    page = result.report(tmp_path / "report.html")
    charts, drawn, errors, text = render(page, artifacts / "report-python.png")
    # walk-forward, PBO, a heatmap for each of the three pairs, three stability plots, the replay's equity,
    # monthly returns and trades on the price
    assert (charts, drawn, errors) == (11, 11, 0), text
    html = open(page, encoding="utf-8").read()
    for pair in ("ema_fast x sl_atr", "ema_fast x tp_atr", "sl_atr x tp_atr"):
        assert f"max sharpe over {pair}" in html
    assert "https://" not in html.split("<script type=\"text/javascript\">", 1)[0]  # nothing fetched: offline
    assert result.summary["market"] in html and result.verdict.split(":")[0] in html


def test_report_of_cli_result_files(run_cli, tmp_path, artifacts):
    run_cli("sweep", "--synthetic-bars", "4000", "--param", "ema_fast=8,12", "--param", "sl_atr=1.5,3",
            "--all-rows", "--pbo", "--threads", "2", "--backend", "cpu", "-o", "r")
    done = subprocess.run([sys.executable, "-m", "btforge.report", "r.json", "-o", "r.html"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    charts, drawn, errors, text = render(tmp_path / "r.html", artifacts / "report-cli.png")
    # PBO, heatmap, two stability plots, the replay's equity, monthly returns and trades on the price (replayed
    # from the JSON's inputs)
    assert (charts, drawn, errors) == (7, 7, 0), text
    page = open(tmp_path / "r.html", encoding="utf-8").read()
    assert "<h3>By symbol</h3>" in page and "<h3>Trades</h3>" in page and "<h3>Statistics</h3>" in page
    assert "buy and hold return" in page and "longest drawdown" in page


def test_report_says_what_is_undefined(run_cli, tmp_path, artifacts):
    """Note [Undefined statistics]: one combination has no PBO (it was "PBO 1.00 ... most likely overfit");
    the report says why instead of a number, and draws what is defined."""
    run_cli("sweep", "--synthetic-bars", "3000", "--param", "ema_fast=12", "--pbo", "--periods", "4",
            "--walk-forward", "rolling:2", "--threads", "2", "--backend", "cpu", "-o", "one")
    done = subprocess.run([sys.executable, "-m", "btforge.report", "one.json", "-o", "one.html", "--no-replay"],
                          cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    charts, drawn, errors, text = render(tmp_path / "one.html", artifacts / "report-undefined.png")
    assert (charts, drawn, errors) == (1, 1, 0), text  # the walk-forward; no PBO histogram
    page = open(tmp_path / "one.html", encoding="utf-8").read()
    assert "Undefined, and why" in page
    assert "<code>/pbo/pbo</code>: one combination: nothing was selected" in page
    assert "<code>/walk_forward/efficiency</code>: one combination: nothing was selected" in page
    assert "most likely overfit" not in page
    result = btforge.report.load_result(str(tmp_path / "one.json"))
    assert result.pbo["pbo"] is None and result.pbo["pbo_undefined"] == "one combination: nothing was selected"
    assert ("/pbo/pbo", "one combination: nothing was selected") in btforge.report.undefined_statistics(
        result.validation)


def test_heatmap_colours_are_centred_on_zero():
    """Note [Heatmap colours]: red below zero and green above it, whatever the other cells' range; turned
    round where less is better; a count from its minimum."""
    market = btforge.Market.synthetic(bars=2000)
    result = btforge.sweep(market, params=["ema_fast=8,12", "sl_atr=1.5,3"], threads=2, backend="cpu",
                           progress=False)
    sharpe = btforge.plots.heatmap(result, "ema_fast", "sl_atr").data[0]
    assert sharpe.zmid == 0 and not sharpe.reversescale
    assert sharpe.colorscale[0][1] == "rgb(165,0,38)" and sharpe.colorscale[-1][1] == "rgb(0,104,55)"  # red, green
    drawdown = btforge.plots.heatmap(result, "ema_fast", "sl_atr", metric="max_drawdown").data[0]
    assert drawdown.zmid == 0 and drawdown.reversescale
    count = btforge.plots.heatmap(result, "ema_fast", "sl_atr", agg="count").data[0]
    assert count.zmid is None and count.colorscale[0][1] != sharpe.colorscale[0][1]


def test_monthly_returns_and_symbols_of_a_replay():
    """Worked by hand: equity 100 -> 110 at January's last bar -> 99 at February's -> 99 in March."""
    times = pd.to_datetime(["2024-01-01 00:00", "2024-01-31 23:00", "2024-02-10 00:00", "2024-02-29 23:00",
                            "2024-03-15 00:00"], utc=True)
    equity = pd.Series([100.0, 110.0, 120.0, 99.0, 99.0], index=pd.DatetimeIndex(times, name="time"))
    trips = pd.DataFrame({"trade": [0, 1, 2], "symbol": ["A", "B", "A"], "net_pnl": [10.0, -4.0, -1.0],
                          "fees": [1.0, 0.5, 0.25], "funding": [0.0, 0.1, 0.0]})
    replay = btforge.Replay("default", {}, {}, pd.DataFrame(), trips, equity, 100.0, "", equity * 0.0, {},
                            pd.DataFrame())
    returns = replay.monthly_returns
    assert [str(p) for p in returns.index] == ["2024-01", "2024-02", "2024-03"]
    assert returns.tolist() == pytest.approx([0.10, 99.0 / 110.0 - 1.0, 0.0], abs=1e-15)
    figure = btforge.plots.monthly_returns(replay).data[0]
    assert figure.zmid == 0 and list(figure.y) == ["2024"] and figure.z[0][1] == pytest.approx(-10.0)
    table = replay.by_symbol()
    assert table.loc["A"].tolist() == [2, 1, 0.5, 9.0, 1.25, 0.0, 10.0, -1.0]
    assert table.loc["B"].tolist() == [1, 0, 0.0, -4.0, 0.5, 0.1, -4.0, -4.0]


def _best_replay():
    market = btforge.Market.synthetic(bars=4000)
    result = btforge.sweep(market, params=["ema_fast=8,12,20", "sl_atr=1.5,2,3"], top=3, threads=2, backend="cpu",
                           progress=False)
    return market, result.replay(1)


def test_replay_statistics_against_an_independent_count():
    """Note [Statistics of a replay] recomputed here, without the engine, from the replay's equity and round
    trips and the market's own columns (docs/SPEC.md §7's definitions)."""
    market, best = _best_replay()
    equity, e0 = best.equity.to_numpy(), best.initial_equity
    def ms(index):
        return np.asarray((index - pd.Timestamp(0, tz="UTC")) // pd.Timedelta(milliseconds=1))

    stamps = ms(market.timestamps)
    bars_per_year = 365.25 * 24 * 3600 * 1000 / float(np.median(np.diff(stamps)))
    returns = equity / np.concatenate([[e0], equity[:-1]]) - 1.0
    runs, peak, start = [], e0, None  # (first bar under water, the bar back at the peak or None)
    for t, value in enumerate(equity):
        if value >= peak:
            if start is not None:
                runs.append((start, t))
            peak, start = value, None
        elif start is None:
            start = t
    if start is not None:
        runs.append((start, None))
    n, times = len(equity), ms(best.equity.index)
    first, back = max(runs, key=lambda r: (r[1] or n) - r[0])  # the first of the longest
    longest = (back or n) - first
    duration = times[back if back is not None else n - 1] - times[max(first - 1, 0)]
    # buy and hold: equal shares at each symbol's first open in the window, valued at its last close
    window = best.equity.index
    opens, closes = market.column("open").loc[window], market.column("close").loc[window]
    tradable = market.column("tradable").loc[window].astype(bool)
    held = [s for s in market.symbols if tradable[s].any()]
    share = e0 / len(held)
    hold = sum(share * closes[s][tradable[s]].iloc[-1] / opens[s][tradable[s]].iloc[0] for s in held)
    s = best.statistics
    assert s["cagr"] == pytest.approx((equity[-1] / e0) ** (bars_per_year / len(equity)) - 1.0, rel=1e-12)
    assert s["volatility"] == pytest.approx(returns.std() * np.sqrt(bars_per_year), rel=1e-12)
    assert (s["max_drawdown_bars"], s["max_drawdown_duration"]) == (longest, pd.Timedelta(milliseconds=duration))
    assert longest > 0
    assert (s["best_trade"], s["worst_trade"]) == (best.round_trips["net_pnl"].max(), best.round_trips["net_pnl"].min())
    assert s["buy_and_hold_return"] == pytest.approx(hold / e0 - 1.0, rel=1e-12)
    assert best.benchmark.iloc[-1] == pytest.approx(hold, rel=1e-12)


def test_trades_drawn_on_the_price():
    """Note [Trades on the price]: a segment per round trip, green for a win and red for a loss, an entry
    marker pointing the trade's way, all in WebGL traces."""
    _, best = _best_replay()
    trips = best.round_trips
    symbol = trips["symbol"].value_counts().idxmax()
    own = trips[trips["symbol"] == symbol]
    figure = btforge.plots.trades(best)
    traces = {t.name: t for t in figure.data}
    assert all(t.type == "scattergl" for t in figure.data)
    assert np.array_equal(traces[f"{symbol} close"].y, best.closes[symbol].to_numpy(), equal_nan=True)
    wins, losses = own[own["net_pnl"] > 0], own[own["net_pnl"] <= 0]
    assert len(wins) > 0 and len(losses) > 0
    for name, chosen, colour in (("winning trades", wins, "#2ca02c"), ("losing trades", losses, "#d62728")):
        segments = traces[name]
        assert segments.line.color == colour
        assert list(segments.y[0::3]) == chosen["entry_price"].tolist()
        assert list(segments.y[1::3]) == chosen["exit_price"].tolist()
        assert all(x is None for x in segments.x[2::3])
    longs, shorts = (own["side"] == "long").sum(), (own["side"] == "short").sum()
    for name, count in (("long entries", longs), ("short entries", shorts)):
        assert (len(traces[name].x) if name in traces else 0) == count
    if longs:
        assert traces["long entries"].marker.symbol == "triangle-up"
    if shorts:
        assert traces["short entries"].marker.symbol == "triangle-down"
    with pytest.raises(ValueError, match="has no fill"):
        btforge.plots.trades(best, "NOSUCH")


def test_a_broken_chart_is_caught(tmp_path):
    """The check can fail: a page whose chart cannot draw reports it."""
    market = btforge.Market.synthetic(bars=2000)
    result = btforge.sweep(market, params=["ema_fast=8,12", "sl_atr=1.5,3"], threads=2, backend="cpu",
                           progress=False)
    page = result.report(tmp_path / "report.html", replay=False)
    html = open(page, encoding="utf-8").read()
    broken = html.replace("Plotly.newPlot(", "Plotly.noSuchFunction(", 1)
    (tmp_path / "broken.html").write_text(broken, encoding="utf-8")
    charts, drawn, errors, _ = render(tmp_path / "broken.html", tmp_path / "broken.png")
    assert drawn == charts - 1 and errors >= 1
