"""What each endpoint answers: an ask in, the task of the command of the same name run, its
JSON records out (as ``--format json`` writes them), with the puzzle drawn when asked.

Every answer comes from the tasks, which verify each solution against every rule and given
before it is given out; a bad puzzle raises the library's error, whose sentence the app
sends back.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import LayoutError, NdokuError
from ndoku.limits import DEFAULT_TRACE_EVERY, RATE_CHAIN_TIMEOUT
from ndoku.model.exchange import read_exchanged
from ndoku.model.layout import available_layouts
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.units import IntArray
from ndoku.picture.book import pages
from ndoku.picture.drawing import picture
from ndoku.picture.needs import require
from ndoku.picture.pdf import to_pdf
from ndoku.picture.raster import to_png
from ndoku.picture.svg import to_svg
from ndoku.solvers.chains.metropolis import TRACE_COLUMNS
from ndoku.tasks.count import count_all
from ndoku.tasks.explain import explain
from ndoku.tasks.generate import layout_puzzle, puzzle_text
from ndoku.tasks.links import exchange_form
from ndoku.tasks.many import iter_generate, iter_rate
from ndoku.tasks.records import (
    generate_command,
    generated_record,
    hint_record,
    layout_records,
    rating_record,
)
from ndoku.tasks.settings import solve_options
from ndoku.tasks.solve import EXACT_METHODS, Options, solve_all
from ndoku.tasks.thinning import Aim
from ndoku.text.formats import header_key
from ndoku.text.links import exchanged
from ndoku.text.words import plural
from ndoku.web.asks import (
    MOST_SECONDS,
    CountAsk,
    DownloadAsk,
    EditAsk,
    ExplainAsk,
    GenerateAsk,
    LinkAsk,
    PathAsk,
    PictureAsk,
    RateAsk,
    Reading,
    SolveAsk,
)

Answer = dict[str, Any]


def puzzles_of(ask: Reading, one: bool = False) -> list[Puzzle]:
    """The puzzles of an ask's text (ndoku's own text, or an f-puzzles or SudokuPad link or
    payload), read as a file holding it is; with ``one``, exactly one of them.

    >>> [p.size for p in puzzles_of(Reading("1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n"))]
    [4]
    """
    converted = exchanged(ask.text)
    named_layouts(converted.text if converted is not None else ask.text, ask.layout)
    if converted is not None:
        puzzles = read_exchanged(converted)
    else:
        puzzles = read_puzzles(text=ask.text, symbols=ask.symbols, layout=ask.layout)
    if one and len(puzzles) != 1:
        raise NdokuError(f"this asks for one puzzle; the text holds {plural(len(puzzles), 'one')}")
    return puzzles


def named_layouts(text: str, layout: str | None) -> None:
    """Refuse a layout named by path, in ``layout`` or in a ``# layout:`` header of the
    text: the command reads a layout file so named, the server opens no file a client names.

    >>> named_layouts("# layout: /etc/passwd\\n1 0 0 0", None)
    Traceback (most recent call last):
    ...
    ndoku.errors.LayoutError: line 1: the server takes layouts by name only, not '/etc/passwd'
    """
    names: list[tuple[int | None, str]] = [(None, layout)] if layout is not None else []
    for line_number, line in enumerate(text.splitlines(), start=1):
        if header_key(line) == "layout":
            names.append((line_number, line.split(":", 1)[1].strip()))
    known = available_layouts() if names else {}  # the folders listed only when named
    for where, name in names:
        if name not in known:
            raise LayoutError(f"the server takes layouts by name only, not {name!r}", where)


def drawn(puzzle: Puzzle, values: Any = None, **settings: Any) -> str:
    """The puzzle as SVG, each cell findable by ``data-cell="ROW,COL"``."""
    return to_svg(picture(puzzle, values, cells=True, **settings))


def solve_answer(ask: SolveAsk) -> Answer:
    """``ndoku solve --format json``: one record per puzzle; a batch only by an exact
    method (a chain's time limit is per puzzle)."""
    options = solve_options(
        ask.method,
        seed=ask.seed,
        temperature=ask.temperature,
        moves=ask.moves,
        max_proposals=ask.max_proposals,
        timeout=ask.timeout,
        trace=ask.trace_every > 0,
        trace_every=ask.trace_every or DEFAULT_TRACE_EVERY,
    )
    puzzles = puzzles_of(ask, one=ask.method not in EXACT_METHODS)
    outcomes = solve_all(puzzles, ask.method, options)
    records = [numbered(o.record(ask.unique), outcomes, k) for k, o in enumerate(outcomes)]
    answer: Answer = {"records": records}
    if ask.picture:
        answer["svg"] = drawn(outcomes[0].puzzle, outcomes[0].drawn(ask.unique))
    if outcomes[0].trace is not None:
        answer["trace"] = trace_record(outcomes[0].trace)
    return answer


#: Rows of a trace sent at most: a long chain's trace is thinned to this many.
MOST_TRACE_ROWS = 2000


def trace_record(rows: NDArray[np.float64]) -> dict[str, Any]:
    """A chain's trace as JSON: its columns, and its rows (every k-th of a long one, the last
    kept), the first row's acceptance rate (none yet) null.

    >>> trace_record(np.array([[0, 9, 0.3, np.nan], [100, 0, 0.3, 0.25]]))["rows"]
    [[0, 9, 0.3, None], [100, 0, 0.3, 0.25]]
    >>> trace_record(np.zeros((0, 4)))["rows"]  # pruning solved it: no proposal made
    []
    """
    step = max(1, -(-len(rows) // MOST_TRACE_ROWS))
    kept = list(range(0, len(rows), step))
    if kept and kept[-1] != len(rows) - 1:
        kept.append(len(rows) - 1)
    out = [
        [int(p), int(e), float(t), None if math.isnan(a) else float(a)]
        for p, e, t, a in rows[kept].tolist()
    ]
    return {"columns": list(TRACE_COLUMNS), "every": step, "rows": out}


def numbered(record: dict[str, Any], batch: list[Any], k: int) -> dict[str, Any]:
    """A record with its puzzle's number first when the text held several (as the command
    numbers a file's puzzles)."""
    return {"puzzle": k + 1} | record if len(batch) > 1 else record


def count_answer(ask: CountAsk) -> Answer:
    """``ndoku count --format json``: one record per puzzle."""
    counts = count_all(puzzles_of(ask), Options(timeout=ask.timeout, limit=ask.limit))
    return {"records": [numbered(c.record(), counts, k) for k, c in enumerate(counts)]}


def hint_answer(ask: PathAsk) -> Answer:
    """``ndoku hint --format json``; drawn, the grid before the step with its cells shaded,
    and ``applied``: the puzzle's text once the step's values are placed (None when the step
    only removes candidates, or there is none)."""
    [puzzle] = puzzles_of(ask, one=True)
    told = explain(puzzle, ask.timeout, 1, ask.assume_unique)
    answer: Answer = {"records": [hint_record(told)], "applied": None}
    if told.path.steps:
        before, after = told.boards()
        step = told.path.steps[0]
        if step.placements:
            answer["applied"] = puzzle_text(puzzle, after.values)
        if ask.picture:
            answer["svg"] = drawn(puzzle, before.values, candidates=before.cand, step=step)
    elif ask.picture:
        answer["svg"] = drawn(puzzle)
    return answer


def explain_answer(ask: ExplainAsk) -> Answer:
    """``ndoku explain --format json``: a record per step, then the path's summary; drawn,
    the grid the path ends on, or the grid before step ``at`` with the step shown."""
    [puzzle] = puzzles_of(ask, one=True)
    told = explain(puzzle, ask.timeout, None, ask.assume_unique)
    steps = len(told.path.steps)
    if ask.at is not None and not 1 <= ask.at <= steps:
        raise NdokuError(f"the path has {plural(steps, 'step')}: there is no step {ask.at}")
    records = [told.record(k) for k in range(steps)]
    answer: Answer = {"records": [*records, told.summary_record()]}
    if ask.picture and ask.at is not None:
        board = next(itertools.islice(told.boards(), ask.at - 1, None))
        step = told.path.steps[ask.at - 1]
        answer["svg"] = drawn(puzzle, board.values, candidates=board.cand, step=step)
    elif ask.picture:
        answer["svg"] = drawn(puzzle, told.path.values)
    return answer


def rate_answer(ask: RateAsk) -> Answer:
    """``ndoku rate --format json``: the rating of the one puzzle, its chains within the
    server's time limit of a job."""
    chain_seconds = min(RATE_CHAIN_TIMEOUT, ask.timeout)
    if ask.chains * chain_seconds > MOST_SECONDS:
        most = int(MOST_SECONDS // chain_seconds)
        raise NdokuError(
            f"the server's time limit is {MOST_SECONDS:g} s a job: {ask.chains} chains of up "
            f"to {chain_seconds:g} s each may take longer; ask for at most {most}"
        )
    [rating] = iter_rate(
        puzzles_of(ask, one=True),
        chains=ask.chains,
        max_proposals=ask.max_proposals,
        timeout=ask.timeout,
        assume_unique=ask.assume_unique,
    )
    return {"records": [rating_record(rating)]}


def generate_answer(ask: GenerateAsk) -> Answer:
    """``ndoku generate LAYOUT --format json`` for one seed, of a layout by name only."""
    if ask.layout not in available_layouts():  # a path too: the server opens none it is given
        known = ", ".join(sorted(available_layouts()))
        raise NdokuError(f"unknown layout {ask.layout!r} (known layouts: {known})")
    if ask.givens is not None and (ask.difficulty is not None or ask.needs is not None):
        raise NdokuError("givens excludes difficulty and needs: ask for one")
    aim = Aim.of(ask.difficulty, ask.needs)
    settings = (ask.givens, ask.difficulty, ask.needs, ask.symmetry, ask.rules)
    [made] = iter_generate(
        ask.layout,
        1,
        seed=ask.seed,
        givens=ask.givens,
        difficulty=ask.difficulty,
        needs=ask.needs,
        symmetry=ask.symmetry,
        timeout=ask.timeout,
        rules=ask.rules,
        command=lambda seed: generate_command(ask.layout, seed, *settings),
    )
    if isinstance(made, NdokuError):  # the time ran out before any solution was drawn
        raise made
    record = generated_record(made, ask.layout, ask.seed, ask.givens, aim, ask.symmetry, ask.rules)
    answer: Answer = {"records": [record]}
    if ask.picture:
        answer["svg"] = drawn(made.puzzle)
    return answer


def picture_answer(ask: PictureAsk) -> Answer:
    """The puzzle drawn; with ``values``, the values of that text (the same puzzle filled
    in: a solution the page has) over the givens, whose conflicts show red."""
    puzzle, values = _filled(ask)
    return {"svg": drawn(puzzle, values)}


def _filled(ask: PictureAsk) -> tuple[Puzzle, IntArray | None]:
    """The puzzle of an ask, and the values of its ``values`` text over its givens."""
    [puzzle] = puzzles_of(ask, one=True)
    if ask.values is None:
        return puzzle, None
    [filled] = puzzles_of(Reading(ask.values, ask.layout, ask.symbols), one=True)
    if filled.index.shape != puzzle.index.shape or filled.n_cells != puzzle.n_cells:
        raise NdokuError("the values are of another layout than the puzzle")
    return puzzle, np.where(puzzle.givens > 0, puzzle.givens, filled.givens)


@dataclass(frozen=True)
class Download:
    """A file the page saves: its bytes, its media type and its name."""

    data: bytes
    media_type: str
    name: str


#: Media type of each picture format.
MEDIA = {"svg": "image/svg+xml", "png": "image/png", "pdf": "application/pdf"}


def download_answer(ask: DownloadAsk) -> Download:
    """The picture of :func:`picture_answer` as an SVG, PNG or PDF file (without the page's
    ``data-cell`` marks), as ``ndoku show`` and ``ndoku solve --png`` draw it."""
    if ask.format not in MEDIA:
        raise NdokuError(f"unknown picture format {ask.format!r} (known: {', '.join(MEDIA)})")
    require(ask.format)  # PNG and PDF: the print extra, or an Error naming it
    puzzle, values = _filled(ask)
    scene = picture(puzzle, values)
    if ask.format == "pdf":
        data = to_pdf(pages([scene]))
    else:
        data = to_svg(scene).encode() if ask.format == "svg" else to_png(scene)
    return Download(data, MEDIA[ask.format], f"puzzle.{ask.format}")


def link_answer(ask: LinkAsk) -> Answer:
    """``ndoku show --to fpuzzles|sudokupad|text``: a link that opens the puzzle elsewhere,
    or its text in ndoku's form."""
    [puzzle] = puzzles_of(ask, one=True)
    return {"to": ask.to, "link": exchange_form(puzzle, ask.to)}


def edit_answer(ask: EditAsk) -> Answer:
    """The puzzle's text with one given written or cleared (in the layout's own shape, with
    its headers, as ``ndoku generate`` writes a puzzle); the page then draws it, and shows
    the error when the new given breaks a rule.

    >>> edit_answer(EditAsk("1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n", row=0, col=1, value="3"))
    {'text': '1 3 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n'}
    """
    [puzzle] = puzzles_of(ask, one=True)
    rows, cols = puzzle.index.shape
    cell = (
        int(puzzle.index[ask.row, ask.col]) if 0 <= ask.row < rows and 0 <= ask.col < cols else -1
    )
    if cell < 0:
        raise NdokuError(f"no cell at row {ask.row}, column {ask.col} of the canvas (from 0)")
    symbol = puzzle.grid.style.symbol
    value_of = {symbol(v): v for v in range(1, puzzle.size + 1)}
    if ask.value and ask.value not in value_of:
        known = f"{symbol(1)} to {symbol(puzzle.size)}"
        raise NdokuError(f"{ask.value!r} is no symbol of this puzzle ({known})")
    values = puzzle.givens.copy()
    values[cell] = value_of.get(ask.value, 0)
    return {"text": puzzle_text(puzzle, values)}


def layouts_answer() -> Answer:
    """The layouts ``ndoku layouts`` lists, each with the text of its empty grid."""
    records = layout_records()
    for record in records:
        record["text"] = puzzle_text(layout_puzzle(record["layout"]))
    return {"records": records}
