"""The HTML page of a sweep's report (btforge.report writes it; Note [Python
modules one way]). ``result`` is a SweepResult, read by its attributes and
methods only: this module does not import btforge.sweep, which calls it.
"""

from __future__ import annotations

import html
import itertools
import os
from typing import Any, Dict, List, Optional, Tuple

import pandas as pd
import plotly.graph_objects as go
import plotly.offline

from . import plots

_TABLE_METRICS = ("total_return", "sharpe", "sortino", "max_drawdown", "n_trades", "win_rate", "profit_factor",
                  "n_liquidations", "ambiguous_bars", "magnified_bars")

_STYLE = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1200px;
       color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { padding: 3px 8px; border-bottom: 1px solid #eee; text-align: right; }
th { background: #f6f6f6; } td.text, th.text { text-align: left; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; font-size: 0.9em; }
dt { font-weight: 600; } dd { margin: 0; }
.verdict { background: #fff8e1; border-left: 4px solid #f0b400; padding: 0.8em 1em; }
.undefined { background: #fdecea; border-left: 4px solid #d62728; padding: 0.2em 1em; font-size: 0.9em; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.8em; }
.chart { margin: 1em 0; }
#btforge-report-status { color: #888; font-size: 0.8em; }
"""

# Note [A report that checks itself]
# The page counts its charts and the ones plotly drew, and every error a
# script raised.
_CHECK = """
<script>
window.btforgeErrors = window.btforgeErrors || [];
window.addEventListener('error', function (e) { window.btforgeErrors.push(String(e.message)); });
window.addEventListener('load', function () {
  var status = document.getElementById('btforge-report-status');
  var charts = document.querySelectorAll('div.chart div.plotly-graph-div');
  var drawn = 0;
  charts.forEach(function (div) { if (div._fullLayout && div.querySelector('svg.main-svg')) drawn += 1; });
  status.setAttribute('data-charts', String(charts.length));
  status.setAttribute('data-drawn', String(drawn));
  status.setAttribute('data-errors', String(window.btforgeErrors.length));
  status.textContent = 'report check: ' + drawn + ' of ' + charts.length + ' charts drawn, ' +
    window.btforgeErrors.length + ' script errors' +
    (window.btforgeErrors.length ? ': ' + window.btforgeErrors.join('; ') : '');
});
</script>
"""


def _figure_html(figure: go.Figure, div_id: str) -> str:
    figure.update_layout(template="plotly_white", height=460, margin={"l": 60, "r": 30, "t": 60, "b": 60})
    body = figure.to_html(full_html=False, include_plotlyjs=False, div_id=div_id,
                          config={"displaylogo": False, "responsive": True})
    return f'<div class="chart">{body}</div>'


def _table_html(result: SweepResult, rows: int) -> str:
    table = result.table.head(rows)
    columns = ["rank", "combination_id"] + [p for p in result.varied_parameters if p in table.columns]
    columns += [m for m in _TABLE_METRICS if m in table.columns]
    for marking in ("valid", "enough_trades"):  # Note [Rows with few trades]
        if marking in table.columns and not table[marking].all():
            columns.append(marking)
    return _frame_html(table[columns])


def _frame_html(frame, index: Optional[str] = None) -> str:
    """A DataFrame as the page's table: its index first where ``index`` names it."""
    columns = list(frame.columns)
    head = (f"<th>{html.escape(index)}</th>" if index else "") + "".join(f"<th>{html.escape(str(c))}</th>"
                                                                          for c in columns)
    body = []
    for key, row in frame.iterrows():
        cells = [f"<td>{html.escape(str(key))}</td>"] if index else []
        for c in columns:
            value = row[c]
            text = f"{value:.6g}" if isinstance(value, float) else str(value)
            cells.append(f"<td>{html.escape(text)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


_TRADES_SHOWN = 100


def _statistics_frame(best: Any) -> pd.DataFrame:
    """Note [Statistics of a replay], with the row's exposure, for people to read."""
    s = dict(best.statistics)
    rows = [
        ("CAGR", _percent(s["cagr"])),
        ("volatility (annualized)", _percent(s["volatility"])),
        ("max drawdown", _percent(best.metrics["max_drawdown"])),
        ("longest drawdown", f"{s['max_drawdown_duration']} ({s['max_drawdown_bars']} bars)"),
        ("exposure", _percent(best.metrics["exposure"])),
        ("best trade (net PnL)", _number(s["best_trade"])),
        ("worst trade (net PnL)", _number(s["worst_trade"])),
        ("total return", _percent(best.metrics["total_return"])),
        ("buy and hold return", _percent(s["buy_and_hold_return"])),
    ]
    return pd.DataFrame({"value": [v for _, v in rows]}, index=pd.Index([n for n, _ in rows], name="statistic"))


def _percent(value: float) -> str:
    return "n/a" if value != value else f"{value * 100:.2f}%"


def _instruments_text(instruments: Optional[Dict[str, Any]]) -> str:
    """Note [Instruments stated]: the source and each symbol's sizes."""
    if not instruments:
        return "not recorded"
    sizes = "; ".join(f"{symbol} qty_step={s.get('qty_step')} min_qty={s.get('min_qty')} "
                      f"price_tick={s.get('price_tick')}" for symbol, s in instruments.get("symbols", {}).items())
    return f"{instruments.get('source', '')}: {sizes}"


def _synthetic_banner(summary: Dict[str, Any]) -> str:
    """Note [Synthetic market said plainly]: a banner no reader can miss."""
    if not summary.get("synthetic_market"):
        return ""
    return ('<p class="btforge-synthetic" style="border:2px solid #b00;padding:0.5em;color:#b00;font-weight:bold">'
            "These results are on btforge's embedded SYNTHETIC market (the sweep was given no data): "
            "they describe no real instrument.</p>")


def _assumptions_html(summary: Dict[str, Any]) -> str:
    account = summary.get("account", {})
    window = summary.get("window", {})
    facts: List[Tuple[str, str]] = [
        ("strategy", summary.get("strategy", "")),
        ("spec", summary.get("spec", "")),
        ("grid", summary.get("grid", "")),
        ("market", summary.get("market", "")),
        ("window", f"{window.get('first_bar_time', '')} .. {window.get('last_bar_time', '')} "
                   f"({window.get('bars', '')} bars, {window.get('warmup_bars', 0)} warm-up bars before)"),
        ("funding", summary.get("funding", "")),
        ("instruments", _instruments_text(summary.get("instruments"))),
        ("account", " ".join(f"{k}={v}" for k, v in account.items())),
        ("backend", summary.get("backend", "")),
        ("work", f"{summary.get('combinations', 0)} combinations, {summary.get('cells', 0):.4g} cells in "
                 f"{summary.get('seconds', 0):.3g} s = {summary.get('cells_per_second', 0):.3g} cells/s"),
        ("ranked by", summary.get("rank_by", "")),
    ]
    if summary.get("timestamps"):
        facts.insert(4, ("timestamps", summary["timestamps"]))
    items = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(str(v))}</dd>" for k, v in facts)
    return f"<dl>{items}</dl>"


def _number(value: Any, digits: str = ".4g") -> str:
    """A number of the validation JSON, or "undefined" for its null (Note [Undefined statistics])."""
    return format(value, digits) if isinstance(value, (int, float)) else "undefined"


def undefined_statistics(validation: Dict[str, Any]) -> List[Tuple[str, str]]:
    """Every statistic of a validation JSON that is undefined, as (JSON path,
    reason): the ``<name>_undefined`` members beside the nulls (Note
    [Undefined statistics], docs/VALIDATION.md)."""
    found: List[Tuple[str, str]] = []

    def walk(value: Any, path: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key.endswith("_undefined") and isinstance(item, str):
                    found.append((f"{path}/{key[:-len('_undefined')]}", item))
                else:
                    walk(item, f"{path}/{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{path}/{index}")

    walk(validation, "")
    return found


def _undefined_html(validation: Dict[str, Any]) -> str:
    found = undefined_statistics(validation)
    if not found:
        return ""
    items = "".join(f"<li><code>{html.escape(path)}</code>: {html.escape(reason)}</li>" for path, reason in found)
    return f'<div class="undefined"><p>Undefined, and why:</p><ul>{items}</ul></div>'


def _deflated_html(validation: Dict[str, Any]) -> str:
    rows = validation.get("deflated_sharpe") or []
    if not rows:
        return ""
    head = "<tr><th>id</th><th>sharpe (annualized)</th><th>skewness</th><th>kurtosis</th><th>PSR(0)</th><th>DSR</th></tr>"
    body = "".join(
        f"<tr><td>{r['combination_id']}</td><td>{_number(r.get('sharpe_annualized'))}</td>"
        f"<td>{_number(r.get('skewness'))}</td><td>{_number(r.get('kurtosis'))}</td>"
        f"<td>{_number(r.get('psr'))}</td><td>{_number(r.get('dsr'))}</td></tr>"
        for r in rows)
    expected = validation.get("expected_max_sharpe_annualized")
    luck = (_number(expected, ".3f") + ", annualized" if isinstance(expected, (int, float))
            else "undefined: " + html.escape(str(validation.get("expected_max_sharpe_undefined", ""))))
    return (f"<p>Deflated Sharpe ratio of the top rows against {validation.get('trials')} trials "
            f"(expected maximum Sharpe ratio by luck: {luck}):</p><table>{head}{body}</table>")


def write_report(result: SweepResult, path: "str | os.PathLike[str]", *, replay: bool = True, rows: int = 20,
                 title: Optional[str] = None) -> str:
    """Writes the report of ``result`` to ``path`` (one HTML file, plotly.js
    inside) and returns the path. ``replay``: replay the best row for its
    equity curve and trades (needs the market: a live result's, or the
    inputs its JSON records)."""
    summary = result.summary
    sections: List[str] = []
    charts = 0

    def chart(figure: go.Figure) -> str:
        nonlocal charts
        charts += 1
        return _figure_html(figure, f"btforge-chart-{charts}")

    sections.append(_synthetic_banner(summary) + "<h2>Assumptions</h2>" + _assumptions_html(summary))
    min_trades = summary.get("min_trades")
    sections.append(f"<h2>Ranked rows</h2><p>The best {min(rows, len(result.table))} of "
                    f"{summary.get('combinations')} combinations by {html.escape(str(summary.get('rank_by')))}"
                    f"{'; rows with fewer than ' + str(min_trades) + ' trades (enough_trades false) rank after the others' if min_trades else ''}"
                    f"{' (' + str(summary.get('invalid_rows')) + ' rows with non-finite metrics rank last)' if summary.get('invalid_rows') else ''}"
                    f".</p>" + _table_html(result, rows))

    validation = result.validation
    if validation is not None:
        part = "<h2>Out-of-sample evidence</h2>"
        if validation.get("verdict"):
            part += f'<p class="verdict">{html.escape(validation["verdict"])}</p>'
        part += _undefined_html(validation)
        if result.walk_forward is not None:
            part += chart(plots.walk_forward(result))
        if result.pbo is not None and result.pbo.get("pbo") is not None:  # undefined: said above
            part += chart(plots.pbo_histogram(result))
        part += _deflated_html(validation)
        sections.append(part)

    varied = [p for p in result.varied_parameters if p in result.table.columns]
    valid_rows = int(result.table["valid"].sum()) if "valid" in result.table.columns else len(result.table)
    if varied and valid_rows > 0:
        part = "<h2>Parameters</h2>"
        # Every pair of varied parameters, each over the others' best (plots.heatmap's max).
        for x, y in itertools.combinations(varied, 2):
            part += chart(plots.heatmap(result, x, y))
        for parameter in varied[:3]:
            part += chart(plots.stability(result, parameter))
        if len(result.table) < int(summary.get("combinations", 0)):
            part += ("<p>These pictures show the kept rows only; a sweep with --all-rows (all_rows=True) "
                     "shows every combination.</p>")
        sections.append(part)

    if replay and len(result.table) > 0:
        part = "<h2>The best row, replayed</h2>"
        inputs = result._options
        if result.market is None and str(inputs.get("data", "")).startswith("<"):
            part += ("<p>Not replayed: the sweep's market was a DataFrame, which the result files do not hold "
                     "(SweepResult.report replays it in the same Python session).</p>")
        else:
            best = result.replay(1)
            part += chart(plots.equity(best, title=f"combination {int(result.table['combination_id'].iloc[0])}: "
                                                   "equity, drawdown and trades"))
            metrics = " ".join(f"{k}={v:.6g}" if isinstance(v, float) else f"{k}={v}" for k, v in best.metrics.items())
            part += f"<p>Replayed on the CPU reference: {len(best.fills)} fills.</p><pre>{html.escape(metrics)}</pre>"
            part += "<h3>Statistics</h3>" + _frame_html(_statistics_frame(best), "statistic")
            part += chart(plots.monthly_returns(best))
            trips = best.round_trips
            if trips is not None and not trips.empty:
                part += chart(plots.trades(best))
                part += "<h3>By symbol</h3>" + _frame_html(best.by_symbol(), "symbol")
                shown = trips.head(_TRADES_SHOWN)
                part += (f"<h3>Trades</h3><p>{'The first ' + str(len(shown)) + ' of ' if len(trips) > len(shown) else ''}"
                         f"{len(trips)} round trips.</p>" + _frame_html(shown.set_index("trade"), "trade"))
        sections.append(part)

    heading = title or f"btforge sweep: {summary.get('strategy', '')}"
    page = (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(heading)}</title><style>{_STYLE}</style>"
        "<script>window.btforgeErrors = [];"
        "window.addEventListener('error', function (e) { window.btforgeErrors.push(String(e.message)); });</script>"
        f"<script type=\"text/javascript\">{plotly.offline.get_plotlyjs()}</script>"
        f"</head><body><h1>{html.escape(heading)}</h1>"
        + "".join(sections)
        + '<p id="btforge-report-status">report check: not run (scripts disabled?)</p>'
        + _CHECK + "</body></html>\n")
    path = os.fspath(path)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(page)
    os.replace(temporary, path)  # whole or not at all
    return path
