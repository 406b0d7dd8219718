"""A solving path: the easiest applicable step, applied, again and again until the puzzle is
solved or no technique of the engine applies."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ndoku.jit import compiling_notice
from ndoku.limits import DEFAULT_TIMEOUT, MAX_SECONDS, Deadline
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.logic.board import Board, IntArray
from ndoku.solvers.logic.cages import cage_digit_from_unit, locked_cage_digit
from ndoku.solvers.logic.chains import w_wing, x_chain, xy_wing, xyz_wing
from ndoku.solvers.logic.forcing import dynamic_chain, forcing_chains, group_forcing_chain
from ndoku.solvers.logic.guess import guess
from ndoku.solvers.logic.rule_search import cage_combinations, rule_assignments
from ndoku.solvers.logic.rules import IMPLIED, LINES, PAIRS, PARITY, narrowing
from ndoku.solvers.logic.rules import STEP_NAMES as RULE_STEP_NAMES
from ndoku.solvers.logic.techniques import (
    Step,
    fish,
    full_house,
    hidden_single,
    hidden_subset,
    locked_candidates,
    naked_single,
    naked_subset,
)
from ndoku.solvers.logic.uniqueness import STEP_NAMES, bivalue_universal_grave, unique_loops
from ndoku.solvers.logic.wings import wing


def chains(board: Board) -> Step | None:
    """The forcing chain of least rating, or a W-wing where it rates no higher (the same
    deduction, easier to follow)."""
    best = forcing_chains(board)
    wings = w_wing(board)
    return wings if wings is not None and (best is None or wings.rating <= best.rating) else best


#: Every technique in the order a path tries them (Sukaku Explainer's order, which rises
#: with difficulty but for a few; the techniques of variant rules, :mod:`.rules`, among
#: them by rating): (name, rating of its easiest form, finder). Those of
#: :data:`UNIQUENESS` only when the path may assume the puzzle has one solution.
TECHNIQUES: tuple[tuple[str, float, Callable[[Board], Step | None]], ...] = (
    ("full house", 1.0, full_house),
    ("hidden single", 1.2, hidden_single),
    ("naked single", 2.3, naked_single),
    ("even/odd", 1.0, narrowing(PARITY)),
    ("dots and lines", 1.7, narrowing(PAIRS)),  # kropki, XV, thermometers, whispers, …
    ("cage combinations", 2.0, cage_combinations),
    ("sums and clues", 2.4, narrowing(LINES)),  # arrows, little killers, renban, sandwich, …
    ("locked candidates", 2.6, locked_candidates),
    ("locked cage digit", 2.8, locked_cage_digit),
    ("cage digit from a unit", 2.8, cage_digit_from_unit),
    ("innies and outies", 3.0, narrowing(IMPLIED)),
    ("naked pair", 3.0, naked_subset(2, 3.0)),
    ("X-wing", 3.2, fish(2, 3.2)),
    ("hidden pair", 3.4, hidden_subset(2, 3.4)),
    ("naked triple", 3.6, naked_subset(3, 3.6)),
    ("swordfish", 3.8, fish(3, 3.8)),
    ("hidden triple", 4.0, hidden_subset(3, 4.0)),
    ("two strong links", 4.0, x_chain(2)),  # skyscraper, two-string kite, turbot fish
    ("XY-wing", 4.2, xy_wing),
    ("XYZ-wing", 4.4, xyz_wing),
    ("unique rectangles and loops", 4.5, unique_loops),
    ("naked quad", 5.0, naked_subset(4, 5.0)),
    ("jellyfish", 5.2, fish(4, 5.2)),
    ("hidden quad", 5.4, hidden_subset(4, 5.4)),
    ("rule assignments", 4.0, rule_assignments),
    ("three strong links", 5.4, x_chain(3)),
    ("WXYZ-wing", 5.5, wing(4)),
    ("bivalue universal grave", 5.6, bivalue_universal_grave),
    ("four strong links", 5.8, x_chain(4)),
    ("VWXYZ-wing", 6.2, wing(5)),
    ("UVWXYZ-wing", 6.6, wing(6)),
    ("forcing chains", 6.6, chains),  # X-, XY- and alternating inference chains, W-wing
    ("TUVWXYZ-wing", 7.5, wing(7)),
    ("Nishio", 7.5, dynamic_chain(True)),
    ("cell and unit forcing chains", 8.0, group_forcing_chain),
    ("dynamic forcing chain", 8.5, dynamic_chain(False)),
)

#: The techniques of :data:`TECHNIQUES` that hold only for a puzzle with one solution, and
#: only when every rule of it is a full unit: a cage, a thermometer or an anti-knight peer
#: can tell the two solutions of a deadly pattern apart.
UNIQUENESS = frozenset({"unique rectangles and loops", "bivalue universal grave"})

#: The last technique of a quick proof that a puzzle has one solution: a path of singles and
#: intersections that fills the grid (with a grid that keeps every rule) shows that no
#: other grid does. They are cheap on any grid and compile in about 2 s on a first run,
#: where the exact search takes 8 to 10 s.
PROOF_UP_TO = "locked candidates"

#: The techniques of :data:`TECHNIQUES` of variant rules: tried (and their kernels loaded)
#: only on a puzzle with rules other than units and peers.
RULES = frozenset({
    "even/odd", "dots and lines", "cage combinations", "sums and clues", "locked cage digit",
    "cage digit from a unit", "innies and outies", "rule assignments",
})  # fmt: skip

#: What a path needs, easiest first: the level of the most advanced family it uses
#: (``rules``: what one variant rule's cells allow, and the 45 rule).
LEVELS = (
    "singles", "rules", "intersections", "subsets", "fish", "wings", "chains",
    "forcing chains", "search",
)  # fmt: skip

#: The level of each technique (by the name its steps carry).
LEVEL_OF = {
    "full house": "singles",
    "hidden single": "singles",
    "naked single": "singles",
    "pointing": "intersections",
    "claiming": "intersections",
    "locked candidates": "intersections",
    **{
        f"{kind} {n}": "subsets" for kind in ("naked", "hidden") for n in ("pair", "triple", "quad")
    },
    **dict.fromkeys(("X-wing", "swordfish", "jellyfish"), "fish"),
    **dict.fromkeys(("skyscraper", "two-string kite", "turbot fish"), "wings"),
    **dict.fromkeys(("XY-wing", "XYZ-wing", "W-wing"), "wings"),
    **dict.fromkeys(("WXYZ-wing", "VWXYZ-wing", "UVWXYZ-wing", "TUVWXYZ-wing"), "wings"),
    # patterns of a few cells rated among the wings (4.5 to 6), the assumption aside
    **dict.fromkeys(STEP_NAMES, "wings"),
    **dict.fromkeys(RULE_STEP_NAMES, "rules"),
    # a search of one rule's cells, rated as a pattern of a few cells
    "rule assignments": "wings",
    **dict.fromkeys(("X-chain", "XY-chain", "alternating inference chain"), "chains"),
    **dict.fromkeys(
        ("Nishio", "cell forcing chain", "unit forcing chain", "dynamic forcing chain"),
        "forcing chains",
    ),
    "guess": "search",
}


#: Said on stderr when a technique's kernels compile: what compiling adds to a first run,
#: measured on two cores on 2026-11-28 (a first ``hint`` 2.2 s more than a first ``solve``;
#: a first ``explain`` of a puzzle that reaches every technique, 39 s more).
LOGIC_NOTICE = (
    "the logic engine's techniques as paths first reach them (first runs only: about 2 s "
    "for singles, 40 s for all)"
)

#: What this process has warmed (:func:`_warm`): technique names, and ``contradiction``.
_warmed: set[str] = set()

#: The small boards a technique is warmed on: one where steps are found, an empty one where
#: none is, one with rules where each rule technique finds a step (a 4×4 has the array types
#: of every layout).
_WARM_BOARDS = (
    "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n",
    "0 0 0 0\n" * 4,
    "0 0 0 0\n" * 4 + "\ncage 3: r1c1 r1c2\ncage 7: r3c3 r3c4\nwhite: r2c1 r2c2\nodd: r4c4\n"
    "arrow: r4c3 > r3c2\n",
)


def _warm(name: str, find: Callable[[Board], object], deadline: Deadline) -> None:
    """Once per process, before ``name`` is first tried: run ``find`` twice on each small
    board (the second time reads what the first kept in the board's memory), so that loading
    or compiling its kernels happens here, outside ``deadline``'s time. A timeout then cuts a
    path where it cuts it on every later run (the seeds of ``generate`` rely on that), and a
    command compiles only the techniques its paths reach (a first hint of singles compiles
    two, not thirty)."""
    if name in _warmed:
        return
    with deadline.paused(), compiling_notice(LOGIC_NOTICE):
        for text in _WARM_BOARDS:
            [small] = read_puzzles(text=text)
            fresh = Board.start(small)
            find(fresh)
            find(fresh)
    _warmed.add(name)


def warm(up_to: str) -> None:
    """Compile (or load) the kernels of every technique up to ``up_to`` now, as the first
    path to reach them would (a server before its first request, a second process beside a
    first command); those of variant rules (:data:`RULES`) wait for a puzzle with rules."""
    deadline = Deadline(MAX_SECONDS)
    _warm("contradiction", Board.contradiction, deadline)
    for name, _, find in TECHNIQUES:
        if name not in RULES:
            _warm(name, find, deadline)
        if name == up_to:
            return
    raise ValueError(f"no technique is named {up_to!r}")


def warm_these(names: Sequence[str]) -> None:
    """Compile (or load) the kernels of the techniques ``names``, in that order: a second
    process takes the ones a path meets after the first, from the far end, while the
    command's own path comes to them from the near one (:mod:`ndoku.tasks.warming`)."""
    finds = {name: find for name, _, find in TECHNIQUES}
    unknown = [name for name in names if name not in finds]
    if unknown:
        raise ValueError(f"no technique is named {unknown[0]!r}")
    deadline = Deadline(MAX_SECONDS)
    for name in names:
        _warm(name, finds[name], deadline)


def next_step(
    board: Board,
    solution: IntArray | None = None,
    assume_unique: bool = False,
    deadline: Deadline | None = None,
    up_to: str | None = None,
) -> Step | None:
    """The first step of the easiest technique that applies (those of :data:`UNIQUENESS`
    only with ``assume_unique``, on a puzzle whose rules are all units; none after the
    technique named ``up_to``); with ``solution``, a guess when none does; else None. A
    technique is warmed before its first try in the process (:func:`_warm`), outside
    ``deadline``."""
    ruled = bool(board.puzzle.lowered.constraints)
    plain = not ruled and not board.puzzle.lowered.peers
    for name, _, find in TECHNIQUES:
        if name in UNIQUENESS and not (assume_unique and plain):
            continue
        if name in RULES and not ruled:
            continue
        _warm(name, find, deadline or Deadline(MAX_SECONDS))
        step = find(board)
        if step is not None:
            return step
        if name == up_to:
            break
    return guess(board, solution) if solution is not None else None


def apply(board: Board, step: Step) -> None:
    """Carry out ``step`` on ``board``: its placements, then its eliminations."""
    for cell, value in step.placements:
        board.place(cell, value)
    for cell, value in step.eliminations:
        board.cand[cell, value - 1] = False


@dataclass(frozen=True)
class Path:
    """A puzzle's solving path.

    Attributes
    ----------
    steps : tuple of Step
    stop : str
        ``solved``, ``stuck`` (no technique of the engine applies, and no solution was given
        to guess from), ``contradiction`` (the givens, or the entries, break a rule),
        ``timeout`` or ``steps`` (``most_steps`` were taken).
    values : ndarray of int32
        The values placed at the end (the solution when solved).
    """

    steps: tuple[Step, ...]
    stop: str
    values: IntArray

    @property
    def solved(self) -> bool:
        return self.stop == "solved"

    @property
    def hardest(self) -> Step | None:
        """The step of the highest rating (the first of them)."""
        return max(self.steps, key=lambda s: s.rating, default=None)

    @property
    def level(self) -> str:
        """What the path needs: the most advanced :data:`LEVELS` entry of its steps
        (``singles`` for a path without steps)."""
        return LEVELS[max((LEVELS.index(LEVEL_OF[s.technique]) for s in self.steps), default=0)]

    def counts(self) -> Counter[str]:
        """How often each technique was used, in the order of first use."""
        return Counter(step.technique for step in self.steps)


def solve_path(
    puzzle: Puzzle,
    values: IntArray | None = None,
    solution: IntArray | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    most_steps: int | None = None,
    assume_unique: bool = False,
    up_to: str | None = None,
) -> Path:
    """Solve ``puzzle`` step by step, each time with the easiest technique that applies.

    Parameters
    ----------
    puzzle : Puzzle
    values : ndarray, optional
        Givens plus a solver's own entries, to go on from (default: the givens).
    solution : ndarray, optional
        The puzzle's one solution (proved unique): where no technique applies, the path
        guesses its value for a cell, and always ends solved. Without it, it stops stuck.
    timeout : float
        Seconds the path may take (checked between steps; a chain search on a large grid
        can take a second or two): then it stops with ``timeout``.
    most_steps : int, optional
        Stop after this many steps (``steps``; a hint takes one).
    assume_unique : bool
        Use the uniqueness techniques too (:data:`UNIQUENESS`): only for a puzzle known to
        have one solution (on another, their steps may remove values of its solutions). A
        puzzle with rules other than units (cages, lines, dots, more peers) never uses them.
    up_to : str, optional
        The last technique of :data:`TECHNIQUES` to try (:data:`PROOF_UP_TO` for a quick
        proof). Until a step needs a later one, the path is the one without it.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> path = solve_path(p)
    >>> path.stop, len(path.steps), path.steps[0].technique
    ('solved', 12, 'hidden single')
    """
    if up_to is not None and up_to not in {name for name, _, _ in TECHNIQUES}:
        raise ValueError(f"no technique is named {up_to!r}")
    deadline = Deadline(timeout)
    board = Board.start(puzzle, values)
    _warm("contradiction", Board.contradiction, deadline)
    steps: list[Step] = []
    # each step places a value or removes a candidate: no path is longer than cells × N
    cap = puzzle.n_cells * puzzle.size + 1
    if most_steps is not None:
        cap = min(cap, most_steps)
    while board.free and len(steps) < cap:
        if deadline.passed():
            return Path(tuple(steps), "timeout", board.values.copy())
        if board.contradiction():
            return Path(tuple(steps), "contradiction", board.values.copy())
        step = next_step(board, solution, assume_unique, deadline, up_to)
        if step is None:
            return Path(tuple(steps), "stuck", board.values.copy())
        apply(board, step)
        steps.append(step)
    return Path(tuple(steps), "solved" if not board.free else "steps", board.values.copy())
