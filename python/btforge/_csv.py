"""CSV text of the engine's writers as DataFrames, every number exact."""

from __future__ import annotations

import io
from typing import Union

import pandas as pd

# pandas before 3 parses floats with a fast, sometimes 1-ulp-off converter
# unless asked for round trips; 3 reads them exactly by default (and warns
# at the option).
_EXACT = {"float_precision": "round_trip"} if int(pd.__version__.split(".")[0]) < 3 else {}


def read_csv(source: Union[str, "io.StringIO"], text: bool = False) -> pd.DataFrame:
    """``source``: a path, or the CSV itself when ``text``."""
    return pd.read_csv(io.StringIO(source) if text else source, **_EXACT)
