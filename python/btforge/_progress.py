"""Progress of a long run, where the user looks: a line that updates in a
notebook, or on a terminal's stderr (silent elsewhere, and for runs that end
within a second)."""

from __future__ import annotations

import sys
import time
from typing import Optional

_STAGES = {1: "sweep", 2: "validation scans"}


def _in_notebook() -> bool:
    try:
        from IPython import get_ipython  # type: ignore
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class Progress:
    def __init__(self, enabled: bool, cells_per_item: float = 0.0) -> None:
        self._enabled = enabled
        self._start = time.monotonic()
        self._last = 0.0
        self._display = None
        self._terminal = enabled and not _in_notebook() and sys.stderr.isatty()
        self._notebook = enabled and _in_notebook()
        self._shown = False
        self._stage_start = {}
        self.cells_per_item = cells_per_item

    def update(self, stage: int, done: int, total: int) -> None:
        now = time.monotonic()
        self._stage_start.setdefault(stage, (now, done))
        if not self._enabled or stage not in _STAGES or now - self._start < 1.0 or now - self._last < 0.5:
            return
        self._last = now
        text = self._text(stage, done, total, now)
        if self._notebook:
            from IPython.display import display  # type: ignore

            if self._display is None:
                self._display = display({"text/plain": text}, raw=True, display_id=True)
            else:
                self._display.update({"text/plain": text}, raw=True)
        elif self._terminal:
            sys.stderr.write("\r" + text + " " * 8)
            sys.stderr.flush()
        self._shown = True

    def _text(self, stage: int, done: int, total: int, now: float) -> str:
        began, done0 = self._stage_start[stage]
        elapsed = max(now - began, 1e-9)
        rate = (done - done0) / elapsed
        pct = 100.0 * done / total if total else 100.0
        eta = (total - done) / rate if rate > 0 else float("nan")
        text = f"btforge {_STAGES[stage]}: {done}/{total} ({pct:.1f}%), {rate:,.0f}/s"
        if self.cells_per_item and stage == 1:
            text += f" = {rate * self.cells_per_item:.3g} cells/s"
        if eta == eta:
            text += f", ETA {eta:.0f} s"
        return text

    def finish(self, message: Optional[str] = None) -> None:
        """Ends the line; in a notebook the display shows ``message`` (what
        ran, or that it was interrupted), also after a run too short for
        progress."""
        if self._terminal and self._shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
        if self._notebook and message:
            if self._display is None:
                from IPython.display import display  # type: ignore

                display({"text/plain": message}, raw=True)
            else:
                self._display.update({"text/plain": message}, raw=True)
