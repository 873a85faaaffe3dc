"""btforge.replay: one combination on the CPU reference, with its trades."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional, Sequence

import numpy as np
import pandas as pd

from . import _core
from ._csv import read_csv
from ._options import GridLike, TimeLike, run_options, strategy_options
from .market import Market, as_market


@dataclass
class Replay:
    """A replayed combination. ``metrics`` are exactly those of its sweep row
    (same market, grid, account and window); ``fills`` and ``round_trips``
    are the command line's trade log and round-trip CSVs as DataFrames;
    ``equity`` the close-marked equity of every bar of the window;
    ``benchmark`` buy and hold of the same initial equity at every bar
    (Note [Buy-and-hold benchmark]); ``statistics`` CAGR, volatility, the
    longest drawdown, the best and worst trade and buy and hold's return
    (Note [Statistics of a replay], docs/SPEC.md §7); ``closes`` the close
    of each symbol that filled, bars x symbols (NaN where it has no bar)."""

    strategy: str
    parameters: Dict[str, Any]
    metrics: Dict[str, Any]
    fills: pd.DataFrame
    round_trips: Optional[pd.DataFrame]
    equity: pd.Series
    initial_equity: float
    assumptions: str
    benchmark: pd.Series
    statistics: Dict[str, Any]
    closes: pd.DataFrame

    @property
    def drawdown(self) -> pd.Series:
        """Fraction below the running peak of equity (0 at a new high)."""
        peak = self.equity.cummax()
        return (self.equity / peak - 1.0).rename("drawdown")

    @property
    def monthly_returns(self) -> pd.Series:
        """The return of each calendar month (UTC) of the window: the equity at
        its last bar over that at the month before's last bar (the first month
        over the initial equity)."""
        month_end = self.equity.groupby(self.equity.index.tz_convert(None).to_period("M")).last()
        before = month_end.shift(1)
        before.iloc[0] = self.initial_equity
        return (month_end / before - 1.0).rename("return")

    def by_symbol(self) -> pd.DataFrame:
        """The round trips per symbol: trades, wins, win rate, net PnL, fees,
        funding, the best and the worst trade's net PnL."""
        trips = self.round_trips
        if trips is None or trips.empty:
            return pd.DataFrame(columns=["trades", "wins", "win_rate", "net_pnl", "fees", "funding", "best_trade",
                                         "worst_trade"])
        grouped = trips.groupby("symbol")
        table = pd.DataFrame({
            "trades": grouped.size(),
            "wins": grouped["net_pnl"].apply(lambda pnl: int((pnl > 0).sum())),
            "net_pnl": grouped["net_pnl"].sum(),
            "fees": grouped["fees"].sum(),
            "funding": grouped["funding"].sum(),
            "best_trade": grouped["net_pnl"].max(),
            "worst_trade": grouped["net_pnl"].min(),
        })
        table.insert(2, "win_rate", table["wins"] / table["trades"])
        return table

    def chart(self, **kw: Any):
        from . import plots

        return plots.equity(self, **kw)

    def trades_chart(self, symbol: Optional[str] = None, **kw: Any):
        """The symbol's price with its round trips drawn on it (btforge.plots.trades)."""
        from . import plots

        return plots.trades(self, symbol, **kw)


def _frame(text: str) -> pd.DataFrame:
    frame = read_csv(text, text=True)
    for column in ("time", "entry_time", "exit_time"):
        if column in frame.columns:
            frame[column] = pd.to_datetime(frame[column], utc=True)
    return frame


def _replay(options: Dict[str, Any], market: Optional[Market]) -> Replay:
    raw = _core.replay(options, None if market is None else market._handle)
    times = pd.to_datetime(np.asarray(raw["equity_time_ms"]), unit="ms", utc=True)
    equity = pd.Series(np.asarray(raw["equity"]), index=pd.DatetimeIndex(times, name="time"), name="equity",
                       copy=False)
    index = pd.DatetimeIndex(times, name="time")
    statistics = dict(raw["statistics"])
    statistics["max_drawdown_duration"] = pd.Timedelta(milliseconds=int(statistics["max_drawdown_duration"]))
    closes = pd.DataFrame({name: np.asarray(values) for name, values in raw["closes"].items()}, index=index)
    return Replay(
        strategy=raw["strategy"],
        parameters=dict(raw["parameters"]),
        metrics=dict(raw["metrics"]),
        fills=_frame(raw["fills_csv"]),
        round_trips=_frame(raw["round_trips_csv"]) if "round_trips_csv" in raw else None,
        equity=equity,
        initial_equity=float(raw["initial_equity"]),
        assumptions=raw["assumptions"],
        benchmark=pd.Series(np.asarray(raw["benchmark"]), index=index, name="buy_and_hold", copy=False),
        statistics=statistics,
        closes=closes,
    )


def _assignment(name: str, value: Any) -> str:
    if isinstance(value, (bool, np.bool_)):
        return f"{name}={'true' if value else 'false'}"
    if isinstance(value, (float, np.floating)):
        return f"{name}={float(value)!r}"
    return f"{name}={value}"


def replay(
    market: Optional[Market] = None,
    strategy: str = "default",
    combination: Optional[int] = None,
    *,
    values: Optional[Mapping[str, Any]] = None,
    grid: GridLike = None,
    spec: Optional[str] = None,
    params: Optional[Sequence[str]] = None,
    start: TimeLike = None,
    end: TimeLike = None,
    initial_equity: Optional[float] = None,
    maker_fee: Optional[float] = None,
    taker_fee: Optional[float] = None,
    slippage: Optional[float] = None,
    margin_mode: Optional[str] = None,
    round_trips: bool = True,
) -> Replay:
    """One combination on the CPU reference, as ``btforge replay`` runs it:
    ``combination`` (an id of ``grid``, whose account block applies) or
    ``values`` (``{"sl_atr": 2.5}``; the rest keep their defaults)."""
    if (combination is None) == (values is None):
        raise ValueError("give exactly one of combination and values")
    chosen = as_market(market)
    options = strategy_options(strategy, spec, grid, params)
    options.update(run_options(start, end, locals()))
    if combination is not None:
        options["combination"] = int(combination)
    else:
        options["set"] = [_assignment(k, v) for k, v in values.items()]
    options["round_trips"] = round_trips
    return _replay(options, chosen)
