#!/usr/bin/env python3
"""Writes the real-market TA-Lib oracle fixture for talib_market_test.

Real prices, not synthetic ones: the daily GOOG, hourly EUR/USD and monthly
BTC/USD bars that backtesting.py ships as its test data (backtesting/test/*.csv
of the pinned package, read as files: the package is never imported, so its
own dependencies are not needed). Every price scale the loader accepts (Note
[Market value limits]: 1e-12 .. 1e12) is covered by multiplying open, high,
low and close by 10^k for k = -12 .. 12 (the volume is kept). Every indicator
of the catalog but BREADTH (no TA-Lib counterpart) runs through TA-Lib at the
parameter sets of CASES on each scaled series.

Beside TA-Lib's values, the exact WMA (rational arithmetic) of the unscaled
closes, to measure the running sums' drift against the true weighted mean.

Two files are written: OUT (JSON: the versions, the series, the scales, the
cases, the exact WMAs and where each array lies in the data file) and OUT's stem + ".bin"
(little-endian float64 arrays, NaN where TA-Lib has no value). The scaled
inputs are stored as well, so the test computes on exactly the doubles TA-Lib
was given.
"""
import argparse
import csv
import importlib.metadata
import importlib.util
import json
import os
import sys
from fractions import Fraction

try:
    import numpy as np
    import talib
except ImportError as exc:  # the oracle must never be skipped silently
    sys.stderr.write(
        "talib_market_fixture: cannot import numpy/talib (%s).\n"
        "Install the oracle with: scripts/install-deps --test\n" % exc)
    sys.exit(1)

# backtesting.py's bundled data: symbol, file, what it is.
DATASETS = [
    ("GOOG", "GOOG.csv", "daily NASDAQ:GOOG 2004-2013"),
    ("EURUSD", "EURUSD.csv", "hourly EUR/USD 2017-2018"),
    ("BTCUSD", "BTCUSD.csv", "monthly BTC/USD 2012-2024"),
]
# Decimal strings: both sides turn them into the same double.
SCALES = ["1e%d" % k for k in range(-12, 13)]


def stoch(s, fk, sk, sd):
    return list(talib.STOCH(s["high"], s["low"], s["close"], fastk_period=fk, slowk_period=sk, slowk_matype=0,
                            slowd_period=sd, slowd_matype=0))


def bbands(s, p, k):
    return list(talib.BBANDS(s["close"], timeperiod=p, nbdevup=k, nbdevdn=k, matype=0))


# (indicator, params, TA-Lib call): the smallest period TA-Lib accepts, a
# short and the usual one, so every zero test and every seed path runs.
CASES = []
for p in (1, 2, 14, 50):
    CASES += [
        ("SMA", [p], lambda s, p=p: [talib.SMA(s["close"], p)]),
        ("EMA", [p], lambda s, p=p: [talib.EMA(s["close"], p)]),
        ("WMA", [p], lambda s, p=p: [talib.WMA(s["close"], p)]),
        ("KAMA", [p], lambda s, p=p: [talib.KAMA(s["close"], p)]),
        ("ATR", [p], lambda s, p=p: [talib.ATR(s["high"], s["low"], s["close"], p)]),
        ("PLUS_DI", [p], lambda s, p=p: [talib.PLUS_DI(s["high"], s["low"], s["close"], p)]),
        ("MINUS_DI", [p], lambda s, p=p: [talib.MINUS_DI(s["high"], s["low"], s["close"], p)]),
        ("ROC", [p], lambda s, p=p: [talib.ROC(s["close"], p)]),
    ]
for p in (2, 14, 50):
    CASES += [
        ("RSI", [p], lambda s, p=p: [talib.RSI(s["close"], p)]),
        ("ADX", [p], lambda s, p=p: [talib.ADX(s["high"], s["low"], s["close"], p)]),
        ("CCI", [p], lambda s, p=p: [talib.CCI(s["high"], s["low"], s["close"], p)]),
        ("MFI", [p], lambda s, p=p: [talib.MFI(s["high"], s["low"], s["close"], s["volume"], p)]),
        ("WILLR", [p], lambda s, p=p: [talib.WILLR(s["high"], s["low"], s["close"], p)]),
        ("MAX", [p], lambda s, p=p: [talib.MAX(s["high"], p)]),
        ("MIN", [p], lambda s, p=p: [talib.MIN(s["low"], p)]),
    ]
for f, sl, sg in [(12, 26, 9), (2, 3, 1), (26, 12, 9)]:
    CASES.append(("MACD", [f, sl, sg], lambda s, a=(f, sl, sg): list(talib.MACD(s["close"], *a))))
for p, k in [(20, 2.0), (2, 1.0), (14, -1.5), (5, 0.0), (20, 3e37), (20, -3e37)]:
    CASES.append(("BBANDS", [p, k], lambda s, p=p, k=k: bbands(s, p, k)))
for fk, sk, sd in [(14, 3, 3), (1, 1, 1), (5, 1, 2)]:
    CASES.append(("STOCH", [fk, sk, sd], lambda s, a=(fk, sk, sd): stoch(s, *a)))
CASES.append(("OBV", [], lambda s: [talib.OBV(s["close"], s["volume"])]))


# WMA against the exact weighted mean (rational arithmetic, one rounding at the
# end) on the unscaled closes: the drift of running sums (Note [WMA
# re-anchoring]) shows here and nowhere else.
EXACT_WMA_PERIODS = [2, 14, 50]


def exact_wma(closes, period):
    x = [Fraction(v) for v in closes]
    out = np.full(len(x), np.nan)
    divider = period * (period + 1) // 2
    for t in range(period - 1, len(x)):
        weighted = sum((i + 1) * x[t - period + 1 + i] for i in range(period))
        out[t] = float(weighted / divider)  # correctly rounded
    return out


def data_dir():
    spec = importlib.util.find_spec("backtesting")
    if spec is None or not spec.submodule_search_locations:
        sys.stderr.write("talib_market_fixture: the backtesting package (its bundled market data) is not installed.\n"
                         "Install it with: scripts/install-deps --test\n")
        sys.exit(1)
    return os.path.join(list(spec.submodule_search_locations)[0], "test")


def read_ohlcv(path):
    columns = {"Open": [], "High": [], "Low": [], "Close": [], "Volume": []}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            for name, values in columns.items():
                values.append(float(row[name]))
    return [np.array(columns[c], dtype=np.float64) for c in ("Open", "High", "Low", "Close", "Volume")]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True, help="the JSON manifest; the data goes beside it as .bin")
    args = parser.parse_args()
    bin_path = os.path.splitext(args.out)[0] + ".bin"

    chunks = []
    offset = 0

    def put(values):
        nonlocal offset
        a = np.ascontiguousarray(values, dtype="<f8")
        chunks.append(a)
        at = offset
        offset += a.size
        return at

    directory = data_dir()
    doc = {
        "talib_version": talib.__version__,
        "ta_lib_c_version": talib.__ta_version__.decode() if isinstance(talib.__ta_version__, bytes)
        else str(talib.__ta_version__),
        "data_package": "backtesting " + importlib.metadata.version("backtesting"),
        "data_file": os.path.basename(bin_path),
        "scales": SCALES,
        "series": [],
        "exact_wma": [],
    }
    for symbol, file_name, what in DATASETS:
        o, h, l, c, v = read_ohlcv(os.path.join(directory, file_name))
        for scale_text in SCALES:
            scale = float(scale_text)
            s = {"open": o * scale, "high": h * scale, "low": l * scale, "close": c * scale, "volume": v}
            entry = {"symbol": symbol, "what": what, "scale": scale_text, "n": int(c.size),
                     "inputs": {k: put(x) for k, x in s.items()}, "cases": []}
            for indicator, params, run in CASES:
                entry["cases"].append({"indicator": indicator, "params": params,
                                       "outputs": [put(out) for out in run(s)]})
            doc["series"].append(entry)
        for period in EXACT_WMA_PERIODS:
            doc["exact_wma"].append({"symbol": symbol, "period": period, "values": put(exact_wma(c, period))})
    with open(bin_path, "wb") as f:
        for a in chunks:
            a.tofile(f)
    with open(args.out, "w") as f:
        json.dump(doc, f)
    print("talib_market_fixture: TA-Lib %s (C %s) on %s: %d series x %d cases, %.1f MB in %s" % (
        doc["talib_version"], doc["ta_lib_c_version"], doc["data_package"], len(doc["series"]), len(CASES),
        offset * 8 / 1e6, bin_path))


if __name__ == "__main__":
    main()
