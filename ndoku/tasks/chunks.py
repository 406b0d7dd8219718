"""Chunks of puzzles as text for other processes, and the work a worker does on one.

A batch spread over processes (:mod:`ndoku.tasks.many`) goes out in chunks: each chunk is
the puzzles' text, which the worker reads itself with
:func:`~ndoku.model.puzzle.read_puzzles` (or, for part of a table of one-line puzzles,
:func:`~ndoku.model.table.read_table`), so no frame or array of a layout crosses between
processes. A chunk also carries the *fingerprint* of what it holds (each puzzle's cells and
units, givens and pencil marks): the worker sends back the fingerprint of what it read, and
the batch stops with a :class:`~ndoku.errors.VerificationError` when the two differ. (A
worker process of this machine searches a table's rows as arrays, :func:`search_table`, and
the answers are verified where they are written.)

Glossary
--------
document
    Text that one ``read_puzzles`` call reads, with the alphabet to read it in (declared,
    so that a few lines of a file read in the alphabet the whole file was read in): the
    one-line puzzles (or sukaku lines) of one file that stand together in the chunk, or one
    puzzle of a grid of several lines, with the header lines and maps that give its layout.
packed
    Results of one class as columns (:class:`Packed`): one array for a field whose values
    are arrays of one shape (the solutions), a list for the others; ``puzzle`` fields stay
    behind, and the process that sent the chunk puts its own puzzles back in.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import VerificationError
from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.rules import rule_text
from ndoku.model.table import PuzzleTable, read_table
from ndoku.solvers.exact import BatchResult, solve_table
from ndoku.tasks.count import count_all
from ndoku.tasks.generate import GenerateTimeout, generate, layout_puzzle
from ndoku.tasks.lines import solve_lines
from ndoku.tasks.rate import rate
from ndoku.tasks.render import headers, mark_symbol
from ndoku.tasks.solve import Options, solve_all
from ndoku.text.alphabet import ONE_BASED
from ndoku.text.grid import MISSING

T = TypeVar("T")
#: ``(text, symbols)``: what one ``read_puzzles(text=text, symbols=symbols)`` call reads.
Document = tuple[str, str | None]
#: What a worker sends back: the fingerprint of the puzzles it read, and their results.
Reply = tuple[bytes, "Packed"]

#: Puzzles the warm-up solves: a 4×4 has the array types of every layout, and a 9×9 line
#: takes the batch path most puzzles take.
_WARM_UP = (
    "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n",
    "200080300060070084030500209000105408000000000402706000301007040720040060004010003\n",
)


@dataclass(frozen=True)
class Chunk:
    """Puzzles as documents, and the fingerprint of the puzzles they should read as."""

    documents: tuple[Document, ...]
    fingerprint: bytes
    size: int

    def read(self) -> list[Puzzle]:
        """The puzzles, read from the documents (in the worker)."""
        return [
            p for text, symbols in self.documents for p in read_puzzles(text=text, symbols=symbols)
        ]


def to_chunk(puzzles: Sequence[Puzzle]) -> Chunk:
    """The puzzles as documents; one-line puzzles of one file that stand together share one.

    Examples
    --------
    >>> chunk = to_chunk(read_puzzles(text="1000003004000002\\n0000000000000000\\n"))
    >>> chunk.documents
    (('1.....3..4.....2\\n................\\n', '1234'),)
    >>> fingerprint(chunk.read()) == chunk.fingerprint
    True
    """
    documents: list[Document] = []
    start = 0
    while start < len(puzzles):
        first = puzzles[start]
        end = start + 1
        if first.grid.style.kind == "line":
            while end < len(puzzles) and _same_file(first, puzzles[end]):
                end += 1
            documents.append(_lines(puzzles[start:end]))
        else:
            documents.append(puzzle_document(first))
        start = end
    return Chunk(tuple(documents), fingerprint(puzzles), len(puzzles))


def _same_file(a: Puzzle, b: Puzzle) -> bool:
    """Whether one document holds both one-line puzzles: one layout, alphabet and headers."""
    return (
        (b.frame is a.frame or b.frame.key == a.frame.key)
        and b.grid.style.kind == "line"
        and b.grid.style.alphabet == a.grid.style.alphabet
        and b.grid.headers == a.grid.headers
        and (b.candidates is None) == (a.candidates is None)
    )


def _lines(puzzles: Sequence[Puzzle]) -> Document:
    """One-line puzzles (or sukaku lines) of one file."""
    givens = np.stack([p.givens for p in puzzles])
    if puzzles[0].candidates is None:
        return _lines_document(puzzles[0], givens)
    marks = np.stack([p.candidates for p in puzzles if p.candidates is not None])
    return _lines_document(puzzles[0], givens, marks)


def _lines_document(
    first: Puzzle, givens: NDArray[np.int32], marks: NDArray[np.uint64] | None = None
) -> Document:
    """Lines of ``givens`` (``marks``: sukaku lines) of the file of ``first``, in its
    alphabet, declared."""
    size = first.size
    alphabet = first.grid.style.alphabet or ONE_BASED.alphabet(size)
    if marks is None:
        shown = givens
    else:  # a sukaku line: N characters a cell, the symbol of each candidate, else a dot
        values = np.arange(1, size + 1, dtype=np.uint64)
        held = (marks[:, :, np.newaxis] >> (values - np.uint64(1))) & np.uint64(1)
        shown = np.where(held == 1, values.astype(np.int64), 0).reshape(len(givens), -1)
    symbols = "." + alphabet
    if symbols.isascii():  # as bytes, all at once
        codes = np.frombuffer(symbols.encode(), dtype=np.uint8)
        ends = np.full((len(shown), 1), ord("\n"), dtype=np.uint8)
        body = np.hstack([codes[shown], ends]).tobytes().decode()
    else:
        body = "".join("".join(symbols[v] for v in row) + "\n" for row in shown.tolist())
    return _headed(first, body), alphabet


def table_chunk(table: PuzzleTable, start: int, stop: int) -> Chunk:
    """Puzzles ``start .. stop - 1`` of a table of one-line puzzles, as one document.

    >>> from ndoku.model.table import read_table
    >>> table = read_table("1000003004000002\\n0000000000000000\\n0000003004000002\\n")
    >>> chunk = table_chunk(table, 1, 3)
    >>> chunk.documents
    (('................\\n......3..4.....2\\n', '1234'),)
    >>> table_fingerprint(read_table(chunk.documents[0][0], symbols="1234")) == chunk.fingerprint
    True
    """
    givens = table.givens[start:stop]
    document = _lines_document(table.puzzle(start), givens)
    return Chunk((document,), _digest(table.frame, givens), len(givens))


def puzzle_document(puzzle: Puzzle) -> Document:
    """A puzzle of several lines as text that reads back as it: its headers, its grid (pencil
    marks as lists), its rules and maps; and the alphabet its symbols are written in."""
    grid = puzzle.grid
    if puzzle.candidates is None:
        body, symbols = puzzle.text(), grid.style.alphabet
    else:
        symbol = mark_symbol(puzzle)
        marks = np.zeros(grid.values.shape, dtype=np.uint64)
        marks[puzzle.cell_rc[:, 0], puzzle.cell_rc[:, 1]] = puzzle.candidates
        rows = [
            " ".join(
                "."
                if value == MISSING
                else "".join(symbol(v) for v in range(1, puzzle.size + 1) if int(m) >> (v - 1) & 1)
                for value, m in zip(row, mark_row, strict=True)
            )
            for row, mark_row in zip(grid.values.tolist(), marks, strict=True)
        ]
        body = "".join(row + "\n" for row in rows)
        symbols = "".join(symbol(v) for v in range(1, puzzle.size + 1))
    for block in grid.extra:  # maps of regions and extra units
        body += "\n" + "".join(line + "\n" for _, line in block.lines)
    return _headed(puzzle, body), symbols


def _headed(puzzle: Puzzle, body: str) -> str:
    return "".join(line + "\n" for line in headers(puzzle)) + body


def fingerprint(puzzles: Sequence[Puzzle]) -> bytes:
    """A digest of each puzzle's cells and units, givens, pencil marks and rules, in order."""
    keys = b"".join(p.frame.table("fingerprint", _frame_digest) for p in puzzles)
    givens = [p.givens for p in puzzles]
    marks = [(k, p.candidates) for k, p in enumerate(puzzles) if p.candidates is not None]
    digest = _hashed(keys, np.concatenate(givens) if givens else np.zeros(0, np.int32), marks)
    ruled = [(k, p) for k, p in enumerate(puzzles) if p.rules]
    if not ruled:
        return digest
    # a worker that lost a rule would solve another puzzle: the rules are part of the digest
    lines = [f"{k}:{rule_text(r, p.cell_rc)}" for k, p in ruled for r in p.rules]
    return hashlib.blake2b(digest + "\n".join(lines).encode(), digest_size=16).digest()


def table_fingerprint(table: PuzzleTable) -> bytes:
    """:func:`fingerprint` of a table's puzzles (the same bytes for the same puzzles)."""
    return _digest(table.frame, table.givens)


def _digest(frame: Frame, givens: NDArray[np.int32]) -> bytes:
    """:func:`fingerprint` of rows of ``givens`` of one frame, without pencil marks."""
    return _hashed(frame.table("fingerprint", _frame_digest) * len(givens), givens.ravel(), [])


def _hashed(
    keys: bytes, givens: NDArray[np.int32], marks: list[tuple[int, NDArray[np.uint64]]]
) -> bytes:
    digest = hashlib.blake2b(keys, digest_size=16)
    digest.update(givens.astype(np.int32).tobytes())
    for k, candidates in marks:
        digest.update(k.to_bytes(8, "little") + candidates.tobytes())
    return digest.digest()


def _frame_digest(frame: Frame) -> bytes:
    return hashlib.blake2b(repr(frame.key).encode(), digest_size=16).digest()


def check_reply(chunk: Chunk, reply: tuple[bytes, T]) -> T:
    """The results of a reply, once its fingerprint shows the worker read the chunk right."""
    read, packed = reply
    if read != chunk.fingerprint:
        raise VerificationError(
            "a worker read a chunk of puzzles back from their text with other cells, units, "
            "givens or pencil marks than this process holds: its results are refused"
        )
    return packed


# --- results as columns ---------------------------------------------------------------------


@dataclass(frozen=True)
class Stacked:
    """A field whose values are arrays of one shape (or None where ``present`` is False)."""

    array: NDArray[Any]
    present: NDArray[np.bool_] | None


@dataclass(frozen=True)
class Packed:
    """Instances of one dataclass as columns, one per field (see the module glossary)."""

    kind: type
    columns: dict[str, Stacked | Packed | list[Any]]


def pack(items: Sequence[Any], leave: tuple[str, ...] = ("puzzle",)) -> Packed:
    """``items`` (of one dataclass) as columns, without the fields named in ``leave``.

    >>> from ndoku.tasks.count import Count
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> counts = count_all([p, p])
    >>> [c.text() for c in unpack(pack(counts))]
    ['1', '1']
    """
    kind = type(items[0])
    columns: dict[str, Stacked | Packed | list[Any]] = {}
    for field in dataclasses.fields(kind):
        if field.name not in leave:
            columns[field.name] = _column([getattr(item, field.name) for item in items])
    return Packed(kind, columns)


def _column(values: list[Any]) -> Stacked | Packed | list[Any]:
    arrays = [v for v in values if v is not None]
    if arrays and all(isinstance(a, np.ndarray) for a in arrays):
        shapes = {(a.shape, a.dtype) for a in arrays}
        if len(shapes) == 1:
            present = (
                None if len(arrays) == len(values) else np.array([v is not None for v in values])
            )
            stacked = np.zeros((len(values), *arrays[0].shape), dtype=arrays[0].dtype)
            stacked[slice(None) if present is None else present] = arrays
            return Stacked(stacked, present)
    kinds = {type(v) for v in values}
    if len(kinds) == 1 and dataclasses.is_dataclass(values[0]):
        return pack(values, ())
    return values


def unpack(packed: Packed, **given: Sequence[Any]) -> list[Any]:
    """The instances again; ``given`` holds the columns left behind (``puzzle=puzzles``)."""
    columns = [
        given[field.name] if field.name in given else _values(packed.columns[field.name])
        for field in dataclasses.fields(packed.kind)
    ]
    return [packed.kind(*row) for row in zip(*columns, strict=True)]


def _values(column: Stacked | Packed | list[Any]) -> Sequence[Any]:
    if isinstance(column, Packed):
        return unpack(column)
    if isinstance(column, Stacked):
        rows = list(column.array)
        if column.present is None:
            return rows
        return [row if held else None for row, held in zip(rows, column.present, strict=True)]
    return column


# --- the work on a chunk, in a worker --------------------------------------------------------


@cache
def warm(method: str) -> None:
    """Once per process, load the kernels ``method`` (a solving method, or ``rate``) uses on
    small puzzles, so that no chunk's timeout counts the time they take to load."""
    puzzles = [p for text in _WARM_UP for p in read_puzzles(text=text)]
    solve_all(puzzles, "auto" if method == "rate" else method, Options(timeout=60.0))
    table = read_table(_WARM_UP[1])
    if method == "auto" and table is not None:  # and the check of a table's answers
        solve_lines(table)
    if method == "rate":
        rate(puzzles[0], chains=1)


def _one_thread(options: Options) -> Options:
    """``options`` for a worker process: a worker's siblings have the other cores, so its
    searches are not split over threads again."""
    return dataclasses.replace(options, threads=1)


def solve_chunk(chunk: Chunk, options: Options, method: str) -> Reply:
    """Solve the chunk's puzzles (:func:`~ndoku.tasks.solve.solve_all`, which verifies every
    answer); the outcomes without their puzzles."""
    warm(method)
    puzzles = chunk.read()
    return fingerprint(puzzles), pack(solve_all(puzzles, method, _one_thread(options)))


def lines_chunk(chunk: Chunk, options: Options) -> tuple[bytes, BatchResult]:
    """Solve the chunk's one-line puzzles as a table (:func:`~ndoku.tasks.lines.solve_lines`,
    which verifies every answer): the search's arrays."""
    warm("auto")
    [(text, symbols)] = chunk.documents
    table = read_table(text, symbols=symbols)
    if table is None:
        raise VerificationError("a chunk of one-line puzzles does not read back as lines")
    return table_fingerprint(table), solve_lines(table, _one_thread(options)).batch


def search_table(puzzle: Puzzle, givens: NDArray[np.int32], options: Options) -> BatchResult:
    """The exact search of rows of a table's ``givens`` (``puzzle``: its first), for a worker
    process of this machine: the arrays themselves travel, and the process that sent them
    verifies the answers (:func:`~ndoku.tasks.lines.checked`)."""
    warm("auto")
    return solve_table(
        puzzle,
        givens,
        limit=options.limit,
        max_nodes=options.max_nodes,
        timeout=options.timeout,
    )


def count_chunk(chunk: Chunk, options: Options) -> Reply:
    """Count the solutions of the chunk's puzzles (:func:`~ndoku.tasks.count.count_all`)."""
    warm("exact")
    puzzles = chunk.read()
    return fingerprint(puzzles), pack(count_all(puzzles, _one_thread(options)))


def rate_chunk(chunk: Chunk, settings: dict[str, Any]) -> Reply:
    """Rate the chunk's puzzles: :func:`~ndoku.tasks.rate.rate` with ``settings``."""
    warm("rate")
    puzzles = chunk.read()
    return fingerprint(puzzles), pack([rate(p, **settings) for p in puzzles])


#: What :func:`generate_chunk` sends back for one seed: the fingerprint of the puzzle and the
#: other fields of its :class:`~ndoku.tasks.generate.Generated`, or the timeout that stopped it.
Made = tuple[bytes, dict[str, Any]] | GenerateTimeout


def generate_chunk(
    seeds: Sequence[int],
    commands: Sequence[str | None],
    layout: str,
    layout_text: str | None,
    settings: dict[str, Any],
) -> list[Made]:
    """Generate one puzzle per seed (``commands``: its comment line) of ``layout``, a name
    or (with ``layout_text``, the text of its file) a layout file, with ``settings`` of
    :func:`~ndoku.tasks.generate.generate`."""
    warm("rate")
    empty = _layout(layout, layout_text)
    made: list[Made] = []
    for seed, command in zip(seeds, commands, strict=True):
        try:
            one = generate(empty, seed=seed, command=command, **settings)
        except GenerateTimeout as exc:
            made.append(exc)
            continue
        fields = {f.name: getattr(one, f.name) for f in dataclasses.fields(one)}
        made.append((fingerprint([fields.pop("puzzle")]), fields))
    return made


@lru_cache(maxsize=8)
def _layout(layout: str, text: str | None) -> Puzzle:
    """The empty puzzle of a layout, read as :func:`~ndoku.tasks.generate.layout_puzzle`
    reads it (once per process)."""
    if text is None:
        return layout_puzzle(layout)
    [puzzle] = read_puzzles(text=text)
    return puzzle
