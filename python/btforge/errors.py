"""The errors btforge raises: the command line's messages, as exceptions.

Every error of an input carries where it is, as `btforge sweep` prints it
(Note [Errors as Python exceptions] in python/src/error_translation.h):

- DataError: a market, instruments or funding file (or DataFrame) broke a
  rule; ``file``, ``line``, ``column`` (1-based, 0 when they do not apply)
  and ``rule`` (a stable kebab-case id such as ``high-below-low``). For a
  DataFrame, ``row`` is its position and ``index`` its index label.
- SpecError: a spec or grid; ``origin`` (the file or ``<grid dict>``) and
  ``json_pointer`` (``/parameters/sl_atr/range/step``) or ``line``/``column``.
- UsageError: an argument the command line would call a usage error (exit
  2), named by its option; also a ValueError.
- Cancelled: the run was stopped (Ctrl-C raises KeyboardInterrupt itself).
"""

from __future__ import annotations

from typing import Any, Optional


class BtforgeError(RuntimeError):
    """Any error btforge reports; its text is the command line's."""

    def __init__(self, message: str, **fields: Any) -> None:
        super().__init__(message)
        for key, value in fields.items():
            setattr(self, key, value)


class DataError(BtforgeError):
    file: str
    line: int
    column: int
    rule: str
    detail: str
    row: Optional[int] = None
    index: Any = None


class SpecError(BtforgeError):
    origin: str
    json_pointer: str = ""
    line: Optional[int] = None
    column: Optional[int] = None
    detail: str


class UsageError(BtforgeError, ValueError):
    pass


class Cancelled(BtforgeError):
    pass
