"""Markets from pandas, CSV and Parquet: the loader's rules and messages."""

import numpy as np
import pandas as pd
import pytest

import btforge


@pytest.fixture(scope="module")
def market_csv(tmp_path_factory, cli):
    import subprocess

    folder = tmp_path_factory.mktemp("market")
    subprocess.run([cli, "data", "synth", "--synthetic-bars", "2000", "--synthetic-symbols", "3", "-o",
                    str(folder / "m.csv")], check=True, capture_output=True)
    return folder / "m.csv"


def sweep_table(market):
    return btforge.sweep(market, params=["ema_fast=8,12", "sl_atr=1.5,3"], top=4, threads=2, backend="cpu",
                         progress=False).table


def test_every_way_in_gives_the_same_market(market_csv, tmp_path):
    from_csv = btforge.Market.from_csv(market_csv, cache=False)
    frame = pd.read_csv(market_csv)
    from_text_times = btforge.Market.from_pandas(frame)
    with_datetimes = frame.assign(timestamp=pd.to_datetime(frame["timestamp"], utc=True))
    from_datetimes = btforge.Market.from_pandas(with_datetimes)
    indexed = with_datetimes.set_index(["timestamp", "symbol"])
    from_index = btforge.Market.from_pandas(indexed)
    with_datetimes.to_parquet(tmp_path / "m.parquet")
    from_parquet = btforge.Market.from_parquet(tmp_path / "m.parquet")
    expected = sweep_table(from_csv)
    for market in (from_text_times, from_datetimes, from_index, from_parquet):
        assert market.symbols == from_csv.symbols
        assert market.n_bars == from_csv.n_bars == 2000
        for column in ("open", "high", "low", "close", "volume", "funding_rate"):
            assert np.array_equal(market.column(column).to_numpy(), from_csv.column(column).to_numpy()), column
        pd.testing.assert_frame_equal(sweep_table(market), expected, check_exact=True)
    assert from_datetimes.description.startswith("<DataFrame>: 3 symbols x 2000 bars")


def test_one_symbol_frame_with_a_datetime_index(market_csv):
    frame = pd.read_csv(market_csv)
    one = frame[frame["symbol"] == frame["symbol"].iloc[0]].drop(columns="symbol")
    one.index = pd.to_datetime(one.pop("timestamp"), utc=True)
    market = btforge.Market.from_pandas(one, symbol="BTC")
    assert market.symbols == ["BTC"] and market.n_bars == len(one)
    with pytest.raises(btforge.DataError, match="give symbol="):
        btforge.Market.from_pandas(one)


def good_frame(n=6):
    times = pd.date_range("2024-01-01", periods=n, freq="h", tz="UTC")
    return pd.DataFrame({"timestamp": times, "symbol": "BTC", "open": 100.0, "high": 101.0, "low": 99.0,
                         "close": 100.5, "volume": 10.0}, index=[f"r{i}" for i in range(n)])


def broken(change):
    frame = good_frame()
    change(frame)
    return frame


# (frame, rule, row): every rule of the CSV loader a DataFrame can break, at its row.
BAD_FRAMES = [
    (broken(lambda f: f.__setitem__("high", [101.0, 101.0, 101.0, 98.0, 101.0, 101.0])), "high-below-low", 3),
    (broken(lambda f: f.__setitem__("low", [99.0, 99.0, 100.9, 99.0, 99.0, 99.0])), "low-above-open-close", 2),
    (broken(lambda f: f.__setitem__("open", [100.0, -1.0, 100.0, 100.0, 100.0, 100.0])), "non-positive-price", 1),
    (broken(lambda f: f.__setitem__("close", [100.5, 100.5, np.nan, 100.5, 100.5, 100.5])), "not-a-number", 2),
    (broken(lambda f: f.__setitem__("volume", [10.0, 10.0, 10.0, 10.0, -5.0, 10.0])), "negative-volume", 4),
    (broken(lambda f: f.__setitem__("timestamp", f["timestamp"].iloc[[0, 1, 3, 2, 4, 5]].to_numpy())),
     "unsorted-timestamps", 3),
    (broken(lambda f: f.__setitem__("timestamp", f["timestamp"].iloc[[0, 1, 1, 3, 4, 5]].to_numpy())),
     "duplicate-timestamp", 2),
    (broken(lambda f: f.__setitem__("timestamp", f["timestamp"] + pd.Timedelta(microseconds=5))),
     "sub-millisecond-timestamp", 0),
    (broken(lambda f: f.__setitem__("symbol", ["BTC", "BTC", " ETH", "BTC", "BTC", "BTC"])), "bad-symbol", 2),
    (broken(lambda f: f.__setitem__("funding_rate", [0.0, 0.0, 0.0, 0.0, 0.0, 2.0])), "funding-rate-out-of-range", 5),
    (broken(lambda f: f.__setitem__("high", 1e13)), "price-out-of-range", 0),
]


@pytest.mark.parametrize("frame,rule,row", BAD_FRAMES, ids=[case[1] for case in BAD_FRAMES])
def test_bad_frames_are_refused_at_their_row(frame, rule, row):
    with pytest.raises(btforge.DataError) as raised:
        btforge.Market.from_pandas(frame)
    error = raised.value
    assert error.rule == rule
    assert error.row == row
    assert error.index == f"r{row}"
    assert str(error).startswith(f"<DataFrame> row {row} (index 'r{row}')")


def test_missing_columns_are_named():
    with pytest.raises(btforge.DataError) as raised:
        btforge.Market.from_pandas(good_frame().drop(columns=["volume", "low"]))
    assert raised.value.rule == "missing-column"
    assert "low, volume" in str(raised.value)


def test_csv_errors_name_file_line_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("timestamp,symbol,open,high,low,close,volume\n"
                    "2024-01-01T00:00:00Z,BTC,100,101,99,100,1\n"
                    "2024-01-01T01:00:00Z,BTC,100,98,99,100,1\n")
    with pytest.raises(btforge.DataError) as raised:
        btforge.Market.from_csv(path)
    error = raised.value
    assert (error.file, error.line, error.column, error.rule) == (str(path), 3, 4, "high-below-low")
    assert str(error).startswith(f"{path}:3:4: high-below-low:")


def test_indicators_equal_the_cli(market_csv, run_cli, tmp_path):
    market = btforge.Market.from_csv(market_csv)
    ours = btforge.indicators(market, "BBANDS", period=20, k=2)
    run_cli("indicators", "--data", str(market_csv), "--name", "BBANDS", "--param", "period=20", "--param", "k=2",
            "-o", "bb.csv")
    from btforge._csv import read_csv

    theirs = read_csv(tmp_path / "bb.csv")
    # The same instants; the resolution pandas parses ISO text to varies by version.
    theirs["time"] = pd.to_datetime(theirs["time"], utc=True).astype(ours["time"].dtype)
    pd.testing.assert_frame_equal(ours, theirs, check_exact=True)
    with pytest.raises(btforge.BtforgeError, match="needs the parameter k"):
        btforge.indicators(market, "BBANDS", period=20)


def test_finer_bars_settle_the_bars_they_can(run_cli, tmp_path):
    # Hours resampled from minutes by `data import`, so the two agree where no minute is missing.
    run_cli("data", "synth", "--synthetic-bars", "12000", "--synthetic-bar-minutes", "1", "--synthetic-symbols", "2",
            "-o", str(tmp_path / "minutes.csv"))
    run_cli("data", "import", "--format", "csv", "--bar", "1h", str(tmp_path / "minutes.csv"), "-o",
            str(tmp_path / "hours.csv"))
    hours = btforge.Market.from_csv(tmp_path / "hours.csv", cache=False)
    magnified = btforge.Market.from_csv(tmp_path / "hours.csv", intrabar=tmp_path / "minutes.csv", cache=False)
    assert "60 finer bars per bar (1-minute bars in 1-hour bars)" in magnified.description
    params = ["ema_fast=8,12", "sl_atr=1,1.5", "tp1_atr=1,2"]
    plain = btforge.sweep(hours, params=params, all_rows=True, threads=2, backend="cpu", progress=False).table
    walked = btforge.sweep(magnified, params=params, all_rows=True, threads=2, backend="cpu", progress=False).table
    assert (plain["magnified_bars"] == 0).all()
    assert walked["magnified_bars"].sum() > 0
    assert walked["ambiguous_bars"].sum() < plain["ambiguous_bars"].sum()
    # A DataFrame of the hours takes the same minutes file and walks the same bars.
    framed = btforge.Market.from_pandas(hours.to_pandas(), intrabar=tmp_path / "minutes.csv")
    assert "60 finer bars per bar (1-minute bars in 1-hour bars)" in framed.description
    from_frame = btforge.sweep(framed, params=params, all_rows=True, threads=2, backend="cpu", progress=False).table
    pd.testing.assert_frame_equal(from_frame, walked, check_exact=True)


def test_a_mark_price_is_read_as_the_command_line_reads_it(run_cli, tmp_path):
    # Note [Mark price]: the same mark file through Python and through `sweep --mark` gives the same rows.
    run_cli("data", "synth", "--synthetic-bars", "3000", "--synthetic-symbols", "2", "-o", str(tmp_path / "last.csv"))
    last = pd.read_csv(tmp_path / "last.csv")
    mark = last[["timestamp", "symbol"]].copy()
    for column in ("open", "high", "low", "close"):
        mark[column] = (last[column] * 0.99).round(2)
    mark["volume"] = 0
    mark.to_csv(tmp_path / "mark.csv", index=False)
    params = ["risk_per_trade=0.5", "max_leverage=10,50", "sl_atr=4,20"]
    marked = btforge.Market.from_csv(tmp_path / "last.csv", mark=tmp_path / "mark.csv", cache=False)
    assert "mark price from" in marked.description
    plain = btforge.Market.from_csv(tmp_path / "last.csv", cache=False)
    assert "mark price: none (liquidation reads the last price)" in plain.description
    ours = btforge.sweep(marked, params=params, all_rows=True, threads=2, backend="cpu", progress=False,
                         margin_mode="isolated").table
    run_cli("sweep", "--data", str(tmp_path / "last.csv"), "--mark", str(tmp_path / "mark.csv"), "--all-rows",
            "--margin-mode", "isolated", *[a for p in params for a in ("--param", p)], "-o", str(tmp_path / "cli"))
    theirs = pd.read_csv(tmp_path / "cli.csv")
    assert list(ours["n_liquidations"]) == list(theirs["n_liquidations"])
    assert list(ours["sharpe"]) == list(theirs["sharpe"])
    unmarked = btforge.sweep(plain, params=params, all_rows=True, threads=2, backend="cpu", progress=False,
                             margin_mode="isolated").table
    assert list(unmarked["n_liquidations"]) != list(ours["n_liquidations"])
