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

        ndoku is not on PyPI, so the sentence names the packages themselves and the install
        in a clone.

        >>> error = MissingExtra.of("plots", "plot", ["matplotlib"])
        >>> print(error)  # doctest: +NORMALIZE_WHITESPACE
        plots need matplotlib (the plot extra): pip install matplotlib,
        or in ndoku's clone pip install -e '.[plot]'
        """
        return cls(
            f"{what} need {' and '.join(packages)} (the {extra} extra): "
            f"pip install {' '.join(packages)}, or in ndoku's clone pip install -e '.[{extra}]'"
        )
