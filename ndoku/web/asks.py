"""What a client may ask of each endpoint: typed requests read from a JSON body, or refused
with a sentence that says which option is wrong.

Glossary
--------
ask
    One request's settings, a frozen dataclass per endpoint: ``text`` (the puzzle as ndoku
    reads it from a file), then the options of the command of the same name, with its
    defaults. Ranges are checked where the library checks them (the same ``Error:`` sentence
    as the command); here only names and types, and the server's own limits.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass
from typing import Any, TypeVar

from ndoku.errors import NdokuError
from ndoku.limits import DEFAULT_TIMEOUT, RATE_MAX_PROPOSALS

A = TypeVar("A")

#: Seconds a job may take at most: the commands' default time limit.
MOST_SECONDS = DEFAULT_TIMEOUT


class BadAsk(NdokuError):
    """A request body that is no JSON object, names an unknown option or gives one the wrong
    type of value."""


@dataclass(frozen=True)
class Reading:
    """The puzzle text and how to read it (``--layout``, ``--symbols``)."""

    text: str
    layout: str | None = None
    symbols: str | None = None


@dataclass(frozen=True)
class ChainAsk(Reading):
    """A chain's settings (``ndoku solve --seed --temperature --moves --max-proposals``)."""

    seed: int = 0
    temperature: float | None = None
    moves: str = "box"
    max_proposals: int | None = None


@dataclass(frozen=True)
class SolveAsk(ChainAsk):
    """``ndoku solve``: the method, its seed and chain settings, ``--unique``, the timeout."""

    method: str = "auto"
    unique: bool = False
    picture: bool = False  # the answer drawn as SVG too
    trace_every: int = 0  # a chain's trace too, a row every so many proposals (0: none)
    timeout: float = MOST_SECONDS


@dataclass(frozen=True)
class CountAsk(Reading):
    """``ndoku count``: count up to ``limit`` solutions."""

    limit: int = 2
    timeout: float = MOST_SECONDS


@dataclass(frozen=True)
class PathAsk(Reading):
    """``ndoku hint``: the path's time limit, the uniqueness techniques."""

    assume_unique: bool = False
    picture: bool = False
    timeout: float = MOST_SECONDS


@dataclass(frozen=True)
class ExplainAsk(PathAsk):
    """``ndoku explain``; drawn, the grid the path ends on, or with ``at`` the grid before
    step ``at`` (from 1) with the step shown."""

    at: int | None = None


@dataclass(frozen=True)
class RateAsk(Reading):
    """``ndoku rate``: the Metropolis second opinion and the time limit."""

    chains: int = 3
    max_proposals: int = RATE_MAX_PROPOSALS
    assume_unique: bool = False
    timeout: float = MOST_SECONDS


@dataclass(frozen=True)
class GenerateAsk:
    """``ndoku generate``: one puzzle of a layout (a name of ``ndoku layouts``: the server
    opens no file a client names)."""

    layout: str
    givens: int | None = None
    difficulty: str | None = None
    needs: str | None = None
    symmetry: str = "none"
    rules: str | None = None
    seed: int = 0
    picture: bool = False
    timeout: float = MOST_SECONDS


@dataclass(frozen=True)
class PictureAsk(Reading):
    """A puzzle drawn, with the values of ``values`` (the same puzzle, filled in) over it."""

    values: str | None = None


@dataclass(frozen=True)
class DownloadAsk(PictureAsk):
    """The picture as a file to keep: ``svg``, ``png`` or ``pdf`` (an A4 page; PNG and PDF
    need the print extra, as ``ndoku show --png`` does)."""

    format: str = "svg"


@dataclass(frozen=True)
class LinkAsk(Reading):
    """``ndoku show --to``: the puzzle as an f-puzzles or SudokuPad link, or as ndoku's text."""

    to: str = "fpuzzles"


@dataclass(frozen=True)
class EditAsk(Reading):
    """One cell typed on the drawn grid: the symbol ``value`` written at canvas position
    (``row``, ``col``), from 0, or the cell cleared when ``value`` is empty."""

    row: int = 0
    col: int = 0
    value: str = ""


def read_ask(kind: type[A], body: bytes) -> A:
    """The ask of type ``kind`` in a JSON ``body``.

    Raises
    ------
    BadAsk
        The body is no JSON object, lacks a needed option, names an unknown one or gives one
        a value of another type.

    Examples
    --------
    >>> read_ask(CountAsk, b'{"text": "1 0 0 0", "limit": 5}').limit
    5
    >>> read_ask(CountAsk, b'{"text": "1", "limits": 5}')
    Traceback (most recent call last):
    ...
    ndoku.web.asks.BadAsk: unknown option 'limits' (known: text, layout, symbols, limit, timeout)
    >>> read_ask(CountAsk, b'{"text": "1", "limit": "5"}')
    Traceback (most recent call last):
    ...
    ndoku.web.asks.BadAsk: option 'limit' must be a whole number, got a string
    """
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadAsk(f"the request body is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadAsk(f"the request body must be a JSON object, got {_kind(data)}")
    assert dataclasses.is_dataclass(kind)
    fields = dataclasses.fields(kind)
    names = [f.name for f in fields]
    for key in data:
        if key not in names:
            raise BadAsk(f"unknown option {key!r} (known: {', '.join(names)})")
    hints = typing.get_type_hints(kind)
    for f in fields:
        if f.name not in data:
            if f.default is dataclasses.MISSING:
                raise BadAsk(f"option {f.name!r} is needed")
            continue
        _check(f.name, data[f.name], hints[f.name])
    ask = kind(**data)
    timeout = getattr(ask, "timeout", 0)
    if isinstance(timeout, float | int) and timeout > MOST_SECONDS:
        raise BadAsk(f"the server's time limit is {MOST_SECONDS:g} s a job, got timeout {timeout}")
    return ask


_WORDS = {str: "a string", int: "a whole number", float: "a number", bool: "true or false"}


def _check(name: str, value: Any, hint: Any) -> None:
    """Refuse ``value`` unless it is of type ``hint`` (one type, or one or None)."""
    allowed = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if value is None and type(None) in allowed:
        return
    for kind in allowed:
        if kind is float and isinstance(value, int | float) and not isinstance(value, bool):
            return
        if kind is int and isinstance(value, int) and not isinstance(value, bool):
            return
        if kind in (str, bool) and isinstance(value, kind):
            return
    wanted = " or ".join(_WORDS.get(k, "null") for k in allowed)
    raise BadAsk(f"option {name!r} must be {wanted}, got {_kind(value)}")


def _kind(value: Any) -> str:
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return _WORDS.get(type(value), type(value).__name__)
