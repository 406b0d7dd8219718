"""Domain exceptions: the library raises these, the CLI turns them into ``Error: …``.

Every error about the input text names where it is: ``line L, column C`` (1-based).
"""

from __future__ import annotations


class NdokuError(Exception):
    """Base class of every error ndoku raises on purpose."""


class ParseError(NdokuError):
    """The text is not a grid ndoku can read."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)


class LayoutError(ParseError):
    """The sub-grids of a puzzle cannot be found, or a declared layout does not fit."""


class ConflictError(ParseError):
    """The givens break a rule before any solving starts (two equal givens in one unit)."""


class VerificationError(NdokuError):
    """A solver produced a grid that breaks a rule: a bug, never printed as an answer."""


class MissingExtra(NdokuError):
    """An optional library is not installed: the message names the extra that brings it."""

    @classmethod
    def of(cls, what: str, extra: str, packages: list[str]) -> MissingExtra:
        """The error for ``what`` (``"plots"``), which needs ``packages`` of ``extra``.

        >>> print(MissingExtra.of("plots", "plot", ["matplotlib"]))
        plots need matplotlib: pip install 'ndoku[plot]' (or pip install matplotlib)
        """
        return cls(
            f"{what} need {' and '.join(packages)}: pip install 'ndoku[{extra}]' "
            f"(or pip install {' '.join(packages)})"
        )
