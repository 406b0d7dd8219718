"""The per-layout tables and work arrays of the propagation and search kernels.

A :class:`Topology` is built once per layout (memoized on its frame): the CSR arrays of units,
cells and peers the kernels walk, and the locked-candidates program of :func:`_crossings`; a
puzzle with variant rules has its own, with its constraints' arrays (:func:`rule_tables`).
:class:`WorkArrays` are the queues and stamps a kernel call writes in, made per call from a
topology; every array is the caller's, so the kernels allocate nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from itertools import accumulate, chain
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.jit import kernel
from ndoku.limits import MAX_SYMBOLS
from ndoku.model.constraints import PAIRS, PRIMITIVES, Constraint, Packed
from ndoku.model.frame import Frame
from ndoku.model.puzzle import Puzzle
from ndoku.solvers.arrange import arrange, flat_places
from ndoku.solvers.implied import constraint_arrays, search_room
from ndoku.solvers.narrowing import (
    ALLOWED,
    CAGE,
    DISTINCT,
    MATCHED,
    MOST_COMBINATIONS,
    PAIR,
    RENBAN,
    SANDWICH,
    SKYSCRAPER,
    SUM,
)

IntArray = NDArray[np.int32]
#: A puzzle's constraints as the narrowing kernels read them (:func:`rule_tables`): each one's
#: kernel, cells (CSR), number (a pair's table) and weights (per cell), the pairs' tables, the
#: cages' combinations (CSR); then the work arrays of
#: :func:`ndoku.solvers.rules.apply_rules` (where each constraint was last settled, what a
#: kernel leaves, the searches' room), which :class:`WorkArrays` makes anew.
Rules = tuple[
    IntArray,
    IntArray,
    IntArray,
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.uint64],
    IntArray,
    NDArray[np.uint64],
    NDArray[np.uint64],
    NDArray[np.uint64],
    NDArray[np.int64],
]
#: Kernel work arrays of every search: fix queue, hidden-single queue, cell weights, unit
#: change stamps, the stamp clock, the peers a fixed value was just removed from; and, for a
#: puzzle with variant rules, its rules (:func:`ndoku.solvers.rules.rules_pass` tells by the
#: length of the tuple, so that a puzzle without compiles none of their code).
RuledScratch = tuple[
    IntArray, IntArray, IntArray, NDArray[np.int64], NDArray[np.int64], IntArray, Rules
]
Scratch = (
    tuple[IntArray, IntArray, IntArray, NDArray[np.int64], NDArray[np.int64], IntArray]
    | RuledScratch
)
#: Locked candidates (where :func:`has_locked`): the program of ``_crossings``, group check
#: stamps, the pieces' candidates.
Locked = tuple[IntArray, NDArray[np.int64], NDArray[np.uint64]]
#: All-different matching and probing (the exact search's, from its ``PROBE_FROM``; matching
#: alone for :func:`ndoku.solvers.propagation.candidates`): the work arrays of
#: :func:`ndoku.solvers.hall.hall`, the units' matching check stamps, the
#: values a probe pass implied, the probes' history, a pass's two-way choices (cells,
#: values, order keys), and the change stamps of the units a probe narrows (on its copy of
#: the state: kept apart from ``Scratch``'s, which say what matching and locked candidates
#: must look at again in the search's own states), and the spare room of the keys' sort.
Probing = tuple[
    IntArray,
    NDArray[np.uint64],
    NDArray[np.int64],
    NDArray[np.uint64],
    IntArray,
    IntArray,
    NDArray[np.uint64],
    NDArray[np.int64],
    NDArray[np.int64],
    NDArray[np.int64],
]

#: Locked candidates are looked for from this N on, and on layouts of several grids (more
#: cells than N²): below, on one grid, singles alone search faster. On the clueless 2 set
#: they cut the median search from 87 nodes to 9 (139 -> 95 µs); the published multi-grids,
#: which need no search, took up to 8 % more.
LOCKED_FROM = 16


def has_locked(frame: Frame) -> bool:
    """Whether propagation on ``frame`` looks for locked candidates (see :data:`LOCKED_FROM`).

    >>> from ndoku.model.layout import load_layout
    >>> [has_locked(Frame.of(load_layout(name))) for name in ("9x9", "samurai", "16x16")]
    [False, True, True]
    """
    return frame.size >= LOCKED_FROM or frame.n_cells > frame.size**2


@dataclass(frozen=True, eq=False)
class Topology:
    """The arrays the kernels of one layout need (picklable, for worker processes).

    ``net`` is the kernels' view: CSR of unit → cells, cell → units and cell → peers;
    ``program`` the locked-candidates program (``n_groups`` groups), None where
    :func:`has_locked` says so; ``classic`` whether the units are exactly the rows, columns
    and 3×3 boxes of a 9×9 (cells row by row), which :mod:`ndoku.solvers.exact.nine`
    searches; ``most_peers`` the peers of a cell, at most; ``spare`` the work arrays finished
    searches of the layout left for the next (:func:`ndoku.solvers.exact.solver.taken`),
    shared by the layout's tables with each puzzle's rules, and never pickled.
    """

    n_cells: int
    size: int
    net: tuple[IntArray, ...]
    program: IntArray | None
    n_groups: int
    classic: bool = False
    most_peers: int = 0
    rules: Rules | None = None  # the constraints' arrays (work arrays empty), None for none
    spare: list[Any] = field(default_factory=list, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "spare": []}

    @classmethod
    def of(cls, puzzle: Puzzle) -> Topology:
        """The tables of ``puzzle``'s layout, built once per frame; with its variant rules'
        constraints, once per puzzle."""
        topology = cls.layout(puzzle.frame)
        packed = puzzle.lowered.packed
        if not len(packed.kinds):
            return topology
        return topology.with_rules(search_tables(packed, puzzle.size, puzzle.frame))

    @classmethod
    def layout(cls, frame: Frame) -> Topology:
        """The tables of ``frame``'s layout, without any puzzle's rules (built once)."""
        if frame.size > MAX_SYMBOLS:
            raise NdokuError(
                f"the exact solver handles up to {MAX_SYMBOLS} symbols, this puzzle has "
                f"{frame.size}"
            )
        topology: Topology = frame.table("topology", cls._build)
        return topology

    def with_rules(self, rules: Rules) -> Topology:
        """These tables with a puzzle's rule arrays (searched by the general search, never
        the classic 9×9's)."""
        return replace(self, rules=rules, classic=False)

    @classmethod
    def _build(cls, frame: Frame) -> Topology:
        net = (frame.units.ptr, frame.units.cells, *frame.cell_units, *frame.peers)
        most = int(np.diff(net[4]).max(initial=0))
        if not has_locked(frame):
            return cls(frame.n_cells, frame.size, net, None, 0, _classic(net), most)
        program, n_groups = _crossings(frame)
        return cls(frame.n_cells, frame.size, net, program, n_groups, most_peers=most)

    @property
    def n_slots(self) -> int:
        """(unit, value) pairs: the length of a count array."""
        return (len(self.net[0]) - 1) * self.size


def _classic(net: tuple[IntArray, ...]) -> bool:
    """Whether the units of ``net`` are the rows, columns and 3×3 boxes of a 9×9, no more,
    and its peers theirs (none that a rule adds: an anti-knight)."""
    ptr, cells = net[0], net[1]
    if len(ptr) != 28 or ptr[-1] != 81 * 3 or len(net[5]) != 81 * 20:
        return False
    units = {frozenset(cells[ptr[u] : ptr[u + 1]].tolist()) for u in range(27)}
    grid = np.arange(81).reshape(9, 9)
    boxes = grid.reshape(3, 3, 3, 3).swapaxes(1, 2).reshape(9, 9)
    classic = {frozenset(line.tolist()) for lines in (grid, grid.T, boxes) for line in lines}
    return units == classic


def _crossings(frame: Frame) -> tuple[IntArray, int]:
    """The locked-candidates program of a layout, and its number of groups.

    Unit B *crosses* unit A when they share two cells or more: the piece A ∩ B. A's pieces
    are put in groups of disjoint pieces (B's of one kind cut a box into rows, or into
    columns); the cells of A in no piece of a group are its *rest*. A value found in exactly
    one piece of a group, and not in its rest, has all its places in A there: it leaves the
    rest of every B crossing A in that piece. The program is a flat int32 array; per group::

        A, record length, rest count, rest cells…, piece count,
        per piece: cell count, cells…,
        per piece: partner count, per partner: B, count, cells of B \\ A…
    """
    units = frame.units
    crossing: list[dict[frozenset[int], list[int]]] = [{} for _ in range(len(units))]
    for a, b, shared in frame.crossings:
        crossing[a].setdefault(frozenset(shared.tolist()), []).append(b)
    program: list[int] = []
    n_groups = 0
    for a, partners in enumerate(crossing):
        mine = set(units[a].tolist())
        groups: list[list[frozenset[int]]] = []
        for piece in partners:
            home = next((g for g in groups if all(piece.isdisjoint(q) for q in g)), None)
            if home is None:
                groups.append([piece])
            else:
                home.append(piece)
        for group in groups:
            rest = sorted(mine.difference(*group))
            record = [len(rest), *rest, len(group)]
            for piece in group:
                record += [len(piece), *sorted(piece)]
            for piece in group:
                record.append(len(partners[piece]))
                for b in partners[piece]:
                    kill = [c for c in units[b].tolist() if c not in mine]
                    record += [b, len(kill), *kill]
            program += [a, len(record) + 2, *record]
            n_groups += 1
    return np.array(program, dtype=np.int32), n_groups


def check_givens(
    topology: Topology, givens: NDArray[np.integer], *, batch: bool = False
) -> IntArray:
    """``givens`` as contiguous int32, after checking their shape and values."""
    values = np.asarray(givens)
    shape = ("puzzles", topology.n_cells) if batch else (topology.n_cells,)
    if values.ndim != len(shape) or values.shape[-1] != topology.n_cells:
        wanted = ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "")
        raise NdokuError(f"givens must have shape ({wanted}), got {values.shape}")
    if values.dtype.kind not in "iu":
        raise NdokuError(f"givens must be integers, got {values.dtype}")
    if not values.size:
        wrong = False
    elif values.dtype == np.int32:  # one reduction: a negative value is large as uint32
        wrong = values.view(np.uint32).max() > topology.size
    else:
        wrong = values.min() < 0 or values.max() > topology.size
    if wrong:
        raise NdokuError(f"givens must be 0 (free) or a value 1..{topology.size}")
    return np.ascontiguousarray(values, dtype=np.int32)


class WorkArrays:
    """The queues and stamps of the propagation kernels, for one layout."""

    def __init__(self, topology: Topology, *, probing: bool) -> None:
        """``probing``: whether to make the matching and probing arrays."""
        cells = max(topology.n_cells, 1)
        n_units = len(topology.net[0]) - 1
        choices = cells + topology.n_slots
        self.scratch: Scratch = (
            np.zeros(cells, dtype=np.int32),
            # A spare place: propagation writes the next entry before it knows whether it
            # counts.
            np.zeros(topology.n_slots + 1, dtype=np.int32),
            np.zeros(cells, dtype=np.int32),
            np.zeros(n_units, dtype=np.int64),
            np.zeros(1, dtype=np.int64),
            np.zeros(topology.most_peers + 1, dtype=np.int32),
        )
        self.take_rules(topology)
        self.locked: Locked | None = None
        if topology.program is not None:
            self.locked = (
                topology.program,
                np.zeros(topology.n_groups, dtype=np.int64),
                np.zeros(topology.size, dtype=np.uint64),
            )
        self.probing: Probing | None = None
        if probing:
            self.probing = (
                np.zeros(5 * topology.size, dtype=np.int32),
                np.zeros(3 * topology.size, dtype=np.uint64),
                np.zeros(n_units, dtype=np.int64),
                np.zeros(cells, dtype=np.uint64),
                np.zeros(cells * topology.size, dtype=np.int32),
                np.zeros(2 * choices, dtype=np.int32),
                np.zeros(2 * choices, dtype=np.uint64),
                np.zeros(choices, dtype=np.int64),
                np.zeros(n_units, dtype=np.int64),
                np.zeros(choices + 256, dtype=np.int64),
            )

    def take_rules(self, topology: Topology) -> None:
        """Put the work arrays of ``topology``'s rules (a puzzle's, on this layout) in the
        scratch, in place of any it held; none for a puzzle without rules."""
        plain = self.scratch[:6]
        if topology.rules is None:
            self.scratch = plain
        else:
            self.scratch = (*plain, rule_work(topology.rules, topology.size))

    def compiling(self, kernel: Any) -> tuple[str, float, Any]:
        """What the compile notice says of the propagation ``kernel`` called with these arrays,
        about how many seconds compiling it takes, and the kernel.

        One version of the kernels is compiled for each set of arrays left None. The seconds
        are what compiling adds to a first run on two cores: 14 s measured below 16×16 with
        matching (a first ``solve --method tempering``, 2026-11-28); the others are the
        2026-11-25 figures times 3.3, the ratio of that day's machine to this one's.
        """
        small = self.locked is None
        side = f"{LOCKED_FROM}×{LOCKED_FROM}"
        grids = f"single grids below {side}" if small else f"multi-grids and grids from {side} up"
        if self.probing is None:
            return f"propagation for {grids}", 7 if small else 10, kernel
        return f"propagation and matching for {grids}", 14 if small else 20, kernel


_CODES = {"allowed": ALLOWED, "sum": SUM, "cage": CAGE, "distinct": DISTINCT}
_CODES |= {"renban": RENBAN, "sandwich": SANDWICH, "skyscraper": SKYSCRAPER}

_RELATIONS: dict[str, Callable[[int, int, int], bool]] = {
    "differ": lambda x, y, n: x != y,
    "difference": lambda x, y, n: abs(x - y) == n,
    "not-difference": lambda x, y, n: abs(x - y) != n,
    "ratio": lambda x, y, n: x == n * y or y == n * x,
    "not-ratio": lambda x, y, n: x != n * y and y != n * x,
    "pair-sum": lambda x, y, n: x + y == n,
    "not-pair-sum": lambda x, y, n: x + y != n,
    "less": lambda x, y, n: x < y,
    "less-equal": lambda x, y, n: x <= y,
    "gap": lambda x, y, n: abs(x - y) >= n,
    "equal": lambda x, y, n: x == y,
}
assert set(_RELATIONS) == set(PAIRS)


@cache
def pair_table(kind: str, number: int, size: int) -> NDArray[np.uint64]:
    """``(2, size)`` masks of a pair constraint: row 0, the values of the second cell each
    value of the first allows; row 1, the reverse (made once: read-only).

    >>> [bin(int(m)) for m in pair_table("difference", 1, 4)[0]]
    ['0b10', '0b101', '0b1010', '0b100']
    """
    allowed = _RELATIONS[kind]
    table = np.zeros((2, size), dtype=np.uint64)
    for x in range(1, size + 1):
        for y in range(1, size + 1):
            if allowed(x, y, number):
                table[0, x - 1] |= np.uint64(1) << np.uint64(y - 1)
                table[1, y - 1] |= np.uint64(1) << np.uint64(x - 1)
    table.flags.writeable = False
    return table


def rule_tables(
    constraints: Sequence[Constraint] | Packed, size: int, matched: bool = False
) -> Rules:
    """The arrays of :data:`Rules` for ``constraints``, its work arrays empty
    (:class:`WorkArrays` makes them); ``matched``: the cages narrow as ``MATCHED`` (the exact
    search's), not as ``CAGE``.

    >>> tables = rule_tables([Constraint("less", (0, 1)), Constraint("cage", (2, 3), 5)], 4)
    >>> tables[0].tolist(), tables[1].tolist(), tables[2].tolist()
    ([0, 3], [0, 2, 4], [0, 1, 2, 3])
    """
    packed = constraints if isinstance(constraints, Packed) else Packed.of(constraints)
    kinds, numbers, tables = kernel_codes(packed.kinds, packed.numbers, size)
    counts = np.diff(packed.ptr).tolist()
    held = [
        combinations(count, number, size) if kind == CAGE else ()
        for kind, count, number in zip(kinds.tolist(), counts, numbers.tolist(), strict=True)
    ]
    arrays = constraint_arrays(packed, kinds, numbers, 0)
    if matched:
        arrays[0][arrays[0] == CAGE] = MATCHED
    combos = np.array(list(chain.from_iterable(held)), dtype=np.uint64)
    return (*arrays, tables, np.array([0, *accumulate(map(len, held))], dtype=np.int32), combos,
            *_empty_work())  # fmt: skip


def search_tables(constraints: Sequence[Constraint] | Packed, size: int, frame: Frame) -> Rules:
    """The exact search's :data:`Rules` for ``constraints`` on ``frame``, arranged by
    :func:`~ndoku.solvers.arrange.arrange`: the sums that one unit holds searched as cages (an
    outside sum's first cells of a row: bounds alone leave 24 in three cells at 6..9, where
    the combinations leave 7, 8 and 9), the ``distinct`` groups that one unit holds left out,
    the sums their cages imply added (by layers where cages overlap, as outside sums do; on
    grids of :data:`~ndoku.solvers.implied.SEARCH_FROM` values or more), and each cage
    ``MATCHED`` (implied sums stay sums: searched as cages with the combinations read cell by
    cell, they cost a generated killer Samurai 12 times the nodes).

    >>> from ndoku.model.layout import load_layout
    >>> frame = Frame.of(load_layout("4x4"))
    >>> sums = [Constraint("sum", (0, 1), 7, (1, 1)), Constraint("sum", (0, 6), 5, (1, 1))]
    >>> kinds = search_tables(sums, 4, frame)[0].tolist()  # r1c1-c2 in a row, r1c1 r2c3 not
    >>> kinds[:2] == [MATCHED, SUM]
    True
    """
    packed = constraints if isinstance(constraints, Packed) else Packed.of(constraints)
    kinds, numbers, tables = kernel_codes(packed.kinds, packed.numbers, size)
    room = search_room(frame) if _summed(kinds) else 0
    arrays = constraint_arrays(packed, kinds, numbers, room)
    *laid, combo_ptr, combos = arrange(frame, *arrays, len(kinds), size)
    return (*laid, tables, combo_ptr, combos, *_empty_work())  # type: ignore[return-value]


def _summed(kinds: IntArray) -> bool:
    """Whether constraints of kernel codes ``kinds`` hold a cage or a sum (and may imply
    sums)."""
    return bool(((kinds == CAGE) | (kinds == SUM)).any())


#: The narrowing kernel of each kind of :data:`~ndoku.model.constraints.PRIMITIVES`, by its
#: number.
_KERNEL_OF = np.array([_CODES.get(kind, PAIR) for kind in PRIMITIVES], dtype=np.int32)
_NAMES = tuple(PRIMITIVES)


def kernel_codes(
    kinds: NDArray[np.int8], numbers: NDArray[np.int64], size: int
) -> tuple[IntArray, NDArray[np.int64], NDArray[np.uint64]]:
    """The kernel code and number (a pair's: its table's index) of each constraint of
    ``kinds`` and ``numbers`` (as :class:`~ndoku.model.constraints.Packed` has them), and the
    pair tables, ``(tables, 2, size)``: one per kind and number that the pairs have, in the
    order they first come.

    >>> packed = Packed.of([Constraint("less", (0, 1)), Constraint("cage", (2, 3), 5),
    ...                     Constraint("difference", (1, 2), 1), Constraint("less", (1, 3))])
    >>> codes, numbers, tables = kernel_codes(packed.kinds, packed.numbers, 4)
    >>> codes.tolist() == [PAIR, CAGE, PAIR, PAIR], numbers.tolist(), tables.shape
    (True, [0, 5, 1, 0], (2, 2, 4))
    """
    n = len(kinds)
    codes = np.empty(n, dtype=np.int32)
    renumbered = np.empty(n, dtype=np.int64)
    found = np.empty(n, dtype=np.int64)
    span = 2 * size + 2
    seen = np.full(len(_KERNEL_OF) * span, -1, dtype=np.int64)
    tabled = _number_pairs(kinds, numbers, _KERNEL_OF, span, codes, renumbered, found, seen, 0)
    return codes, renumbered, _pair_tables(found[:tabled], span, size)


def joined_codes(
    flat: NDArray[np.int64], puzzles: int, size: int
) -> tuple[NDArray[np.int64], NDArray[np.uint64], int, int]:
    """:func:`kernel_codes` for a batch: ``flat``, the ``puzzles``' joined
    :attr:`~ndoku.model.constraints.Packed.flat` arrays, gets its kinds and numbers turned
    into kernel codes and numbers in place (one numbering of the pairs for all). Returns where
    each puzzle starts in ``flat`` (and where it ends), the pair tables, and the most
    constraints and the most cells of a puzzle.

    >>> flat = np.concatenate([Packed.of([Constraint("less", (0, 1))]).flat,
    ...                        Packed.of([Constraint("cage", (2, 3, 1), 6)]).flat])
    >>> starts, tables, longest, most_cells = joined_codes(flat, 2, 4)
    >>> starts.tolist(), tables.shape, longest, most_cells
    ([0, 10, 22], (1, 2, 4), 1, 3)
    >>> flat[[2, 12]].tolist() == [PAIR, CAGE], flat[[3, 13]].tolist()  # codes, numbers
    (True, [0, 6])
    """
    starts = np.empty(puzzles + 1, dtype=np.int64)
    found = np.empty(len(flat), dtype=np.int64)
    span = 2 * size + 2
    seen = np.full(len(_KERNEL_OF) * span, -1, dtype=np.int64)
    most = np.zeros(3, dtype=np.int64)
    _join_codes(flat, starts, _KERNEL_OF, span, found, seen, most)
    tabled, longest, most_cells = most.tolist()
    return starts, _pair_tables(found[:tabled], span, size), longest, most_cells


def _pair_tables(keys: NDArray[np.int64], span: int, size: int) -> NDArray[np.uint64]:
    """The pair table of each key that :func:`_number_pairs` found, in its order."""
    if not len(keys):
        return _no_tables(size)
    tables = [pair_table(_NAMES[key // span], key % span, size) for key in keys.tolist()]
    return np.array(tables, dtype=np.uint64)


@kernel()
def _number_pairs(
    kinds: NDArray[np.integer],
    numbers: NDArray[np.int64],
    kernel_of: IntArray,
    span: int,
    codes: NDArray[np.integer],
    renumbered: NDArray[np.int64],
    found: NDArray[np.int64],
    seen: NDArray[np.int64],
    tabled: int,
) -> int:
    """:func:`kernel_codes` in one pass (numpy's calls on a batch's thousand constraints
    took 17 µs): each kernel code into ``codes``, each number into ``renumbered`` (a pair's:
    its key's order of coming), each pair key not yet ``seen`` into ``found`` from place
    ``tabled`` on; returns how many ``found`` holds then. ``codes`` and ``renumbered`` may be
    ``kinds`` and ``numbers`` themselves.

    A pair's key is its kind's number times ``span`` (2·size + 2) plus its number, at most
    2·size + 1: every relation holds of the same values for any number beyond (a sum above
    2·size is never made, a difference or ratio above size never either), and the model
    refuses negative numbers. ``seen``: -1 for each key, of ``len(kernel_of) * span``.
    """
    for i in range(len(kinds)):
        kind, number = kinds[i], numbers[i]
        code = kernel_of[kind]
        codes[i] = code
        renumbered[i] = number
        if code == PAIR:
            key = kind * span + min(max(number, 0), span - 1)
            if seen[key] < 0:
                seen[key] = tabled
                found[tabled] = key
                tabled += 1
            renumbered[i] = seen[key]
    return tabled


@kernel()
def _join_codes(
    flat: NDArray[np.int64],
    starts: NDArray[np.int64],
    kernel_of: IntArray,
    span: int,
    found: NDArray[np.int64],
    seen: NDArray[np.int64],
    most: NDArray[np.int64],
) -> None:
    """:func:`joined_codes` in one pass; the pairs found, the most constraints and the most
    cells of a puzzle into ``most``."""
    at = tabled = longest = most_cells = 0
    for k in range(len(starts) - 1):
        starts[k] = at
        n, e, kinds_at, numbers_at, _, _, _, end = flat_places(flat, at)
        kinds, numbers = flat[kinds_at:numbers_at], flat[numbers_at : numbers_at + n]
        tabled = _number_pairs(kinds, numbers, kernel_of, span, kinds, numbers, found, seen, tabled)
        longest, most_cells = max(longest, n), max(most_cells, e)
        at = end
    starts[len(starts) - 1] = at
    most[0], most[1], most[2] = tabled, longest, most_cells


@cache
def _no_tables(size: int) -> NDArray[np.uint64]:
    """The pair tables of constraints without pairs: one array, writeable as the tables of
    pairs are (it holds nothing to change). numba types a read-only array apart, and the
    search compiled a second version for puzzles without pairs: 35 s more on a first run."""
    return np.zeros((0, 2, size), dtype=np.uint64)


def _empty_work() -> tuple[NDArray[np.uint64], NDArray[np.uint64], NDArray[np.int64]]:
    """The work arrays of :data:`Rules`, empty (:func:`rule_work` makes them)."""
    empty = np.zeros(0, dtype=np.uint64)
    return empty, empty, np.zeros(0, dtype=np.int64)


@cache
def combinations(count: int, total: int, size: int) -> tuple[int, ...]:
    """The sets (bit masks) of ``count`` different values of 1..``size`` summing to
    ``total``; none when there are more than
    :data:`~ndoku.solvers.narrowing.MOST_COMBINATIONS` (the cage is searched instead).

    >>> [bin(m) for m in combinations(2, 5, 9)]
    ['0b1001', '0b110']
    """
    found: list[int] = []

    def extend(start: int, left: int, total: int, mask: int) -> bool:
        if left == 0:
            if total == 0:
                found.append(mask)
            return len(found) <= MOST_COMBINATIONS
        if left * size - left * (left - 1) // 2 < total:  # the most sum of ``left`` values
            return True
        for v in range(start, size + 1):
            if v * left + left * (left - 1) // 2 > total:  # the least sum from v on
                break
            if not extend(v + 1, left - 1, total - v, mask | 1 << (v - 1)):
                return False
        return True

    return tuple(found) if extend(1, count, total, 0) else ()


def rule_work(rules: Rules, size: int) -> Rules:
    """``rules`` with work arrays of its own (a search's, or a thread's): where each
    constraint was last settled (nothing yet), what a kernel leaves, the searches' room (8
    places per cell of the longest constraint; here per cell of all, as finding the longest
    took 1.2 µs of each solve)."""
    n_cells = len(rules[2])
    return (
        *rules[:8],
        np.zeros(n_cells, dtype=np.uint64),
        np.zeros(n_cells, dtype=np.uint64),
        np.zeros(8 * n_cells + 8, dtype=np.int64),
    )
