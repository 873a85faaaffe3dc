"""btforge.indicators: an indicator of SPEC §5 on every symbol, exactly as sweeps compute it."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
import pandas as pd

from . import _core
from .market import Market


def indicator_catalog() -> List[Dict[str, Any]]:
    """Each indicator: its parameters, outputs, the prices it reads, its lookback and meaning."""
    return list(_core.indicator_catalog())


def indicators(market: Market, name: str, *, input: Optional[str] = None, **params: float) -> pd.DataFrame:
    """``name`` (EMA, BBANDS, ADX, ...) with ``params`` (``period=20, k=2``) on
    every symbol of ``market``: one row per symbol and own bar, as ``btforge
    indicators`` writes it (time, symbol, one column per output; NaN within
    the lookback). ``input`` makes a one-input indicator read another price
    column (``input="close"`` for MAX of the closes)."""
    outputs = _core.indicator(market._handle, name.upper(), {k: float(v) for k, v in params.items()}, input or "")
    times = np.asarray(market._handle.timestamp_ms)
    tradable = np.asarray(market._handle.column("tradable")).astype(bool)
    parts = []
    n_bars = len(times)
    for s, symbol in enumerate(market.symbols):
        own = tradable[s]
        part: Dict[str, Any] = {"time": pd.to_datetime(times[own], unit="ms", utc=True), "symbol": symbol}
        for output, values in outputs.items():
            part[output] = np.asarray(values)[s * n_bars:(s + 1) * n_bars][own]
        parts.append(pd.DataFrame(part))
    return pd.concat(parts, ignore_index=True)
