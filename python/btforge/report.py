"""The report of a sweep: one self-contained HTML file that opens offline.

    python -m btforge.report RESULTS.json -o report.html

reads what ``btforge sweep -o RESULTS`` wrote (RESULTS.json, .csv and, when
the sweep asked for them, .validation.json and .walkforward.csv), replays
the best row with the options the JSON records (Note [Inputs of a run]) and
writes the run's assumptions, the ranked table, the pictures of
btforge.plots and the replay. ``SweepResult.report(path)`` writes the same
from a sweep run in Python.

The page checks itself once it has loaded: every chart must have drawn
(plotly's SVG is in its div) and no script error may have occurred; it
writes the outcome into ``#btforge-report-status`` (``data-charts``,
``data-drawn``, ``data-errors``), which the tests read from headless
Chromium.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, Optional

from ._csv import read_csv
from ._report_page import undefined_statistics, write_report
from .errors import BtforgeError
from .sweep import SweepResult

__all__ = ["load_result", "main", "undefined_statistics", "write_report"]


def load_result(path: str) -> SweepResult:
    """A SweepResult from the files of ``btforge sweep -o BASE`` (BASE.json given)."""
    with open(path, encoding="utf-8") as f:
        summary = json.load(f)
    summary.pop("rows", None)
    base = path[:-5] if path.endswith(".json") else path
    if not os.path.exists(base + ".csv"):
        raise BtforgeError(f"{path}: no {base}.csv beside it (the ranked rows of the same sweep)")
    table = read_csv(base + ".csv")
    validation = None
    if os.path.exists(base + ".validation.json"):
        with open(base + ".validation.json", encoding="utf-8") as f:
            validation = json.load(f)
    walk_forward = None
    if os.path.exists(base + ".walkforward.csv"):
        walk_forward = read_csv(base + ".walkforward.csv")
    return SweepResult(table=table, summary=summary, validation=validation, walk_forward=walk_forward, header="",
                       text="", market=None, _options=dict(summary.get("inputs", {})))



def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m btforge.report",
        description="Writes one self-contained HTML report of a btforge sweep's result files.")
    parser.add_argument("results", help="RESULTS.json written by btforge sweep -o RESULTS")
    parser.add_argument("-o", "--output", default=None, help="the HTML file (default: RESULTS.html)")
    parser.add_argument("--rows", type=int, default=20, help="ranked rows to show (default 20)")
    parser.add_argument("--no-replay", action="store_true", help="do not replay the best row")
    args = parser.parse_args(argv)
    output = args.output or (args.results[:-5] if args.results.endswith(".json") else args.results) + ".html"
    try:
        result = load_result(args.results)
        write_report(result, output, replay=not args.no_replay, rows=args.rows)
    except (OSError, ValueError, BtforgeError) as error:
        print(f"btforge report: error: {error}", file=sys.stderr)
        return 1
    print(f"report -> {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
