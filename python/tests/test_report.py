"""The report renders in headless Chromium with every chart and no script error."""

import os
import re
import shutil
import subprocess
import sys

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
    # walk-forward, PBO, a heatmap for each of the three pairs, three stability plots, the replay's equity
    # and monthly returns
    assert (charts, drawn, errors) == (10, 10, 0), text
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
    # PBO, heatmap, two stability plots, the replay's equity and monthly returns (replayed from the JSON's inputs)
    assert (charts, drawn, errors) == (6, 6, 0), text
    page = open(tmp_path / "r.html", encoding="utf-8").read()
    assert "<h3>By symbol</h3>" in page and "<h3>Trades</h3>" in page


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
    replay = btforge.Replay("default", {}, {}, pd.DataFrame(), trips, equity, 100.0, "")
    returns = replay.monthly_returns
    assert [str(p) for p in returns.index] == ["2024-01", "2024-02", "2024-03"]
    assert returns.tolist() == pytest.approx([0.10, 99.0 / 110.0 - 1.0, 0.0], abs=1e-15)
    figure = btforge.plots.monthly_returns(replay).data[0]
    assert figure.zmid == 0 and list(figure.y) == ["2024"] and figure.z[0][1] == pytest.approx(-10.0)
    table = replay.by_symbol()
    assert table.loc["A"].tolist() == [2, 1, 0.5, 9.0, 1.25, 0.0, 10.0, -1.0]
    assert table.loc["B"].tolist() == [1, 0, 0.0, -4.0, 0.5, 0.1, -4.0, -4.0]


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
