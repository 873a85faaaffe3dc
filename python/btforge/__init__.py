"""btforge: parameter sweeps of trading strategies on a bit-exact C++/CUDA
engine, with out-of-sample evidence, as DataFrames and pictures.

    import btforge
    market = btforge.Market.from_csv("candles.csv")        # or from_pandas / from_parquet / synthetic
    result = btforge.sweep(market, "default", walk_forward="rolling:4", pbo=True)
    result.table                                           # the ranked rows, as btforge sweep's CSV
    result.heatmap("ema_fast", "sl_atr")                   # plotly figures
    result.replay().chart()                                # the best row: equity, drawdown, trades
    result.report("report.html")                           # one self-contained HTML file
"""

# Note [Python modules one way]
# The package's modules import each other one way, never in a circle, in
# this order: errors, _csv, _options, _progress, market, indicators, plots,
# replay, _report_page, sweep, report (python/tests/test_module_graph.py
# checks it, imports inside functions included). A module lower in the list
# takes a higher one's objects as arguments, read by their attributes, and
# names their types in annotations only: btforge.plots draws a SweepResult
# without importing btforge.sweep, and the report's page (_report_page)
# is written without it, so SweepResult.report and `python -m
# btforge.report` share it.

from . import errors, plots
from ._core import build_info, strategies, version as __version__
from .errors import BtforgeError, Cancelled, DataError, SpecError, UsageError
from .indicators import indicator_catalog, indicators
from .market import Market
from .replay import Replay, replay
from .sweep import SweepResult, sweep

__all__ = [
    "Market", "sweep", "SweepResult", "replay", "Replay", "indicators", "indicator_catalog", "strategies", "build_info",
    "plots", "errors", "BtforgeError", "DataError", "SpecError", "UsageError", "Cancelled",
]
