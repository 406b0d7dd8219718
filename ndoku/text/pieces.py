"""A long puzzle file read a piece of whole lines at a time, as it arrives: a batch streams.

Glossary
--------
piece
    Whole lines of a file, about :data:`PIECE_BYTES` of them, decoded. A batch of one-line
    puzzles is read, solved and written a piece at a time, so that its first answers come
    before its last lines are read and its memory stays flat. The first piece holds at least
    :data:`FIRST_LINES` lines (or the whole file), so that what the first lines of a file
    decide (a block of 36 sukaku rows, 16 lines of 16 characters, the alphabet of a batch)
    they decide there as in the whole file; later pieces are read as the first was.
"""

from __future__ import annotations

import os
import re
import select
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ndoku.errors import NdokuError, ParseError
from ndoku.text.formats import decode, header_key
from ndoku.text.lines import line_field
from ndoku.text.marks import in_place

#: Bytes a piece of a long file holds at least (a line more at most).
PIECE_BYTES = 1 << 20
#: Lines the first piece holds at least, unless the file is shorter: more than the rows of a
#: block of sukaku rows (36) or of a 16×16 written in characters. A pipe that has sent only
#: one-line 9×9 puzzles so far and waits is read at once (see :func:`_settled`).
FIRST_LINES = 64
#: A one-line 9×9 in digits, ``0`` or ``.`` empty: no other reading, no other alphabet.
_PLAIN_9 = re.compile(r"[0-9.]{81}")


@dataclass(frozen=True)
class Piece:
    """Whole lines of a puzzle file.

    Attributes
    ----------
    text : str
    line : int
        The number of its first line in the file.
    last : bool
        The file ends with it.
    left : int or None
        Bytes of the file after it; None when that is not known (a pipe).
    """

    text: str
    line: int
    last: bool
    left: int | None

    def before(self, line: int) -> Piece:
        """The piece's lines before line ``line`` of the file.

        >>> Piece("a\\nb\\nc\\n", 5, True, 0).before(7).text
        'a\\nb\\n'
        """
        kept = self.text.split("\n")[: max(0, line - self.line)]
        return Piece("".join(k + "\n" for k in kept), self.line, False, None)


def read_pieces(path: str | Path, size: int = PIECE_BYTES) -> Iterator[Piece]:
    """The text of a puzzle file (``-`` for stdin) in pieces of whole lines, as it arrives:
    from a pipe, a piece is what has come when nothing more is waiting (at least a line).

    A file whose first piece is not UTF-8 text comes whole, in one piece, read as
    :func:`~ndoku.text.formats.read_file` reads it (which names what is wrong).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "batch.txt"
    ...     _ = path.write_text("".join(f"{k:016d}\\n" for k in range(10_000)))
    ...     [(p.line, p.last, p.left) for p in read_pieces(path, size=1 << 16)]
    [(1, False, 104465), (3856, False, 38930), (7711, True, 0)]
    """
    if str(path) == "-":
        yield from _pieces(sys.stdin.buffer, "<stdin>", size)
        return
    try:
        stream = open(path, "rb")  # noqa: SIM115 (closed below, after the last piece)
    except OSError as exc:
        raise NdokuError(f"cannot read {path}: {exc.strerror or exc}") from None
    with stream:
        yield from _pieces(stream, str(path), size)


def _pieces(stream: BinaryIO, source: str, size: int) -> Iterator[Piece]:
    total = _file_size(stream)
    line, consumed, held = 1, 0, b""
    while True:
        data, ended = _gather(stream, held, size, FIRST_LINES if line == 1 else 1, source)
        cut = len(data) if ended else data.rfind(b"\n") + 1
        body, held = data[:cut], data[cut:]
        try:
            text = decode(body, source, line, strict=not (line == 1 and ended))
        except ParseError:
            if line > 1 or ended:
                raise
            # the whole file, as read_file reads it, says what is wrong (or reads it)
            yield Piece(decode(data + _rest(stream, source), source), 1, True, 0)
            return
        consumed += len(body)
        yield Piece(text, line, ended, None if total is None else max(0, total - consumed))
        if ended:
            return
        line += body.count(b"\n")


def _gather(
    stream: BinaryIO, held: bytes, size: int, lines: int, source: str
) -> tuple[bytes, bool]:
    """Bytes from ``held`` on: at least ``lines`` lines and ``size`` bytes, or fewer bytes
    when nothing more is waiting in a pipe; and whether the stream ended."""
    data = bytearray(held)
    newlines = data.count(b"\n")
    while newlines < lines or (len(data) < size and _waiting(stream)):
        if lines > 1 and newlines and not _waiting(stream) and _settled(data):
            break
        try:
            more = stream.read1(max(size - len(data), 1 << 12))  # type: ignore[attr-defined]
        except OSError as exc:
            raise NdokuError(f"cannot read {source}: {exc.strerror or exc}") from None
        if not more:
            return bytes(data), True
        data += more
        newlines += more.count(b"\n")
    return bytes(data), False


def _settled(data: bytearray) -> bool:
    """Whether the whole lines of a first piece decide how the file reads, so that a pipe's
    first answers need not wait for more: one-line 9×9 puzzles in digits, none of them a row
    of sukaku candidates (81 characters too).

    >>> _settled(bytearray(b"." * 80 + b"1\\n0"))
    True
    >>> _settled(bytearray(b"123456789" * 9 + b"\\n"))  # every cell 1-9 in place: sukaku
    False
    """
    lines = data[: data.rfind(b"\n") + 1].decode("latin-1").splitlines()
    for line in lines:
        field = line_field(line)
        if field is None or not _PLAIN_9.fullmatch(field) or in_place(field, None):
            return False
    return bool(lines)


def _rest(stream: BinaryIO, source: str) -> bytes:
    try:
        return stream.read()
    except OSError as exc:
        raise NdokuError(f"cannot read {source}: {exc.strerror or exc}") from None


def _waiting(stream: BinaryIO) -> bool:
    """Whether reading would not wait: always for a file, for a pipe when bytes are there."""
    try:
        return bool(select.select([stream], [], [], 0)[0])
    except (OSError, ValueError):  # no descriptor (a test's stdin), or no select on pipes
        return True


def _file_size(stream: BinaryIO) -> int | None:
    try:
        info = os.fstat(stream.fileno())
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def piece_lines(piece: Piece) -> list[tuple[int, str]]:
    """The lines of a later piece of a batch, numbered: blank lines and comments left out, as
    the reading of the whole file leaves them out.

    Raises
    ------
    ndoku.errors.ParseError
        A header (``# symbols:``) in it: it would change how the lines before it read.

    >>> piece_lines(Piece("1234341221434321\\n\\n# a note\\n0000000000000000\\n", 70, False, 0))
    [(70, '1234341221434321'), (73, '0000000000000000')]
    """
    lines = piece.text.split("\n")
    if lines[-1] == "":
        lines.pop()
    if "\r" in piece.text:
        lines = [line.rstrip("\r") for line in lines]
    numbered = list(zip(range(piece.line, piece.line + len(lines)), lines, strict=True))
    if "#" not in piece.text and all(map(str.strip, lines)):
        return numbered
    kept = []
    for number, line in numbered:
        stripped = line.strip()
        if stripped.startswith("#"):
            key = header_key(stripped)
            if key is not None:
                raise ParseError(
                    f"a '# {key}:' header among the puzzles of a long batch, which ndoku "
                    "reads as it goes: put it above the first puzzle",
                    number,
                )
        elif stripped:
            kept.append((number, line))
    return kept
