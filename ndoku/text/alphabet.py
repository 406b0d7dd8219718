"""Alphabets: which written symbol is which value, and the readings a grid's symbols allow.

Glossary
--------
symbol
    How a value is written: one character (``7``, ``F``) or a decimal number (``12``).
alphabet
    The N symbols of values 1..N, in order: ``1-9A-G`` or ``0-F`` for a 16×16.
empty mark
    How an empty cell is written: ``.``, ``-`` or ``_``, and ``0`` where ``0`` is not a
    symbol. (``.`` marks a missing cell in a multi-grid: see :mod:`ndoku.model.puzzle`.)
reading
    A family of alphabets that gives each symbol one value whatever N is, so that the
    sub-grids can be found before N is known:

    - ``1-9A-…`` (:data:`ONE_BASED`): ``1`` = 1 … ``9`` = 9, ``A`` = 10 …, or decimal numbers
      as tokens (``12``); ``0`` is empty. Any N.
    - ``0-9A-…`` (:data:`ZERO_BASED`): ``0`` = 1 … ``F`` = 16 …: hexadoku's ``0-F``, ``0-O``
      for 25×25. One character per symbol; from N = 10 on (a 9×9 in ``0-8`` is declared).
    - ``A-…`` (:data:`LETTERS`): ``A`` = 1 …: ``A-Y`` for 25×25; ``0`` is empty. Up to N = 26.

A grid's symbols usually leave one reading; :func:`ndoku.model.puzzle.read_puzzles` chooses it and
refuses, naming both, when two remain (see :class:`AlphabetError`).
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from ndoku.errors import NdokuError, ParseError

#: Single-character symbols in ``1-9A-…`` order: ``DIGITS[v]`` writes value ``v`` (1..35).
DIGITS = string.digits + string.ascii_uppercase
#: Order used to expand ranges such as ``0-F`` or ``a-z`` in ``# symbols:``.
RANGE_ORDER = DIGITS + string.ascii_lowercase
#: Marks that mean an empty cell in every reading (``.``: or a missing cell, by the shape).
EMPTY_MARKS = (".", "-", "_")  # single characters: ".-" is no empty mark
EMPTY = 0
#: ``value`` of a token that is no symbol of a reading (and no empty mark).
UNREADABLE = -1


class AlphabetError(ParseError):
    """The symbols of a grid read as two alphabets: the file or an option must say which."""


@dataclass(frozen=True)
class Reading:
    """One family of alphabets (see the module glossary).

    Attributes
    ----------
    key : str
        ``"one"``, ``"zero"`` or ``"letters"``.
    first : int
        Index in :data:`DIGITS` of the symbol of value 1 (``1``, ``0`` or ``A``).
    sizes : range
        The N this reading is used for.
    """

    key: str
    first: int
    sizes: range

    @property
    def zero_is_symbol(self) -> bool:
        return self.first == 0

    def value(self, token: str) -> int:
        """The value of a non-dot token: a symbol's value, ``EMPTY``, or ``UNREADABLE``.

        >>> ONE_BASED.value("G"), ZERO_BASED.value("G"), LETTERS.value("G"), LETTERS.value("7")
        (16, 17, 7, -1)
        >>> ONE_BASED.value("12"), ZERO_BASED.value("12"), ONE_BASED.value("0")
        (12, -1, 0)
        """
        if token in EMPTY_MARKS or (token == "0" and not self.zero_is_symbol):
            return EMPTY
        if len(token) > 1:
            is_number = self is ONE_BASED and token.isdigit() and token.isascii()
            return int(token) if is_number else UNREADABLE
        index = DIGITS.find(token)
        return index - self.first + 1 if index >= self.first else UNREADABLE

    def alphabet(self, size: int) -> str:
        """The ``size`` symbols of this reading, as one character each.

        >>> ZERO_BASED.alphabet(16), LETTERS.alphabet(4)
        ('0123456789ABCDEF', 'ABCD')
        """
        return DIGITS[self.first : self.first + size]

    def name(self, size: int, numbers: bool = False) -> str:
        """How people write this alphabet: ``1-9A-G``, ``0-F``, ``A-Y`` (``1-16`` as numbers).

        The name is also a valid ``--symbols`` value for it.

        >>> [ONE_BASED.name(n) for n in (4, 9, 10, 16)], ONE_BASED.name(16, numbers=True)
        (['1-4', '1-9', '1-9A', '1-9A-G'], '1-16')
        >>> ZERO_BASED.name(16), ZERO_BASED.name(36), LETTERS.name(25)
        ('0-F', '0-Z', 'A-Y')
        """
        if numbers:
            return f"1-{size}"
        alphabet = self.alphabet(size)
        if self is ONE_BASED:  # digits and letters apart, as people write it: 1-9A-G
            return _ranges(alphabet)
        return f"{alphabet[0]}-{alphabet[-1]}"


def _ranges(alphabet: str) -> str:
    """``0123456789ABCDEF`` → ``0-9A-F``: digits and letters as separate ranges."""
    parts = []
    for group in (string.digits, string.ascii_uppercase):
        chars = [c for c in alphabet if c in group]
        if len(chars) == 1:
            parts.append(chars[0])
        elif chars:
            parts.append(f"{chars[0]}-{chars[-1]}")
    return "".join(parts)


ONE_BASED = Reading("one", 1, range(1, 65))  # numbers as tokens beyond Z = 35
ZERO_BASED = Reading("zero", 0, range(10, len(DIGITS) + 1))
LETTERS = Reading("letters", 10, range(1, 27))
#: In order of preference: among readings that give a grid the same values, the first wins.
READINGS = (ONE_BASED, ZERO_BASED, LETTERS)


#: A range ending in a number of two digits or more (``1-16``, ``0-15``).
_NUMBER_RANGE = re.compile(r"\d+-\d\d+")


def parse_symbols(spec: str) -> str:
    """Expand an alphabet such as ``0-F`` or ``1-9A-G`` into its characters.

    >>> parse_symbols("0-F")
    '0123456789ABCDEF'
    >>> parse_symbols("1-9A-C")
    '123456789ABC'
    >>> parse_symbols("1-16")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: symbols: '1-16' is a range of numbers; ...
    """
    spec = "".join(spec.split())
    number = _NUMBER_RANGE.search(spec)
    if number is not None:  # read char by char, 1-16 would be the two symbols 1 and 6
        raise NdokuError(
            f"symbols: {number.group()!r} is a range of numbers; --symbols and '# symbols:' "
            "name one-character symbols (1-9A-G for 16), and grids of numbers (1 2 … 16) "
            "are read without them"
        )
    out: list[str] = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            lo, hi = RANGE_ORDER.find(spec[i]), RANGE_ORDER.find(spec[i + 2])
            if lo < 0 or hi < lo:
                raise NdokuError(f"symbols: bad range {spec[i : i + 3]!r}")
            out.extend(RANGE_ORDER[lo : hi + 1])
            i += 3
        else:
            out.append(spec[i])
            i += 1
    alphabet = "".join(out)
    if len(alphabet) < 2:
        raise NdokuError(f"symbols: {spec!r} declares fewer than two symbols")
    bad = sorted(set(alphabet) & {*EMPTY_MARKS, "#"})
    if bad:
        raise NdokuError(f"symbols: {bad[0]!r} cannot be a symbol (it marks empty or missing)")
    if len(set(alphabet)) != len(alphabet):
        raise NdokuError(f"symbols: {spec!r} repeats a symbol")
    return alphabet
