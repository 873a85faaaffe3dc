#!/usr/bin/env python3
"""Writes the TA-Lib oracle fixture for talib_parity_test.

Deterministic synthetic OHLCV series (seeded numpy) go through TA-Lib for every
single-series indicator of the catalog at several parameter sets; inputs and
outputs are written as JSON (floats in repr, i.e. round-trip, precision; NaN
as null) together with the versions of the Python package and the C library.
"""
import argparse
import json
import sys

try:
    import numpy as np
    import talib
except ImportError as exc:  # the oracle must never be skipped silently
    sys.stderr.write(
        "talib_fixture: cannot import numpy/talib (%s).\n"
        "Install the oracle with: pip install ta-lib\n" % exc)
    sys.exit(1)


def ohlcv_from_close(rng, close):
    n = len(close)
    spread = 0.01 * rng.random(n)
    open_ = np.concatenate(([close[0]], close[:-1])) * (1 + 0.002 * rng.standard_normal(n))
    high = np.maximum(np.maximum(open_, close) * (1 + spread * rng.random(n)), np.maximum(open_, close))
    low = np.minimum(np.minimum(open_, close) * (1 - spread * rng.random(n)), np.minimum(open_, close))
    volume = np.round(1000 + 9000 * rng.random(n))
    return open_, high, low, close, volume


def make_series():
    rng = np.random.default_rng(20240601)
    series = {}

    close = 100 * np.cumprod(1 + 0.015 * rng.standard_normal(400))
    series["random_walk"] = ohlcv_from_close(rng, close)

    close = 50 * np.cumprod(1 + 0.01 * rng.standard_normal(220))
    o, h, l, c, v = ohlcv_from_close(rng, close)
    flat = slice(80, 140)  # a halted stretch: every price equal, volume kept
    level = c[79]
    for a in (o, h, l, c):
        a[flat] = level
    series["flat_stretch"] = (o, h, l, c, v)

    close = 80 * np.cumprod(1 + 0.01 * rng.standard_normal(240))
    close[100:] *= 1.2   # +20% gap
    close[170:] *= 0.8   # -20% gap
    series["gaps"] = ohlcv_from_close(rng, close)

    n = 80
    series["all_flat"] = tuple(np.full(n, 42.5) for _ in range(4)) + (np.full(n, 1000.0),)

    close = 1e-6 * np.cumprod(1 + 0.02 * rng.standard_normal(150))  # a quote far below 1
    series["penny"] = ohlcv_from_close(rng, close)

    close = 10 * np.cumprod(1 + 0.02 * rng.standard_normal(12))
    series["short"] = ohlcv_from_close(rng, close)
    return series


PERIODS_1 = [1, 2, 5, 14, 30]
PERIODS_2 = [2, 5, 14, 30]


def cases():
    for p in PERIODS_1:
        yield "SMA", [p], lambda s, p=p: [talib.SMA(s["close"], p)]
        yield "EMA", [p], lambda s, p=p: [talib.EMA(s["close"], p)]
        yield "WMA", [p], lambda s, p=p: [talib.WMA(s["close"], p)]
        yield "KAMA", [p], lambda s, p=p: [talib.KAMA(s["close"], p)]
        yield "ATR", [p], lambda s, p=p: [talib.ATR(s["high"], s["low"], s["close"], p)]
        yield "PLUS_DI", [p], lambda s, p=p: [talib.PLUS_DI(s["high"], s["low"], s["close"], p)]
        yield "MINUS_DI", [p], lambda s, p=p: [talib.MINUS_DI(s["high"], s["low"], s["close"], p)]
        yield "ROC", [p], lambda s, p=p: [talib.ROC(s["close"], p)]
    for p in PERIODS_2:
        yield "RSI", [p], lambda s, p=p: [talib.RSI(s["close"], p)]
        yield "ADX", [p], lambda s, p=p: [talib.ADX(s["high"], s["low"], s["close"], p)]
        yield "CCI", [p], lambda s, p=p: [talib.CCI(s["high"], s["low"], s["close"], p)]
        yield "MFI", [p], lambda s, p=p: [talib.MFI(s["high"], s["low"], s["close"], s["volume"], p)]
        yield "WILLR", [p], lambda s, p=p: [talib.WILLR(s["high"], s["low"], s["close"], p)]
        yield "MAX", [p], lambda s, p=p: [talib.MAX(s["high"], p)]
        yield "MIN", [p], lambda s, p=p: [talib.MIN(s["low"], p)]
    for f, sl, sg in [(12, 26, 9), (2, 3, 1), (5, 35, 5), (3, 2, 2), (26, 12, 9)]:
        yield "MACD", [f, sl, sg], lambda s, a=(f, sl, sg): list(talib.MACD(s["close"], *a))
    for p, k in [(2, 2.0), (5, 1.0), (20, 2.0), (30, 2.5), (14, 0.0)]:
        yield "BBANDS", [p, k], lambda s, p=p, k=k: list(
            talib.BBANDS(s["close"], timeperiod=p, nbdevup=k, nbdevdn=k, matype=0))
    for fk, sk, sd in [(1, 1, 1), (5, 3, 3), (14, 3, 3), (2, 1, 2), (30, 5, 5)]:
        yield "STOCH", [fk, sk, sd], lambda s, a=(fk, sk, sd): list(talib.STOCH(
            s["high"], s["low"], s["close"], fastk_period=a[0], slowk_period=a[1], slowk_matype=0,
            slowd_period=a[2], slowd_matype=0))
    yield "OBV", [], lambda s: [talib.OBV(s["close"], s["volume"])]


# Note [Parameter domains] against TA-Lib itself: each parameter of each
# indicator at the values around its bounds, the others at a valid default;
# "accepted" is whether TA-Lib computes (True) or refuses with TA_BAD_PARAM.
# Periods are ints in TA-Lib's API, so only whole numbers are probed; BREADTH
# (no TA-Lib counterpart) takes the period of its EMA.
PERIOD_PROBES = [-1, 0, 1, 2, 3, 99999, 100000, 100001]
REAL_PROBES = [float("-inf"), -3.0000000000000007e37, -3e37, -2.0, -0.0, 0.0, 1e-300, 2.0, 3e37,
               3.0000000000000007e37, float("inf"), float("nan")]
DOMAIN_CALLS = {
    "SMA": ([30], lambda x, a: talib.SMA(x, *a)),
    "EMA": ([30], lambda x, a: talib.EMA(x, *a)),
    "WMA": ([30], lambda x, a: talib.WMA(x, *a)),
    "KAMA": ([30], lambda x, a: talib.KAMA(x, *a)),
    "RSI": ([14], lambda x, a: talib.RSI(x, *a)),
    "MACD": ([12, 26, 9], lambda x, a: talib.MACD(x, *a)),
    "BBANDS": ([20, 2.0], lambda x, a: talib.BBANDS(x, a[0], a[1], a[1], 0)),
    "ATR": ([14], lambda x, a: talib.ATR(x, x, x, *a)),
    "PLUS_DI": ([14], lambda x, a: talib.PLUS_DI(x, x, x, *a)),
    "MINUS_DI": ([14], lambda x, a: talib.MINUS_DI(x, x, x, *a)),
    "ADX": ([14], lambda x, a: talib.ADX(x, x, x, *a)),
    "STOCH": ([5, 3, 3], lambda x, a: talib.STOCH(x, x, x, a[0], a[1], 0, a[2], 0)),
    "CCI": ([14], lambda x, a: talib.CCI(x, x, x, *a)),
    "MFI": ([14], lambda x, a: talib.MFI(x, x, x, x, *a)),
    "OBV": ([], lambda x, a: talib.OBV(x, x)),
    "WILLR": ([14], lambda x, a: talib.WILLR(x, x, x, *a)),
    "ROC": ([10], lambda x, a: talib.ROC(x, *a)),
    "MAX": ([30], lambda x, a: talib.MAX(x, *a)),
    "MIN": ([30], lambda x, a: talib.MIN(x, *a)),
    "BREADTH": ([30], lambda x, a: talib.EMA(x, *a)),
}


def domain_probes():
    x = np.linspace(1.0, 2.0, 10)
    probes = []
    for name, (defaults, call) in DOMAIN_CALLS.items():
        for i, default in enumerate(defaults):
            for v in (REAL_PROBES if isinstance(default, float) else PERIOD_PROBES):
                params = list(defaults)
                params[i] = v
                try:
                    call(x, params)
                    accepted = True
                except Exception as exc:  # TA-Lib's refusal: "... failed with error code 2: Bad Parameter"
                    if "Bad Parameter" not in str(exc):
                        raise
                    accepted = False
                # JSON has no NaN or infinities: they travel as text.
                probes.append({"indicator": name, "params": [p if np.isfinite(p) else repr(float(p)) for p in params],
                               "accepted": accepted})
    return probes


def encode(a):
    return [None if np.isnan(x) else float(x) for x in a]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    series = make_series()
    doc = {
        "talib_version": talib.__version__,
        "ta_lib_c_version": talib.__ta_version__.decode() if isinstance(talib.__ta_version__, bytes)
        else str(talib.__ta_version__),
        "series": [],
        "cases": [],
        "domains": domain_probes(),
    }
    arrays = {}
    for name, (o, h, l, c, v) in series.items():
        arr = {k: np.ascontiguousarray(x, dtype=np.float64) for k, x in
               zip(("open", "high", "low", "close", "volume"), (o, h, l, c, v))}
        arrays[name] = arr
        doc["series"].append({"name": name, **{k: encode(x) for k, x in arr.items()}})
    for indicator, params, run in cases():
        for name, arr in arrays.items():
            outputs = run(arr)
            doc["cases"].append({"indicator": indicator, "params": params, "series": name,
                                 "outputs": [encode(o) for o in outputs]})
    with open(args.out, "w") as f:
        json.dump(doc, f, allow_nan=False)
    print("talib_fixture: TA-Lib %s (C %s): %d cases written to %s" % (
        doc["talib_version"], doc["ta_lib_c_version"], len(doc["cases"]), args.out))


if __name__ == "__main__":
    main()
