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

from . import errors, plots
from ._core import strategies, version as __version__
from .errors import BtforgeError, Cancelled, DataError, SpecError, UsageError
from .indicators import indicator_catalog, indicators
from .market import Market
from .replay import Replay, replay
from .sweep import SweepResult, sweep

__all__ = [
    "Market", "sweep", "SweepResult", "replay", "Replay", "indicators", "indicator_catalog", "strategies",
    "plots", "errors", "BtforgeError", "DataError", "SpecError", "UsageError", "Cancelled",
]
