"""Keyword arguments as the option dicts of btforge._core.

Each key is a command-line option's name with ``_`` for ``-`` (Note [One
sweep, two front ends]): the engine reads them with the command line's own
code, so a value means, and is checked, exactly as the option is.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
from typing import Any, Dict, Mapping, Optional, Sequence, Union

GridLike = Union[None, str, "os.PathLike[str]", Mapping[str, Any]]
TimeLike = Union[None, str, int, _dt.datetime, _dt.date, Any]

ACCOUNT_KEYS = ("initial_equity", "maker_fee", "taker_fee", "slippage", "margin_mode")


def time_text(value: TimeLike) -> Optional[str]:
    """A --from/--to value: ISO-8601 text, an epoch integer, or a datetime
    (pandas Timestamps included; naive ones are UTC)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        raise TypeError("a time must be a string, an integer or a datetime, not a bool")
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "isoformat"):
        if isinstance(value, _dt.datetime):
            if value.tzinfo is not None:
                value = value.astimezone(_dt.timezone.utc).replace(tzinfo=None)
            return value.isoformat(timespec="milliseconds") + "Z"
        return value.isoformat()
    raise TypeError(f"a time must be a string, an integer or a datetime, got {type(value).__name__}")


def _axis(value: Any) -> Any:
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (list, tuple)):
        return {"values": list(value)}
    if hasattr(value, "tolist"):  # numpy arrays and ranges of pandas
        return {"values": value.tolist()}
    if isinstance(value, range):
        return {"values": list(value)}
    return {"values": [value]}


def strategy_options(strategy: str, spec: Optional[str], grid: GridLike,
                     params: Optional[Sequence[str]]) -> Dict[str, Any]:
    """--strategy, --spec, --grid and --param as one option dict."""
    options: Dict[str, Any] = {"strategy": strategy}
    if spec is not None:
        options["spec"] = os.fspath(spec)
    options.update(grid_options(strategy, grid))
    if params:
        options["param"] = list(params)
    return options


def grid_options(strategy: str, grid: GridLike) -> Dict[str, Any]:
    """``grid``: None (the strategy's quickstart grid), a grid file, a whole
    grid document as a dict, or a short dict ``{"ema_fast": [8, 12], "sl_atr":
    {"range": {"start": 1, "stop": 3, "step": 0.5}}}`` whose values are lists
    (``values``), a scalar (one value) or an axis object of the grid format,
    which may carry a condition: ``{"values": [8, 12], "when": {"mode": [0]}}``,
    or the spec's proven one: ``"when": "spec"`` (Note [Conditional axes])."""
    if grid is None:
        return {}
    if isinstance(grid, (str, os.PathLike)):
        return {"grid": os.fspath(grid)}
    if not isinstance(grid, Mapping):
        raise TypeError(f"grid must be a file name or a dict, got {type(grid).__name__}")
    if "parameters" in grid:
        document = dict(grid)
        origin = "<grid dict>"
    else:
        document = {"parameters": {name: _axis(axis) for name, axis in grid.items()}}
        origin = "<grid dict>"
    document.setdefault("strategy", strategy)

    def plain(value: Any) -> Any:
        if hasattr(value, "item") and not isinstance(value, (list, dict)):
            return value.item()  # numpy scalars
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError(f"grid values must be finite, got {value}")
        return value

    text = json.dumps(document, default=plain, allow_nan=False)
    return {"grid_text": text, "grid_text_origin": origin}


def account_options(values: Mapping[str, Any]) -> Dict[str, Any]:
    return {key: values[key] for key in ACCOUNT_KEYS if values.get(key) is not None}


def run_options(start: TimeLike, end: TimeLike, account: Mapping[str, Any]) -> Dict[str, Any]:
    """The window (``--from``/``--to``) and the account options of a run."""
    options = account_options(account)
    if start is not None:
        options["from"] = time_text(start)
    if end is not None:
        options["to"] = time_text(end)
    return options
