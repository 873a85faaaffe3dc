"""CSV text of the engine's writers as DataFrames, every number exact."""

from __future__ import annotations

import io
import warnings
from typing import Union

import pandas as pd


def read_csv(source: Union[str, "io.StringIO"], text: bool = False) -> pd.DataFrame:
    """``source``: a path, or the CSV itself when ``text``.

    The engine writes every double at its shortest round-trip text; pandas'
    default float parser can land one ulp off that value (pandas 3.0.6 did,
    on the GPU machine: 13124.944502877905 for 13124.944502877903), so the
    round-trip parser is asked for; pandas 3.1 warns that the option is
    deprecated, which is silenced here and only here.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*float_precision.*")
        return pd.read_csv(io.StringIO(source) if text else source, float_precision="round_trip")
