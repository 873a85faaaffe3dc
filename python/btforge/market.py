"""btforge.Market: candles of one or more symbols, loaded and checked once.

A Market is what ``btforge sweep --data`` loads (Note [Long CSV contract]):
every symbol aligned on the union of timestamps, with its instrument rules
and funding. It is loaded once and shared by every sweep, replay and
indicator call that takes it.
"""

from __future__ import annotations

import csv
import os
import re
from typing import Any, Dict, Iterable, Optional, Sequence, Union

import numpy as np
import pandas as pd

from . import _core
from .errors import DataError

PathLike = Union[str, "os.PathLike[str]"]

_COLUMNS = ("timestamp", "symbol", "open", "high", "low", "close", "volume", "funding_rate")
_DATAFRAME = "<DataFrame>"


def _market_options(
    instruments: Optional[PathLike],
    symbols: Optional[Iterable[str]],
    timestamp_unit: str,
    funding_file: Optional[PathLike],
    funding_rate: float,
    funding_interval_hours: float,
    intrabar: Optional[PathLike] = None,
    mark: Optional[PathLike] = None,
) -> Dict[str, Any]:
    options: Dict[str, Any] = {
        "timestamp_unit": timestamp_unit,
        "funding_rate": float(funding_rate),
        "funding_interval_hours": float(funding_interval_hours),
    }
    if instruments is not None:
        options["instruments"] = os.fspath(instruments)
    if symbols is not None:
        options["symbols"] = ",".join(symbols) if not isinstance(symbols, str) else symbols
    if funding_file is not None:
        options["funding_file"] = os.fspath(funding_file)
    if intrabar is not None:
        options["intrabar"] = os.fspath(intrabar)
    if mark is not None:
        options["mark"] = os.fspath(mark)
    return options


class Market:
    """A loaded market. Build one with :meth:`from_pandas`, :meth:`from_csv`,
    :meth:`from_parquet` or :meth:`synthetic`."""

    def __init__(self, handle: "_core.MarketHandle", source: Dict[str, Any]) -> None:
        self._handle = handle
        # The options that load it again (a file or the synthetic recipe);
        # None for a DataFrame, which only this process holds.
        self._source = source

    # -- construction -----------------------------------------------------

    @classmethod
    def synthetic(
        cls,
        seed: int = 42,
        symbols: int = 4,
        bars: int = 17520,
        bar_minutes: int = 60,
        funding_interval_hours: float = 8.0,
    ) -> "Market":
        """The seeded synthetic market every command uses without ``--data``."""
        options = {
            "synthetic_seed": int(seed),
            "synthetic_symbols": int(symbols),
            "synthetic_bars": int(bars),
            "synthetic_bar_minutes": int(bar_minutes),
            "funding_interval_hours": float(funding_interval_hours),
        }
        return cls(_core.load_market(options), options)

    @classmethod
    def from_csv(
        cls,
        path: PathLike,
        *,
        instruments: Optional[PathLike] = None,
        symbols: Optional[Iterable[str]] = None,
        timestamp_unit: str = "auto",
        funding_file: Optional[PathLike] = None,
        funding_rate: float = 0.0001,
        funding_interval_hours: float = 8.0,
        intrabar: Optional[PathLike] = None,
        mark: Optional[PathLike] = None,
        cache: bool = True,
    ) -> "Market":
        """A long CSV ``timestamp,symbol,open,high,low,close,volume[,funding_rate]``
        read by the engine's own loader, exactly as ``btforge sweep --data``
        reads it (its errors name file, line and column; the parsed market is
        cached beside the file as ``PATH.btfcache`` unless ``cache=False``).
        ``intrabar``: a CSV of finer bars of the same symbols (``--intrabar``,
        docs/ACCOUNTING.md §9). ``mark``: a CSV of the mark price's bars of
        the same symbols, which liquidation reads (``--mark``,
        docs/ACCOUNTING.md §6). Other layouts: read them with pandas and use
        :meth:`from_pandas`."""
        options = _market_options(instruments, symbols, timestamp_unit, funding_file, funding_rate,
                                  funding_interval_hours, intrabar, mark)
        options["data"] = os.fspath(path)
        options["market_cache"] = bool(cache)
        return cls(_core.load_market(options), options)

    @classmethod
    def from_parquet(cls, path: PathLike, *, columns: Optional[Sequence[str]] = None, **options: Any) -> "Market":
        """A Parquet file (through pandas and pyarrow) in the long layout, or
        any layout :meth:`from_pandas` takes; ``options`` as there."""
        return cls.from_pandas(pd.read_parquet(path, columns=columns), **options)

    @classmethod
    def from_pandas(
        cls,
        frame: pd.DataFrame,
        *,
        symbol: Optional[str] = None,
        instruments: Optional[PathLike] = None,
        symbols: Optional[Iterable[str]] = None,
        timestamp_unit: str = "auto",
        funding_file: Optional[PathLike] = None,
        funding_rate: float = 0.0001,
        funding_interval_hours: float = 8.0,
        intrabar: Optional[PathLike] = None,
        mark: Optional[PathLike] = None,
    ) -> "Market":
        """A DataFrame of candles, checked by the rules of the CSV loader.

        Columns (any case): ``timestamp`` (datetimes, naive ones UTC; ISO
        text; or epoch integers in ``timestamp_unit``), ``symbol``, ``open``,
        ``high``, ``low``, ``close``, ``volume`` and optionally
        ``funding_rate`` (NaN: the default rate). The timestamp may be the
        index (a DatetimeIndex, or a MultiIndex of timestamp and symbol). A
        frame of one symbol without a ``symbol`` column names it with
        ``symbol=``. Rows of different symbols may interleave; each symbol's
        timestamps must increase.

        The frame goes through the engine's long-CSV loader (Note [Long CSV
        contract]), so every rule and message is the command line's; an
        error is a :class:`btforge.errors.DataError` whose ``row`` and
        ``index`` locate it in the frame. ``intrabar`` and ``mark``: CSVs of
        finer bars and of the mark price's bars of the same symbols, as for
        :meth:`from_csv`.
        """
        long = _long_frame(frame, symbol)
        labels = frame.index
        text, unit = _csv_text(long, timestamp_unit)
        options = _market_options(instruments, symbols, unit, funding_file, funding_rate, funding_interval_hours,
                                  intrabar, mark)
        options["data"] = _DATAFRAME
        options["data_text"] = text
        try:
            handle = _core.load_market(options)
        except DataError as error:
            raise _located(error, long, labels) from None
        return cls(handle, {})

    # -- what it holds ----------------------------------------------------

    @property
    def symbols(self) -> list:
        return list(self._handle.symbols)

    @property
    def n_bars(self) -> int:
        return int(self._handle.n_bars)

    @property
    def description(self) -> str:
        """As the run header says it: the source, symbols x bars."""
        return str(self._handle.description)

    @property
    def notes(self) -> Dict[str, str]:
        """What loading found out: timestamps, cache use, funding, and where the
        instruments' sizes came from (Note [Instruments stated])."""
        return {
            "timestamps": self._handle.timestamp_note,
            "loading": self._handle.loading_note,
            "funding": self._handle.funding_note,
            "instruments": self._handle.instruments_note,
        }

    @property
    def instruments(self) -> pd.DataFrame:
        """Each symbol's quantity step, minimum quantity and price tick: the
        instruments file's, the synthetic market's own, or the defaults when
        none was given (``notes["instruments"]`` says which)."""
        rows = [self._handle.instrument(s) for s in range(len(self.symbols))]
        return pd.DataFrame(rows, index=pd.Index(self.symbols, name="symbol"),
                            columns=["qty_step", "min_qty", "price_tick"])

    def write_instruments(self, path: PathLike) -> None:
        """Writes the instruments (sizes and margin tiers) as the instruments
        file ``--instruments`` and ``instruments=`` read: a market passed
        through :meth:`to_pandas` keeps its sizes only with this file."""
        self._handle.write_instruments(os.fspath(path))

    @property
    def timestamps(self) -> pd.DatetimeIndex:
        """The aligned bars' times (UTC)."""
        return pd.DatetimeIndex(pd.to_datetime(np.asarray(self._handle.timestamp_ms), unit="ms", utc=True),
                                name="time")

    def column(self, name: str) -> pd.DataFrame:
        """One column of the aligned market, bars x symbols: open, high, low,
        close, volume, funding_rate, tradable (a symbol without a bar at a
        time is not tradable there and repeats its previous values) or
        funding_events. The values are viewed in place, read-only."""
        values = self._handle.column(name)
        frame = pd.DataFrame(np.asarray(values).T, index=self.timestamps, columns=self.symbols, copy=False)
        return frame.astype(bool) if name == "tradable" else frame

    def to_pandas(self) -> pd.DataFrame:
        """The long layout: one row per symbol and own bar."""
        times = np.asarray(self._handle.timestamp_ms)
        tradable = np.asarray(self._handle.column("tradable")).astype(bool)
        parts = []
        for s, name in enumerate(self.symbols):
            own = tradable[s]
            part = {"timestamp": pd.to_datetime(times[own], unit="ms", utc=True), "symbol": name}
            for column in ("open", "high", "low", "close", "volume", "funding_rate"):
                part[column] = np.asarray(self._handle.column(column))[s][own]
            parts.append(pd.DataFrame(part))
        return pd.concat(parts, ignore_index=True)

    def __repr__(self) -> str:
        return f"<btforge.Market {self.description}>"


def _long_frame(frame: pd.DataFrame, symbol: Optional[str]) -> pd.DataFrame:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"from_pandas takes a pandas DataFrame, got {type(frame).__name__}")
    long = frame
    index_names = [n for n in long.index.names if n is not None]
    if isinstance(long.index, pd.DatetimeIndex) or any(str(n).lower() in ("timestamp", "time", "date", "symbol")
                                                       for n in index_names):
        long = long.reset_index()
        if "index" in long.columns and "timestamp" not in [str(c).lower() for c in long.columns]:
            long = long.rename(columns={"index": "timestamp"})
    renamed = {}
    for column in long.columns:
        lower = str(column).strip().lower()
        if lower in ("time", "date", "datetime") and "timestamp" not in [str(c).strip().lower() for c in long.columns]:
            lower = "timestamp"
        if lower in _COLUMNS:
            renamed[column] = lower
    long = long.rename(columns=renamed)
    if "symbol" not in long.columns:
        if symbol is None:
            raise DataError(
                f"{_DATAFRAME}: missing-column: the frame has no symbol column; give symbol= for a frame of one symbol",
                file=_DATAFRAME, line=1, column=0, rule="missing-column", detail="no symbol column")
        long = long.assign(symbol=symbol)
    elif symbol is not None:
        raise ValueError("symbol= names the one symbol of a frame without a symbol column; this frame has one")
    missing = [c for c in _COLUMNS[:7] if c not in long.columns]
    if missing:
        raise DataError(
            f"{_DATAFRAME}: missing-column: the frame has no column {', '.join(missing)} "
            f"(columns: timestamp, symbol, open, high, low, close, volume[, funding_rate])",
            file=_DATAFRAME, line=1, column=0, rule="missing-column", detail="missing " + ", ".join(missing))
    return long[[c for c in _COLUMNS if c in long.columns]]


def _csv_text(long: pd.DataFrame, timestamp_unit: str) -> "tuple[bytes, str]":
    """The long CSV of the frame, every number exact: floats as their
    shortest round-trip text, datetimes as integer nanoseconds."""
    out = long.copy(deep=False)
    stamps = out["timestamp"]
    if pd.api.types.is_datetime64_any_dtype(stamps):
        if timestamp_unit not in ("auto", "ns"):
            raise ValueError(f"timestamp_unit={timestamp_unit!r} applies to integer timestamps; these are datetimes")
        if getattr(stamps.dt, "tz", None) is not None:
            stamps = stamps.dt.tz_convert("UTC").dt.tz_localize(None)
        # NaT becomes the smallest int64, which the loader refuses at its row.
        out["timestamp"] = stamps.astype("datetime64[ns]").astype("int64")
        timestamp_unit = "ns"
    # Text fields quoted: the CSV reader trims the spaces around an unquoted
    # field, and a symbol " BTC" must reach the bad-symbol rule as it is.
    text = out.to_csv(index=False, lineterminator="\n", na_rep="", quoting=csv.QUOTE_NONNUMERIC)
    return text.encode("utf-8"), timestamp_unit


def _located(error: DataError, long: pd.DataFrame, labels: pd.Index) -> DataError:
    """The loader's error of line L of the CSV text, told as row L - 2 of the frame."""
    if error.file != _DATAFRAME or not error.line or error.line < 2 or error.line - 2 >= len(long):
        return error
    row = error.line - 2
    label = labels[row]
    column = long.columns[error.column - 1] if 0 < error.column <= len(long.columns) else None
    where = f"{_DATAFRAME} row {row} (index {label!r})" + (f", column {column!r}" if column else "")
    message = re.sub(r"^<DataFrame>:\d+(:\d+)?", where, str(error))
    return DataError(message, file=error.file, line=error.line, column=error.column, rule=error.rule,
                     detail=error.detail, row=row, index=label)


MarketLike = Union[None, Market, str, "os.PathLike[str]", pd.DataFrame]


def as_market(market: MarketLike) -> Market:
    """The market a run's ``market`` argument names: the synthetic one for
    None, a CSV path through Market.from_csv, a frame through from_pandas."""
    if market is None:
        return Market.synthetic()
    if isinstance(market, Market):
        return market
    if isinstance(market, (str, os.PathLike)):
        return Market.from_csv(market)
    if isinstance(market, pd.DataFrame):
        return Market.from_pandas(market)
    raise TypeError(f"market must be a btforge.Market, a CSV path or a DataFrame, got {type(market).__name__}")
