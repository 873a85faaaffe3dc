"""Pictures of a sweep and a replay, as plotly figures (interactive in a
notebook; ``fig.write_html`` or the report to keep them)."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from . import _core

# Note [Python modules one way]: "SweepResult" and "Replay" below are
# annotations only; this module is imported by btforge.sweep and
# btforge.replay and imports neither.

_AGGREGATES = ("max", "mean", "median", "min", "count")


def _metric(result: "SweepResult", metric: Optional[str]) -> str:
    name = metric or result.summary.get("rank_by", "sharpe")
    if name == "dsr":
        name = "sharpe"
    if name not in result.table.columns:
        raise ValueError(f"no column {name!r} in the sweep's table")
    return name


def _rows_note(result: "SweepResult") -> str:
    rows, total = len(result.table), int(result.summary["combinations"])
    return "" if rows >= total else f" (top {rows} of {total} rows; all_rows=True for every row)"


def _rows(result: "SweepResult", fixed: Optional[Mapping[str, Any]]) -> pd.DataFrame:
    rows = result.table[result.table["valid"]]
    for name, value in (fixed or {}).items():
        if name not in rows.columns:
            raise ValueError(f"no parameter {name!r} in the sweep's table")
        rows = rows[rows[name] == value]
    if rows.empty:
        raise ValueError("no valid row is left to draw" + (f" with {dict(fixed)}" if fixed else ""))
    return rows


# Note [Heatmap colours]
# A metric's heatmap runs on a diverging scale centred on zero, so a cell's
# colour says its sign before its size: red where the combination lost
# (a Sharpe of -0.2), green where it gained (+0.1), whatever the range of
# the other cells. For a metric where less is better (the drawdown, the
# fees; the engine's own ranking direction, _core.metric_higher_is_better)
# the scale is turned round, so red is still the bad side. A count of rows
# has no sign: it gets a sequential scale from its minimum.
_CENTRED_ON_ZERO = {"colorscale": "RdYlGn", "zmid": 0.0}


def _heatmap_colours(name: str, agg: str) -> Dict[str, Any]:
    if agg == "count":
        return {"colorscale": "Viridis"}
    return {**_CENTRED_ON_ZERO, "reversescale": not _core.metric_higher_is_better().get(name, True)}


def heatmap(result: "SweepResult", x: str, y: str, metric: Optional[str] = None, agg: str = "max",
            fixed: Optional[Mapping[str, Any]] = None) -> go.Figure:
    """``metric`` (default: the ranking metric) over two parameters: the other
    parameters are fixed by ``fixed`` ({name: value}) and aggregated over by
    ``agg`` (max, mean, median, min or count); the colours are centred on
    zero (Note [Heatmap colours])."""
    if agg not in _AGGREGATES:
        raise ValueError(f"agg must be one of {', '.join(_AGGREGATES)}, got {agg!r}")
    name = _metric(result, metric)
    for parameter in (x, y):
        if parameter not in result.table.columns:
            raise ValueError(f"no parameter {parameter!r} in the sweep's table")
    rows = _rows(result, fixed)
    grid = rows.pivot_table(index=y, columns=x, values=name, aggfunc=agg)
    figure = go.Figure(go.Heatmap(z=grid.values, x=[str(v) for v in grid.columns], y=[str(v) for v in grid.index],
                                  colorbar={"title": name}, **_heatmap_colours(name, agg),
                                  hovertemplate=f"{x}=%{{x}}<br>{y}=%{{y}}<br>{agg} {name}=%{{z:.4g}}<extra></extra>"))
    figure.update_layout(title=f"{agg} {name} over {x} x {y}{_rows_note(result)}", xaxis_title=x, yaxis_title=y)
    return figure


def stability(result: "SweepResult", parameter: str, metric: Optional[str] = None,
              fixed: Optional[Mapping[str, Any]] = None) -> go.Figure:
    """``metric`` against one parameter: at each value, the spread over every
    other parameter (box: quartiles, whiskers, points beyond) and the median
    line. A flat, narrow band is a stable parameter; a lone peak is a fit."""
    name = _metric(result, metric)
    if parameter not in result.table.columns:
        raise ValueError(f"no parameter {parameter!r} in the sweep's table")
    rows = _rows(result, fixed)
    values = sorted(rows[parameter].unique())
    figure = go.Figure()
    for value in values:
        figure.add_trace(go.Box(y=rows.loc[rows[parameter] == value, name], name=str(value), boxpoints="outliers",
                                marker_color="#4c78a8", showlegend=False))
    medians = rows.groupby(parameter)[name].median()
    figure.add_trace(go.Scatter(x=[str(v) for v in medians.index], y=medians.values, mode="lines+markers",
                                name="median", line={"color": "#e45756"}))
    figure.update_layout(title=f"{name} against {parameter}{_rows_note(result)}", xaxis_title=parameter,
                         yaxis_title=name)
    return figure


def equity(replay: "Replay", title: Optional[str] = None, benchmark: bool = True) -> go.Figure:
    """The equity curve with its drawdown below; entries, exits and
    liquidations marked at their fills; ``benchmark``: buy and hold of the
    same initial equity beside it (Note [Buy-and-hold benchmark])."""
    figure = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.7, 0.3], vertical_spacing=0.04)
    curve = replay.equity
    if benchmark:
        hold = replay.benchmark
        figure.add_trace(go.Scatter(x=hold.index, y=hold.values, name="buy and hold",
                                    line={"color": "#9d9d9d", "dash": "dot"}), row=1, col=1)
    figure.add_trace(go.Scatter(x=curve.index, y=curve.values, name="equity", line={"color": "#4c78a8"}), row=1, col=1)
    fills = replay.fills
    if not fills.empty:
        at = curve.reindex(pd.DatetimeIndex(fills["time"]), method="ffill").values
        kinds = {
            "entry": (fills["reason"].isin(["entry", "resting_entry"]), "triangle-up", "#54a24b"),
            "exit": (~fills["reason"].isin(["entry", "resting_entry", "liquidation"]), "triangle-down", "#f58518"),
            "liquidation": (fills["reason"] == "liquidation", "x", "#d62728"),
        }
        for label, (mask, symbol, color) in kinds.items():
            mask = np.asarray(mask)
            if not mask.any():
                continue
            chosen = fills[mask]
            text = (chosen["symbol"] + " " + chosen["side"] + " " + chosen["reason"] + " @ " +
                    chosen["price"].map(lambda p: f"{p:.6g}"))
            figure.add_trace(go.Scatter(x=chosen["time"], y=at[mask], mode="markers", name=label, text=text,
                                        hoverinfo="text+x", marker={"symbol": symbol, "color": color,
                                                                    "size": 10 if label == "liquidation" else 6}),
                             row=1, col=1)
    drawdown = replay.drawdown
    figure.add_trace(go.Scatter(x=drawdown.index, y=drawdown.values, name="drawdown", fill="tozeroy",
                                line={"color": "#e45756"}), row=2, col=1)
    parameters = " ".join(f"{k}={v}" for k, v in replay.parameters.items())
    figure.update_layout(title=title or f"{replay.strategy}: equity and drawdown",
                         hovermode="x unified", legend={"orientation": "h"})
    figure.update_yaxes(title_text="equity", row=1, col=1)
    figure.update_yaxes(title_text="drawdown", tickformat=".0%", row=2, col=1)
    figure.add_annotation(text=parameters, xref="paper", yref="paper", x=0, y=-0.12, showarrow=False,
                          font={"size": 9}, align="left")
    return figure


# Note [Trades on the price]
# A round trip is one segment from its entry (time, average entry price) to
# its exit, green where its net PnL is positive and red where it is not,
# with a marker at each end: the entry a triangle pointing the trade's way
# (up for a long, down for a short), the exit a circle of the trade's
# colour. Each kind is one WebGL trace (segments joined by gaps), so
# thousands of trades draw as fast as a few and the legend switches a kind
# off as a whole.
_WIN, _LOSS = "#2ca02c", "#d62728"


def trades(replay: "Replay", symbol: Optional[str] = None, title: Optional[str] = None) -> go.Figure:
    """``symbol``'s close over the window with its round trips drawn on it
    (Note [Trades on the price]); without ``symbol``, the one with the most
    round trips."""
    trips = replay.round_trips
    if trips is None:
        raise ValueError("the replay has no round trips (replay with round_trips=True)")
    if symbol is None:
        if trips.empty:
            raise ValueError("the replay has no round trips to draw")
        symbol = str(trips["symbol"].value_counts().idxmax())
    if symbol not in replay.closes.columns:
        raise ValueError(f"{symbol!r} has no fill in this replay; symbols with fills: {list(replay.closes.columns)}")
    close = replay.closes[symbol]
    figure = go.Figure(go.Scattergl(x=close.index, y=close.values, name=f"{symbol} close", mode="lines",
                                    line={"color": "#4c78a8", "width": 1}))
    own = trips[trips["symbol"] == symbol]
    won = (own["net_pnl"] > 0).to_numpy()
    long = (own["side"] == "long").to_numpy()
    for label, mask, colour in (("winning trades", won, _WIN), ("losing trades", ~won, _LOSS)):
        chosen = own[mask]
        if chosen.empty:
            continue
        n = len(chosen)
        x = np.empty(3 * n, dtype=object)
        y = np.full(3 * n, np.nan)
        x[0::3], x[1::3], x[2::3] = chosen["entry_time"].to_numpy(), chosen["exit_time"].to_numpy(), None
        y[0::3], y[1::3] = chosen["entry_price"].to_numpy(), chosen["exit_price"].to_numpy()
        figure.add_trace(go.Scattergl(x=x, y=y, mode="lines", name=label, legendgroup=label, hoverinfo="skip",
                                      line={"color": colour, "width": 1.5}))
        text = (chosen["side"].astype(str) + " " + chosen["net_pnl"].map(lambda p: f"{p:+.6g}") + " ("
                + chosen["exit_reason"].astype(str) + ")")
        figure.add_trace(go.Scattergl(x=chosen["exit_time"], y=chosen["exit_price"], mode="markers",
                                      name=f"exits, {label}", legendgroup=label, showlegend=False, text=text,
                                      hoverinfo="text+x", marker={"symbol": "circle", "size": 5, "color": colour}))
    for label, mask, marker in (("long entries", long, "triangle-up"), ("short entries", ~long, "triangle-down")):
        chosen = own[mask]
        if chosen.empty:
            continue
        figure.add_trace(go.Scattergl(x=chosen["entry_time"], y=chosen["entry_price"], mode="markers", name=label,
                                      text=chosen["trade"].map(lambda t: f"trade {t}"), hoverinfo="text+x+y",
                                      marker={"symbol": marker, "size": 7, "color": "#000000"}))
    figure.update_layout(title=title or f"{symbol}: {len(own)} round trips on the price", yaxis_title="price",
                         legend={"orientation": "h"})
    return figure


def walk_forward(result: "SweepResult") -> go.Figure:
    """Each walk-forward step's in-sample and out-of-sample Sharpe ratio, and
    the stitched out-of-sample return."""
    steps = result.walk_forward
    if steps is None:
        raise ValueError("this sweep ran without walk_forward=")
    figure = make_subplots(rows=2, cols=1, row_heights=[0.55, 0.45], vertical_spacing=0.12,
                           subplot_titles=("Sharpe ratio per step (annualized)", "stitched out-of-sample return"))
    labels = [f"{s}: {str(t)[:10]}" for s, t in zip(steps["step"], steps["out_of_sample_from"])]
    figure.add_trace(go.Bar(x=labels, y=steps["in_sample_sharpe"], name="in sample", marker_color="#9ecae9"),
                     row=1, col=1)
    figure.add_trace(go.Bar(x=labels, y=steps["out_of_sample_sharpe"], name="out of sample",
                            marker_color="#4c78a8"), row=1, col=1)
    ends = pd.to_datetime(steps["out_of_sample_to"], utc=True)
    stitched = (1.0 + steps["out_of_sample_return"]).cumprod() - 1.0
    figure.add_trace(go.Scatter(x=ends, y=stitched, mode="lines+markers", name="stitched", line={"shape": "hv"}),
                     row=2, col=1)
    figure.update_yaxes(tickformat=".0%", row=2, col=1)
    plan = (result.validation or {}).get("walk_forward", {}).get("plan", "")
    efficiency = (result.validation or {}).get("walk_forward", {}).get("efficiency")
    suffix = f", efficiency {efficiency:.2f}" if isinstance(efficiency, (int, float)) else ""
    figure.update_layout(title=f"walk-forward {plan}{suffix}", barmode="group", legend={"orientation": "h"})
    return figure


def pbo_histogram(result: "SweepResult") -> go.Figure:
    """The logits of the in-sample winner's out-of-sample rank over every
    CSCV split; the mass left of 0 is the probability of backtest
    overfitting."""
    pbo: Optional[Dict[str, Any]] = result.pbo
    if pbo is None:
        raise ValueError("this sweep ran without pbo=True")
    # Note [Uninformative splits]: their logits are null, left out here.
    logits = np.asarray([np.nan if x is None else x for x in pbo["logits"]], dtype=float)
    finite = logits[np.isfinite(logits)]
    figure = go.Figure(go.Histogram(x=finite, nbinsx=60, marker_color="#4c78a8", name="splits"))
    figure.add_vline(x=0.0, line={"color": "#d62728", "dash": "dash"})
    # Note [Undefined statistics]: null with the reason beside it.
    value = (f"PBO {pbo['pbo']:.3f}" if isinstance(pbo.get("pbo"), (int, float))
             else f"PBO undefined ({pbo.get('pbo_undefined', 'no value')})")
    informative = pbo.get("informative_splits", pbo["splits"])
    splits = f"{pbo['splits']} splits" if informative == pbo["splits"] else f"{informative} of {pbo['splits']} splits"
    figure.update_layout(title=f"{value}: logit of the winner's out-of-sample rank ({splits})",
                         xaxis_title="logit (below 0: under the out-of-sample median)", yaxis_title="splits")
    return figure


def monthly_returns(replay: "Replay", title: Optional[str] = None) -> go.Figure:
    """The replayed combination's return of each month, a year per row, on
    colours centred on zero (Note [Heatmap colours])."""
    returns = replay.monthly_returns
    years = sorted({p.year for p in returns.index})
    grid = np.full((len(years), 12), np.nan)
    for period, value in returns.items():
        grid[years.index(period.year), period.month - 1] = value
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    figure = go.Figure(go.Heatmap(z=grid * 100.0, x=months, y=[str(y) for y in years], **_CENTRED_ON_ZERO,
                                  colorbar={"title": "%"}, texttemplate="%{z:.1f}",
                                  hovertemplate="%{y} %{x}: %{z:.2f}%<extra></extra>"))
    figure.update_layout(title=title or "monthly returns (%)", yaxis={"autorange": "reversed", "type": "category"})
    return figure
