"""btforge.sweep: every combination of a grid, ranked, as a DataFrame."""

from __future__ import annotations

import json
import os
import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np
import pandas as pd

from . import _core
from ._csv import read_csv
from ._options import GridLike, TimeLike, run_options, strategy_options
from ._progress import Progress
from .errors import Cancelled
from .market import Market, MarketLike, as_market
from .replay import Replay, _replay

@dataclass
class SweepResult:
    """A finished sweep: the ranked rows and what ran.

    ``table`` holds the rows of ``btforge sweep``'s CSV, best first, column for
    column (rank, combination_id, valid, enough_trades, every parameter, every
    metric of SPEC §7, outcome_combinations and outcome_first_id); with ``top``
    it has one row per outcome (combinations with equal results are one:
    Note [Distinct outcomes]). ``summary`` is its JSON without the rows
    (strategy, market, window, funding, account, backend, combinations,
    distinct_outcomes, cells and seconds).
    """

    table: pd.DataFrame
    summary: Dict[str, Any]
    validation: Optional[Dict[str, Any]]
    walk_forward: Optional[pd.DataFrame]
    header: str
    text: str
    market: Optional[Market]
    # intrabar_bounds=True: OUTPUT.bounds.csv's rows (rank, order, combination_id,
    # parameters, metrics), three per kept row (Note [Bounds of the order inside a bar]).
    bounds: Optional[pd.DataFrame] = None
    _options: Dict[str, Any] = field(repr=False, default_factory=dict)
    # btforge.sweep from call to return, and the engine's run_sweep within it
    # (loading, sweep, validation, ranking): their difference is what the
    # Python side costs.
    wall_seconds: float = 0.0
    engine_seconds: float = 0.0

    @property
    def backend(self) -> str:
        return str(self.summary["backend"])

    @property
    def seconds(self) -> float:
        """The engine's time for the sweep (as the JSON's ``seconds``)."""
        return float(self.summary["seconds"])

    @property
    def cells_per_second(self) -> float:
        return float(self.summary["cells_per_second"])

    @property
    def distinct_outcomes(self) -> int:
        """How many distinct outcomes the combinations gave (Note [Distinct outcomes])."""
        return int(self.summary["distinct_outcomes"])

    @property
    def varied_parameters(self) -> List[str]:
        """The parameters the grid varies, in spec order (the printed table's columns)."""
        return list(self.summary.get("varied_parameters", []))

    @property
    def pbo(self) -> Optional[Dict[str, Any]]:
        return None if self.validation is None else self.validation.get("pbo")

    @property
    def verdict(self) -> Optional[str]:
        return None if self.validation is None else self.validation.get("verdict")

    def best(self, rank: int = 1) -> pd.Series:
        return self.table.iloc[rank - 1]

    def replay(self, rank: int = 1, *, combination: Optional[int] = None, round_trips: bool = True) -> "Replay":
        """The row of ``rank`` (or ``combination``) replayed on the CPU
        reference: fills, round trips, equity; its metrics are the row's."""
        if combination is None:
            combination = int(self.table["combination_id"].iloc[rank - 1])
        options = dict(self._options)
        options["combination"] = int(combination)
        options["round_trips"] = round_trips
        return _replay(options, self.market)

    # Pictures (btforge.plots), with this result's data.
    def heatmap(self, x: str, y: str, metric: Optional[str] = None, agg: str = "max", **kw: Any):
        from . import plots

        return plots.heatmap(self, x, y, metric=metric, agg=agg, **kw)

    def stability(self, parameter: str, metric: Optional[str] = None, **kw: Any):
        from . import plots

        return plots.stability(self, parameter, metric=metric, **kw)

    def walk_forward_chart(self, **kw: Any):
        from . import plots

        return plots.walk_forward(self, **kw)

    def pbo_histogram(self, **kw: Any):
        from . import plots

        return plots.pbo_histogram(self, **kw)

    def report(self, path: Union[str, "os.PathLike[str]"], **kw: Any) -> str:
        """Writes the self-contained HTML report (btforge.report) and returns its path."""
        from ._report_page import write_report

        return write_report(self, path, **kw)

    def _repr_html_(self) -> str:
        head = (f"<p><b>{self.summary['strategy']}</b>: {self.summary['combinations']} combinations "
                f"({self.distinct_outcomes} distinct outcomes) on {self.backend}, "
                f"{self.cells_per_second:.3g} cells/s</p>")
        return head + self.table.head(20)._repr_html_()


def sweep(
    market: MarketLike = None,
    strategy: str = "default",
    grid: GridLike = None,
    *,
    spec: Optional[str] = None,
    params: Optional[Sequence[str]] = None,
    backend: str = "auto",
    rank_by: str = "sharpe",
    min_trades: Optional[int] = None,
    top: int = 20,
    all_rows: bool = False,
    intrabar_bounds: bool = False,
    threads: int = 0,
    periods: Optional[int] = None,
    pbo: bool = False,
    pbo_backend: str = "auto",
    walk_forward: Optional[str] = None,
    cpcv: Optional[str] = None,
    spa: Optional[str] = None,
    returns: Optional[Union[int, str]] = None,
    spa_seed: int = 0,
    spa_size: float = 0.05,
    spa_benchmark: str = "cash",
    start: TimeLike = None,
    end: TimeLike = None,
    initial_equity: Optional[float] = None,
    maker_fee: Optional[float] = None,
    taker_fee: Optional[float] = None,
    slippage: Optional[float] = None,
    margin_mode: Optional[str] = None,
    device: int = 0,
    devices: Optional[str] = None,
    kernel_variant: str = "auto",
    jit: bool = False,
    progress: bool = True,
) -> SweepResult:
    """Runs every combination of ``grid`` for ``strategy`` on ``market`` and
    ranks them; the same run as ``btforge sweep`` with the same options.

    market: a :class:`btforge.Market`, a long-CSV path or a DataFrame; None
        is the embedded synthetic market.
    grid: None (the strategy's quickstart grid), a grid file, or a dict
        (``{"ema_fast": [8, 12, 20], "sl_atr": {"range": {...}}}`` or a whole
        grid document); ``params`` adds ``--param`` axes (``"sl_atr=1:3:0.5"``).
    backend: auto (cuda when a GPU and its kernels are usable), cpu, emu, cuda.
    rank_by: a metric of SPEC §7 or ``dsr``; ``top`` rows are kept
        (``all_rows`` keeps every row).
    min_trades: rows with fewer round trips are marked (``enough_trades``
        False) and ranked after the others (``--min-trades``; None: the
        command line's default, 10; 0: no minimum).
    periods, pbo, walk_forward, cpcv: out-of-sample evidence
        (docs/VALIDATION.md): ``walk_forward="rolling:4"``, ``pbo=True``,
        ``cpcv="2:1"`` (K test periods, an embargo of E on each side).
    returns: keep every combination's return stream over that many equal
        parts of the window, or ``"daily"`` over its UTC days: the trials are clustered by them (ONC), and
        ``result.validation["effective_trials"]`` and each deflated row's
        ``clustered_dsr`` count the clusters as the trials.
    spa, spa_seed, spa_size, spa_benchmark: White's Reality Check, Hansen's
        SPA and Romano-Wolf's StepM against ``spa_benchmark`` ("cash", or
        "hold": every symbol bought in equal shares at the window's start)
        over every combination's return stream (``spa="1000"`` resamples, or ``"1000:8"`` with a mean block
        of 8; ``returns`` default 256); ``result.validation["spa"]`` has the
        p-values and StepM's set. ``spa_seed`` also seeds the clusters'
        sample.
    intrabar_bounds: replay each kept row with every bar the strategy walks
        taken as open, favourable extreme, adverse extreme, close and the
        other way round (``--intrabar-bounds``); ``result.bounds`` has its
        metrics under our rule and both orders.
    start, end: the window ``start <= time < end`` (``--from``/``--to``).
    initial_equity, maker_fee, taker_fee, slippage, margin_mode: the account.
    progress: show progress in a notebook or on a terminal.

    The engine runs without the GIL on its own thread; Ctrl-C (a
    KeyboardInterrupt) stops it and re-raises. Errors are
    :mod:`btforge.errors` classes with the command line's messages.
    """
    import time

    began = time.perf_counter()
    chosen = as_market(market)
    shared = strategy_options(strategy, spec, grid, params)
    shared.update(run_options(start, end, locals()))
    options = dict(shared)
    options.update({
        "backend": backend, "rank_by": rank_by, "top": int(top), "all_rows": bool(all_rows), "threads": int(threads),
        "pbo": bool(pbo), "pbo_backend": pbo_backend, "device": int(device), "kernel_variant": kernel_variant,
        "jit": bool(jit),
    })
    if intrabar_bounds:
        options["intrabar_bounds"] = True
    if min_trades is not None:
        options["min_trades"] = int(min_trades)
    if periods is not None:
        options["periods"] = int(periods)
    if walk_forward is not None:
        options["walk_forward"] = walk_forward
    if cpcv is not None:
        options["cpcv"] = cpcv
    if spa is not None:
        options.update({"spa": spa, "spa_size": float(spa_size), "spa_benchmark": spa_benchmark})
    if returns == "daily":
        options["daily_returns"] = True  # Note [Equity marks at UTC days]
    elif returns is not None:
        options["returns"] = int(returns)
    if spa is not None or returns is not None:
        options["spa_seed"] = int(spa_seed)
    if devices is not None:
        options["devices"] = devices
    if all_rows:
        options["spool_directory"] = os.getcwd()
    task = _core.SweepTask(options, chosen._handle)
    shown = Progress(progress)
    try:
        while not task.wait(0.1):
            shown.update(*task.progress())
    except KeyboardInterrupt:
        task.cancel()
        task.wait(3600.0)
        shown.finish("btforge sweep: interrupted")
        raise
    try:
        raw = task.result()
    except BaseException:
        shown.finish("btforge sweep: failed")
        raise
    for notice in raw["notices"]:
        warnings.warn(f"btforge: {notice}", RuntimeWarning, stacklevel=2)
    if raw["cancelled"]:
        shown.finish("btforge sweep: interrupted")
        raise Cancelled(f"btforge sweep: interrupted {raw['cancelled_while']}; no result")
    result = _result(raw, chosen, shared)
    shown.finish(f"btforge sweep: {result.summary['combinations']} combinations ({result.distinct_outcomes} distinct "
                 f"outcomes) in {result.seconds:.3g} s on "
                 f"{result.backend}, {result.cells_per_second:.3g} cells/s")
    result.engine_seconds = float(raw["run_seconds"])
    result.wall_seconds = time.perf_counter() - began
    return result


def _result(raw: Dict[str, Any], market: Market, options: Dict[str, Any]) -> SweepResult:
    columns = {}
    booleans = set(raw["boolean_columns"])
    for name, values in raw["columns"].items():
        array = np.asarray(values)
        columns[name] = array.view(bool) if name in booleans else array
    table = pd.DataFrame(columns, copy=False)
    summary = json.loads(raw["summary_json"])
    summary.pop("rows", None)
    validation = json.loads(raw["validation_json"]) if "validation_json" in raw else None
    if validation is not None and "validation_text" in raw:
        validation.setdefault("text", raw["validation_text"])
    walk_forward = read_csv(raw["walk_forward_csv"], text=True) if "walk_forward_csv" in raw else None
    bounds = read_csv(raw["bounds_csv"], text=True) if "bounds_csv" in raw else None
    return SweepResult(table=table, summary=summary, validation=validation, walk_forward=walk_forward,
                       header=raw["header"], text=raw["table"], market=market, _options=options, bounds=bounds)

