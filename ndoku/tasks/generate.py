"""Making puzzles: a random solution, then givens taken away while exactly one solution remains.

Glossary
--------
layout puzzle
    The empty puzzle of a layout (every cell 0): what a layout file reads as.
solution
    Stage one: a random complete grid of the layout. The exact solver completes random
    peer-consistent values on ``SCATTER`` of the cells and the symbols are relabelled at
    random; when that fails ``EXACT_TRIES`` times in a row, a Metropolis chain started from
    the empty layout finds one. (The exact route is the faster one on multi-grids, by 5 to 30
    times; on single grids the chain is faster, but both take milliseconds: see the README.)
group
    Cells whose givens are removed together: one cell, or a cell and its image under the
    asked symmetry (``rotational``: a half turn of the canvas; ``mirror``: left-right).
rules
    With ``rules`` (:data:`~ndoku.tasks.ruling.RULES`), rules that fit the solution are
    drawn before stage two (:mod:`ndoku.tasks.ruling`), whose checks then see them: most
    givens, often all, go.
removal
    Stage two (:mod:`ndoku.tasks.thinning`): the groups, in random order, each tried once; a
    group goes when the puzzle without it is still proved unique, down to a target number of
    givens if one is asked.
attempt
    When a level or a technique is asked (an *aim*, :class:`~ndoku.tasks.thinning.Aim`), one
    solution and one removal order searched for a puzzle that fits it
    (:func:`~ndoku.tasks.thinning.seek`); a new solution is drawn until one fits, at most
    ``MAX_ATTEMPTS`` times.

Every puzzle returned has been written as text, read back, proved unique by the exact solver
and its solution checked by :func:`ndoku.tasks.verify.verify`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError, VerificationError
from ndoku.jit import work_clock
from ndoku.limits import (
    DEFAULT_TIMEOUT,
    GENERATE_PATH_TIMEOUT,
    PROOF_SECONDS,
    check_count,
    check_timeout,
    seconds_left,
)
from ndoku.model.layout import available_layouts, load_layout
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.rules import same_rules
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.solvers.exact import solve_exact
from ndoku.solvers.random import draw_seed, generator
from ndoku.tasks.rate import LEVEL_OF, Rating, rate
from ndoku.tasks.ruling import RULES, repaired, ruled
from ndoku.tasks.thinning import Aim, seek, thin
from ndoku.tasks.verify import verify
from ndoku.text.grid import DIGITS, HEADER_KEYS, LINE_LENGTHS
from ndoku.text.words import plural

IntArray = NDArray[np.int32]

SYMMETRIES = ("none", "rotational", "mirror")
#: Solutions tried per puzzle when a level or a technique is asked (each one attempt); with
#: rules and no target, solutions drawn for a puzzle that needs no given, within a share of
#: the timeout.
MAX_ATTEMPTS = 1000
RULED_ATTEMPTS = 5
RULED_SHARE = 0.25
#: Stage one: share of cells given random values before the exact solver completes them,
#: tries before falling back on the chain, and the search's node cap per cell.
SCATTER = 0.05
EXACT_TRIES = 5
SOLUTION_NODES_PER_CELL = 4


class GenerateTimeout(NdokuError):
    """The time ran out before any solution of the layout was found."""


@dataclass(frozen=True, eq=False)
class Generated:
    """A generated puzzle, proved unique and with its verified solution.

    Attributes
    ----------
    puzzle : Puzzle
        The puzzle as read back from ``text``.
    text : str
        The puzzle in the layout's own shape, with the layout's headers and maps and a
        comment line saying how it was made: ``ndoku solve`` reads it as the same layout.
    solution : ndarray of int32
    rating : Rating
    seed : int
    stop : str
        ``target`` (the asked number of givens), ``minimal`` (no group could go: every
        remaining given is needed, or its check hit ``thinning.CHECK_NODES``), ``level``
        (the asked level and technique), ``attempts`` (no attempt found a puzzle that fits
        them) or ``timeout``.
    reached : bool
        Whether what was asked (a number of givens, a level or technique, or a minimal
        puzzle) was reached.
    attempts : int
        Solutions drawn (more than one only for a level or a technique).
    seconds : float
    """

    puzzle: Puzzle
    text: str
    solution: IntArray
    rating: Rating
    seed: int
    stop: str
    reached: bool
    attempts: int
    seconds: float

    @property
    def givens(self) -> int:
        """Number of givens."""
        return int((self.puzzle.givens > 0).sum())


def layout_puzzle(layout: str) -> Puzzle:
    """The empty puzzle of a layout: a name from ``ndoku layouts`` or a layout file.

    >>> p = layout_puzzle("samurai")
    >>> p.n_cells, p.layout.name, int(p.givens.sum())
    (369, 'samurai', 0)
    """
    if Path(layout).is_file():
        puzzles = read_puzzles(layout)
    else:
        load_layout(layout)  # an unknown name: the error lists the known ones
        puzzles = read_puzzles(available_layouts()[layout], layout=layout)
    if len(puzzles) != 1:
        raise NdokuError(
            f"{layout} holds {plural(len(puzzles), 'puzzle')}; a layout is one empty grid"
        )
    [puzzle] = puzzles
    given = int((puzzle.givens > 0).sum())
    if given:
        raise NdokuError(
            f"{layout} has {plural(given, 'given')}; a layout is an empty grid (0 for each cell, "
            ". where none is)"
        )
    return puzzle


def minimum_givens(puzzle: Puzzle) -> int:
    """The fewest givens a unique puzzle can have by the bound ndoku uses: N − 1.

    With two symbols missing from the givens, swapping them in a solution gives another.

    >>> minimum_givens(layout_puzzle("9x9"))
    8
    """
    return puzzle.size - 1


def symmetry_groups(puzzle: Puzzle, symmetry: str = "none") -> list[IntArray]:
    """The cells removed together: singletons, or a cell with its image under ``symmetry``.

    Raises :class:`~ndoku.errors.NdokuError` when the layout lacks the symmetry: its shape,
    boxes or regions, or extra units change under it.

    >>> [g.tolist() for g in symmetry_groups(layout_puzzle("4x4"), "rotational")][:2]
    [[0, 15], [1, 14]]
    >>> symmetry_groups(layout_puzzle("twodoku"), "mirror")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: layout twodoku has no mirror symmetry: its shape changes under ...
    """
    if symmetry not in SYMMETRIES:
        raise NdokuError(f"unknown symmetry {symmetry!r} (known: {', '.join(SYMMETRIES)})")
    cells = np.arange(puzzle.n_cells, dtype=np.int32)
    if symmetry == "none":
        return [cells[i : i + 1] for i in range(puzzle.n_cells)]
    rows, cols = puzzle.index.shape
    r, c = puzzle.cell_rc[:, 0], puzzle.cell_rc[:, 1]
    turn = "a half turn" if symmetry == "rotational" else "a left-right mirror"
    image = puzzle.index[rows - 1 - r if symmetry == "rotational" else r, cols - 1 - c]
    name = puzzle.layout.name or puzzle.source
    if (image < 0).any():
        raise NdokuError(
            f"layout {name} has no {symmetry} symmetry: its shape changes under {turn}"
        )
    units = puzzle.units
    own = {frozenset(units[u].tolist()) for u in range(len(units))}
    moved = {frozenset(image[units[u]].tolist()) for u in range(len(units))}
    if own != moved:
        raise NdokuError(
            f"layout {name} has no {symmetry} symmetry: its boxes, regions or extra units "
            f"change under {turn}"
        )
    return [
        np.unique([cell, image[cell]]).astype(np.int32) for cell in cells if cell <= image[cell]
    ]


# --- stage one: a random solution ---------------------------------------------------------


def random_solution(puzzle: Puzzle, rng: np.random.Generator, deadline: float) -> IntArray | None:
    """A random complete grid of the layout, or None when ``deadline`` passes first.

    >>> p = layout_puzzle("samurai")
    >>> values = random_solution(p, generator(1), work_clock() + 60)
    >>> verify(p, values)  # no error: every unit holds every symbol once
    """
    empty = np.zeros(puzzle.n_cells, dtype=np.int32)
    nodes = SOLUTION_NODES_PER_CELL * puzzle.n_cells + 1000
    for _ in range(EXACT_TRIES):
        if work_clock() >= deadline:
            return None
        seeds = _scatter(puzzle, rng)
        left = seconds_left(deadline)
        found = solve_exact(puzzle, givens=seeds, limit=1, max_nodes=nodes, timeout=left)
        if found.values is not None:
            relabel = np.concatenate([[0], rng.permutation(puzzle.size) + 1]).astype(np.int32)
            return relabel[found.values]
    if work_clock() >= deadline:
        return None
    chain = metropolis(puzzle, seed=draw_seed(rng), timeout=seconds_left(deadline), givens=empty)
    return chain.values if chain.solved else None


def _scatter(puzzle: Puzzle, rng: np.random.Generator) -> IntArray:
    """Random values on a random share (``SCATTER``) of the cells, none equal to a peer's."""
    ptr, peers = puzzle.peers
    values = np.zeros(puzzle.n_cells, dtype=np.int32)
    symbols = np.arange(1, puzzle.size + 1, dtype=np.int32)
    count = max(1, int(SCATTER * puzzle.n_cells))
    for cell in rng.permutation(puzzle.n_cells)[:count]:
        free = np.setdiff1d(symbols, values[peers[ptr[cell] : ptr[cell + 1]]])
        if len(free):
            values[cell] = rng.choice(free)
    return values


# --- the whole generator --------------------------------------------------------------------


def generate(
    layout: Puzzle,
    *,
    givens: int | None = None,
    difficulty: str | None = None,
    needs: str | None = None,
    symmetry: str = "none",
    seed: int = 0,
    timeout: float = DEFAULT_TIMEOUT,
    command: str | None = None,
    rules: str | None = None,
) -> Generated:
    """Generate one puzzle of a layout with a unique solution.

    Parameters
    ----------
    layout : Puzzle
        The empty layout (:func:`layout_puzzle`).
    givens : int, optional
        Stop removing at this many givens (default: remove all that can go).
    difficulty : str, optional
        One of :data:`ndoku.tasks.rate.LEVELS` (any case): draw solutions until a puzzle's path
        has that level (at most ``MAX_ATTEMPTS``). The old names (``easy`` … ``expert``) are
        refused with the new ones.
    needs : str, optional
        A technique of :data:`ndoku.tasks.rate.LEVEL_OF` (any case): likewise, until a
        puzzle's path uses it (and has the ``difficulty``, when both are asked).
    symmetry : str
        ``none``, ``rotational`` or ``mirror``: the pattern of givens.
    seed : int
        Same seed, same puzzle (unless the timeout cuts the work short).
    timeout : float
        Seconds; when they run out, the puzzle reached so far is returned (``stop`` is
        ``timeout``), or :class:`GenerateTimeout` is raised when no solution was found yet.
        Without a level or technique asked, the rating's path takes at most
        ``GENERATE_PATH_TIMEOUT`` (its level is then a lower bound).
    command : str, optional
        How the puzzle was asked for, for the comment line of ``text``.
    rules : str, optional
        A kind of :data:`~ndoku.tasks.ruling.RULES`, drawn to fit each solution before
        givens are removed: ``killer`` cages with their sums, ``consecutive`` every white dot
        and ``xv`` every X and V (each with the negative constraint).

    Raises
    ------
    ndoku.errors.NdokuError
        A target outside ``minimum_givens .. cells``, an unknown difficulty, technique or
        symmetry, a symmetry the layout lacks, ``givens`` with a difficulty or technique.

    Examples
    --------
    >>> made = generate(layout_puzzle("9x9"), seed=3)
    >>> made.stop, made.reached, made.rating.status
    ('minimal', True, 'unique')
    >>> generate(layout_puzzle("9x9"), seed=3).text == made.text
    True
    >>> made = generate(layout_puzzle("9x9"), difficulty="intersections", seed=3)
    >>> made.rating.level, made.stop
    ('intersections', 'level')
    >>> "XY-wing" in generate(layout_puzzle("9x9"), needs="xy-wing", seed=3).rating.counts
    True
    >>> killer = generate(layout_puzzle("6x6"), rules="killer", seed=1)
    >>> killer.puzzle.rules[0].kind, killer.rating.status
    ('cage', 'unique')
    """
    start, begun = time.perf_counter(), work_clock()  # the wall's, and the deadline's
    aim = Aim.of(difficulty, needs)
    _check_arguments(layout, givens, aim, seed, timeout)
    if rules is not None and rules not in RULES:
        raise NdokuError(f"unknown rules {rules!r} to generate (known: {', '.join(RULES)})")
    if rules is None and aim is not None and "rules" in (aim.level, LEVEL_OF.get(aim.needs or "")):
        raise NdokuError(
            "the level rules and its techniques need a puzzle with rules: ask for them with "
            f"--rules ({', '.join(RULES)})"
        )
    if layout.rules:
        raise NdokuError(
            "generate makes a puzzle's rules itself (--rules): give it a layout without rules"
        )
    groups = symmetry_groups(layout, symmetry)
    deadline = begun + timeout
    rng = generator(seed)
    target = 0 if givens is None else givens
    best: tuple[Puzzle, IntArray, IntArray, Rating] | None = None
    stop = "timeout"  # no attempt ended
    attempts = 0
    # with rules and no target, solutions are drawn until one needs no given (in a share of
    # the time); the puzzle with the fewest givens is kept
    fewest: tuple[Puzzle, IntArray, IntArray, str] | None = None
    redraws = RULED_ATTEMPTS if rules is not None and givens is None else 1
    while attempts < (redraws if aim is None else MAX_ATTEMPTS):
        solution = random_solution(layout, rng, deadline)
        if solution is None:
            if fewest is not None:  # the time ran out between draws: the fewest is rated
                best, stop = _rated(fewest, deadline)
            else:
                stop = "timeout"
            break
        attempts += 1
        drawn, bare = (layout, False)
        if rules is not None:
            drawn, bare = ruled(layout, puzzle_text(layout), solution, rules, rng, deadline)
        order = [groups[i] for i in rng.permutation(len(groups))]
        if aim is None:
            if bare and target == 0:  # the rules alone: no given is needed
                found, stop = np.zeros_like(solution), "target"
            else:
                found, stop = thin(drawn, solution, order, target=target, deadline=deadline)
            if rules == "killer" and target == 0:
                caught = (drawn, found, stop)
                empty = puzzle_text(layout)
                drawn, found, stop = repaired(layout, empty, caught, solution, order, rng, deadline)
            if fewest is None or (found > 0).sum() < (fewest[1] > 0).sum():
                fewest = (drawn, found, solution, stop)
            spent = work_clock() - begun
            if fewest[1].any() and attempts < redraws and spent < RULED_SHARE * timeout:
                continue
            best, stop = _rated(fewest, deadline)
            break
        found, rating, late = seek(drawn, solution, order, aim, deadline)
        if best is None or aim.distance(rating) < aim.distance(best[3]):
            best = (drawn, found, solution, rating)
        stop = "level" if aim.fits(best[3]) else "timeout" if late else "attempts"
        if stop != "attempts":
            break
    if best is None:
        raise GenerateTimeout(f"no solution of the layout found within {timeout:g} s")
    drawn, found, solution, rating = best
    reached = stop in ("target", "level") or (stop == "minimal" and givens is None)
    text = puzzle_text(drawn, found, _comment(command, found, rating))
    puzzle = _proved(drawn, text, found, solution)
    return Generated(
        puzzle, text, solution, rating, seed, stop, reached, attempts, time.perf_counter() - start
    )


def _rated(
    made: tuple[Puzzle, IntArray, IntArray, str], deadline: float
) -> tuple[tuple[Puzzle, IntArray, IntArray, Rating], str]:
    """A thinned puzzle (its puzzle with rules, givens, solution, how thinning stopped) with
    its rating, and how thinning stopped."""
    drawn, found, solution, stop = made
    # the proofs repeat a search thinning made; the path takes what is left
    left = seconds_left(deadline)
    path_left = min(left, GENERATE_PATH_TIMEOUT)
    proof = max(left, PROOF_SECONDS)
    rating = rate(drawn, found, timeout=proof, path_timeout=path_left, proofs_after=1)
    return (drawn, found, solution, rating), stop


def _check_arguments(
    layout: Puzzle, givens: int | None, aim: Aim | None, seed: int, timeout: float
) -> None:
    if givens is not None and aim is not None:
        raise NdokuError("ask for a number of givens or for a difficulty or technique, not both")
    check_count(seed, "seed")
    check_timeout(timeout)
    if givens is None:
        return
    low = minimum_givens(layout)
    if givens < low:
        raise NdokuError(
            f"{plural(givens, 'given')} cannot make a unique puzzle: with N = {layout.size} "
            f"symbols a unique puzzle needs at least N − 1 = {low} givens (two symbols missing "
            "from the givens could be swapped in any solution)"
        )
    if givens > layout.n_cells:
        raise NdokuError(
            f"{plural(givens, 'given')} is more than the {layout.n_cells} cells of the layout"
        )


def _comment(command: str | None, givens: IntArray, rating: Rating) -> str:
    count = int((givens > 0).sum())
    return f"{command + ': ' if command else ''}{plural(count, 'given')}, {rating.headline()}"


def _proved(layout: Puzzle, text: str, givens: IntArray, solution: IntArray) -> Puzzle:
    """Read ``text`` back, prove it unique and check its solution: the puzzle read
    (``layout``: the empty puzzle with its rules)."""
    [puzzle] = read_puzzles(text=text)
    same = np.array_equal(puzzle.units.ptr, layout.units.ptr) and np.array_equal(
        puzzle.units.cells, layout.units.cells
    )
    same = same and same_rules(puzzle.rules, layout.rules)
    if not same or not np.array_equal(puzzle.givens, givens):
        raise VerificationError("a generated puzzle does not read back as written")
    # on the layout's tables (its units were just found equal): built once, not per puzzle
    proof = solve_exact(layout, givens=puzzle.givens, timeout=DEFAULT_TIMEOUT)
    if not proof.unique or proof.values is None:
        raise VerificationError(f"a generated puzzle is not unique ({proof.status})")
    verify(puzzle, proof.values)
    if not np.array_equal(proof.values, solution):
        raise VerificationError("a generated puzzle's solution is not the one it was made from")
    return puzzle


# --- text ------------------------------------------------------------------------------------


def puzzle_text(puzzle: Puzzle, values: IntArray | None = None, comment: str | None = None) -> str:
    """Values in the layout's own shape, with its headers and maps (and a comment line).

    >>> print(puzzle_text(layout_puzzle("6x6"), comment="empty"), end="")
    # empty
    # box: 2x3
    0 0 0 0 0 0
    0 0 0 0 0 0
    0 0 0 0 0 0
    0 0 0 0 0 0
    0 0 0 0 0 0
    0 0 0 0 0 0
    """
    grid = puzzle.grid
    lines = [f"# {comment}"] if comment else []
    for key in HEADER_KEYS:
        lines += [f"# {key}: {header.value}" for header in grid.headers.get(key, ())]
    text = "".join(line + "\n" for line in lines) + puzzle.text(values)
    for block in grid.extra:
        text += "\n" + "".join(line + "\n" for _, line in block.lines)
    return text


def line_headers(puzzle: Puzzle, layout: str) -> list[str]:
    """Header lines a file of one-line puzzles of this layout needs to read back as it.

    >>> line_headers(layout_puzzle("9x9"), "9x9"), line_headers(layout_puzzle("xsudoku"), "xsudoku")
    ([], ['# layout: xsudoku'])
    """
    headers = puzzle.grid.headers
    lines = [f"# symbols: {h.value}" for h in headers.get("symbols", ())]
    named = headers.get("layout", ())
    if named:
        lines.append(f"# layout: {named[0].value}")
    elif puzzle.grid.extra or any(key in headers for key in ("subgrids", "box", "extra", "unit")):
        lines.append(f"# layout: {layout}")
    return lines


def puzzle_line(puzzle: Puzzle, values: IntArray | None = None) -> str:
    """The puzzle as one line, for single grids of n⁴ cells.

    Empty cells are ``.`` up to N = 9 and ``0`` from 16 on: in ``1-9A-G`` a ``0`` that repeats
    in units can only be empty, so the line never reads as ``0-F`` (:mod:`ndoku.model.reading`),
    even when the puzzle leaves out the symbol ``G``.

    >>> puzzle_line(layout_puzzle("4x4"))
    '................'
    >>> puzzle_line(layout_puzzle("samurai"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ndoku.errors.NdokuError: the line format holds one grid; samurai has 5 sub-grids ...
    """
    layout = puzzle.layout
    name = layout.name or puzzle.source
    if len(layout.corners) > 1:
        raise NdokuError(
            f"the line format holds one grid; {name} has {len(layout.corners)} sub-grids "
            "(use grid or json)"
        )
    if puzzle.n_cells not in LINE_LENGTHS:
        lengths = ", ".join(str(k) for k in LINE_LENGTHS)
        raise NdokuError(
            f"the line format holds n⁴ cells ({lengths}); {name} has {puzzle.n_cells} "
            "(use grid or json)"
        )
    alphabet = puzzle.grid.style.alphabet or DIGITS[1:]
    if puzzle.size > len(alphabet):
        raise NdokuError(
            f"the line format writes one character per symbol; {name} has {puzzle.size} "
            "symbols (use grid or json)"
        )
    shown = puzzle.givens if values is None else values
    empty = "0" if "0" not in alphabet and puzzle.size > 9 else "."
    return "".join(alphabet[v - 1] if v else empty for v in shown.tolist())
