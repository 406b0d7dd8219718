"""Rules as the solvers see them: a few kinds of constraint on listed cells, more units and
more peers (:func:`lower`), and the slow, obviously correct check of each (:func:`holds`).

Every kind of :data:`~ndoku.model.rules.KINDS` lowers to these: a thermometer to ``less``
between each cell and the next, an arrow to a ``sum`` with weights (the circle's cells
weigh −1, or −10 and −1 for a pill), ``antiknight`` to more peers, ``disjoint`` to more
units, the negative constraint of white dots to ``not-difference`` on each neighbouring pair
without a dot, and so on.

Glossary (terms of the package glossary apply too)
-------------------------------------------------
constraint
    What a tuple of cells' values must satisfy: its ``kind`` (a name of
    :data:`PRIMITIVES`), its cells, a number and, for sums, a weight per cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import accumulate, chain, pairwise

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import ParseError
from ndoku.model.layout import Layout
from ndoku.model.rules import DOT_KINDS, Rule, whisper_gap

#: Each constraint kind and what it says of the values ``x`` of its cells (``n`` its number).
PRIMITIVES = {
    "differ": "x0 ≠ x1",
    "difference": "|x0 − x1| = n",
    "not-difference": "|x0 − x1| ≠ n",
    "ratio": "x0 = n·x1 or x1 = n·x0",
    "not-ratio": "neither x0 = n·x1 nor x1 = n·x0",
    "pair-sum": "x0 + x1 = n",
    "not-pair-sum": "x0 + x1 ≠ n",
    "less": "x0 < x1",
    "less-equal": "x0 ≤ x1",
    "gap": "|x0 − x1| ≥ n",
    "equal": "x0 = x1",
    "allowed": "bit x0 − 1 of n is set",
    "sum": "Σ weight_i · x_i = n (values may repeat)",
    "cage": "the x_i differ and Σ x_i = n",
    "distinct": "the x_i differ",
    "renban": "the x_i differ and are consecutive",
    "sandwich": "the x_i strictly between the 1 and the N sum to n (the x_i are a row)",
    "skyscraper": "n of the x_i are larger than every x before them",
}

#: The kinds of two cells.
PAIRS = (
    "differ", "difference", "not-difference", "ratio", "not-ratio", "pair-sum",
    "not-pair-sum", "less", "less-equal", "gap", "equal",
)  # fmt: skip

#: A dot kind's pair constraint, its negative, and its number when the dot shows none.
_DOTS = {
    "white": ("difference", "not-difference", 1),
    "black": ("ratio", "not-ratio", 2),
    "x": ("pair-sum", "not-pair-sum", 10),
    "v": ("pair-sum", "not-pair-sum", 5),
}
_KNIGHT = ((1, 2), (2, 1), (2, -1), (1, -2))
_KING = ((0, 1), (1, -1), (1, 0), (1, 1))


@dataclass(frozen=True)
class Constraint:
    """One constraint: a kind of :data:`PRIMITIVES`, its cells, its number, the weights of a
    ``sum``, and the index of the rule it came from (in the puzzle's ``rules``)."""

    kind: str
    cells: tuple[int, ...]
    number: int = 0
    weights: tuple[int, ...] = ()
    rule: int = -1


#: Each kind's number in :class:`Packed` (its place in :data:`PRIMITIVES`).
KIND_NUMBERS = {kind: k for k, kind in enumerate(PRIMITIVES)}


@dataclass(frozen=True, eq=False)
class Packed:
    """Constraints as arrays, one entry per constraint: each kind's number
    (:data:`KIND_NUMBERS`), cells (CSR: ``cells[ptr[i]:ptr[i + 1]]``), number, and weights
    per cell (a sum's own, else ones). Made with the constraints (:class:`Lowered`), so that
    the solvers read a puzzle's constraints without a Python loop over them.

    ``flat`` holds the same as one int64 array: the counts of constraints and of cells, then
    kinds, numbers, ptr, cells and weights. A batch joins its puzzles' by one concatenation
    (five took a killer 4×4 batch 5 µs, as much as two of its searches).

    >>> packed = Packed.of([Constraint("less", (4, 5)), Constraint("sum", (0, 1), 9, (1, -1))])
    >>> packed.kinds.tolist(), packed.ptr.tolist(), packed.cells.tolist()
    ([7, 12], [0, 2, 4], [4, 5, 0, 1])
    >>> packed.numbers.tolist(), packed.weights.tolist()
    ([0, 9], [1, 1, 1, -1])
    >>> packed.flat.tolist()
    [2, 4, 7, 12, 0, 9, 0, 2, 4, 4, 5, 0, 1, 1, 1, 1, -1]
    """

    kinds: NDArray[np.int8]
    ptr: NDArray[np.int32]
    cells: NDArray[np.int32]
    numbers: NDArray[np.int64]
    weights: NDArray[np.int64]
    flat: NDArray[np.int64]

    @classmethod
    def of(cls, constraints: Sequence[Constraint]) -> Packed:
        kinds = np.array([KIND_NUMBERS[c.kind] for c in constraints], dtype=np.int8)
        ptr = np.array([0, *accumulate(len(c.cells) for c in constraints)], dtype=np.int32)
        cells = np.array(list(chain.from_iterable(c.cells for c in constraints)), dtype=np.int32)
        numbers = np.array([c.number for c in constraints], dtype=np.int64)
        weights = np.array(
            list(chain.from_iterable(c.weights or (1,) * len(c.cells) for c in constraints)),
            dtype=np.int64,
        )
        counts = np.array([len(kinds), len(cells)], dtype=np.int64)
        flat = np.concatenate([counts, kinds, numbers, ptr, cells, weights], dtype=np.int64)
        return cls(kinds, ptr, cells, numbers, weights, flat)


@dataclass(frozen=True)
class Lowered:
    """What a puzzle's rules add: constraints (also :class:`Packed`, in ``packed``), more
    units (N cells each, canvas positions) and more peers (pairs of cell numbers, each once,
    smaller first)."""

    constraints: tuple[Constraint, ...]
    units: tuple[tuple[tuple[int, int], ...], ...]
    peers: tuple[tuple[int, int], ...]
    packed: Packed = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "packed", Packed.of(self.constraints))


def lower(rules: Sequence[Rule], layout: Layout, index: NDArray[np.int32]) -> Lowered:
    """The constraints, units and peers of ``rules`` on a layout (``index``: the cell number
    of each canvas position, -1 where none is).

    Raises
    ------
    ParseError
        When a rule does not fit the layout (``disjoint`` without boxes).

    Examples
    --------
    >>> from ndoku.model.layout import load_layout
    >>> from ndoku.model.units import number_cells
    >>> layout = load_layout("4x4")
    >>> index, _ = number_cells(layout.mask)
    >>> low = lower([Rule("thermo", (0, 1, 2)), Rule("antiking")], layout, index)
    >>> [(c.kind, c.cells) for c in low.constraints]
    [('less', (0, 1)), ('less', (1, 2))]
    >>> len(low.peers)  # king's moves: 3·4 across, 4·3 down, 2·3·3 diagonally
    42
    """
    constraints: list[Constraint] = []
    units: list[tuple[tuple[int, int], ...]] = []
    peers: set[tuple[int, int]] = set()
    size = layout.size
    marked: dict[str, set[frozenset[int]]] = {kind: set() for kind in DOT_KINDS}
    negative: dict[str, int] = {}  # dot kind → the first rule that makes it negative
    for k, rule in enumerate(rules):
        cells = rule.cells
        kind = rule.kind
        if kind in _DOTS:
            pair, _, default = _DOTS[kind]
            number = default if rule.value is None else rule.value
            constraints.append(Constraint(pair, cells, number, rule=k))
            if number == default:
                marked[kind].add(frozenset(cells))
        elif kind in ("thermo", "slow-thermo"):
            step = "less" if kind == "thermo" else "less-equal"
            constraints += [Constraint(step, pair, rule=k) for pair in pairwise(cells)]
        elif kind == "whisper":
            gap = whisper_gap(size) if rule.value is None else rule.value
            constraints += [Constraint("gap", pair, gap, rule=k) for pair in pairwise(cells)]
        elif kind == "palindrome":
            half = len(cells) // 2
            constraints += [
                Constraint("equal", (cells[i], cells[-1 - i]), rule=k) for i in range(half)
            ]
        elif kind in ("even", "odd"):
            parity = 1 if kind == "even" else 0
            mask = sum(1 << (v - 1) for v in range(1, size + 1) if v % 2 != parity)
            constraints += [Constraint("allowed", (c,), mask, rule=k) for c in cells]
        elif kind == "cage":
            if rule.value is None:
                constraints.append(Constraint("distinct", cells, rule=k))
            else:
                constraints.append(Constraint("cage", cells, rule.value, rule=k))
        elif kind in ("little-killer", "outside-sum"):
            constraints.append(Constraint("sum", cells, rule.value or 0, (1,) * len(cells), k))
        elif kind == "arrow":
            head = rule.head
            weights = tuple(-(10 ** (head - 1 - i)) for i in range(head))
            weights += (1,) * (len(cells) - head)
            constraints.append(Constraint("sum", cells, 0, weights, k))
        elif kind == "renban":
            constraints.append(Constraint(kind, cells, rule=k))
        elif kind in ("sandwich", "skyscraper"):
            # the clue's line is a row or column of a sub-grid: its narrowing counts on
            # different digits, said here too in case a canvas makes it none
            constraints.append(Constraint(kind, cells, rule.value or 0, rule=k))
            constraints.append(Constraint("distinct", cells, rule=k))
        elif kind == "region":
            if len(cells) == size:
                units.append(tuple(_position(index, c) for c in cells))
            else:
                constraints.append(Constraint("distinct", cells, rule=k))
        elif kind in ("antiknight", "antiking"):
            peers |= _moves(index, _KNIGHT if kind == "antiknight" else _KING)
        elif kind == "nonconsecutive":
            negative.setdefault("white", k)
        elif kind == "negative":
            for word in rule.words:
                negative.setdefault(word, k)
        elif kind == "disjoint":
            units += _disjoint(layout)
    for kind in sorted(negative):
        pair, opposite, number = _DOTS[kind]
        for a, b in sorted(_moves(index, ((0, 1), (1, 0)))):
            if frozenset((a, b)) not in marked[kind]:
                constraints.append(Constraint(opposite, (a, b), number, rule=negative[kind]))
    return Lowered(tuple(constraints), tuple(units), tuple(sorted(peers)))


def _position(index: NDArray[np.int32], cell: int) -> tuple[int, int]:
    r, c = np.argwhere(index == cell)[0]
    return int(r), int(c)


def _moves(index: NDArray[np.int32], steps: Sequence[tuple[int, int]]) -> set[tuple[int, int]]:
    """Pairs of cells one of ``steps`` (or its reverse) apart, smaller first."""
    rows, cols = index.shape
    found = set()
    for r in range(rows):
        for c in range(cols):
            a = int(index[r, c])
            if a < 0:
                continue
            for dr, dc in steps:
                if 0 <= r + dr < rows and 0 <= c + dc < cols and index[r + dr, c + dc] >= 0:
                    b = int(index[r + dr, c + dc])
                    found.add((min(a, b), max(a, b)))
    return found


def _disjoint(layout: Layout) -> list[tuple[tuple[int, int], ...]]:
    """The disjoint groups of each sub-grid: the cells at one place of each of its boxes."""
    if layout.box is None:
        raise ParseError("disjoint groups need boxes: this layout has jigsaw regions")
    height, width = layout.box
    groups = []
    for r0, c0 in layout.corners:
        for i in range(height):
            for j in range(width):
                groups.append(
                    tuple(
                        (r0 + br + i, c0 + bc + j)
                        for br in range(0, layout.size, height)
                        for bc in range(0, layout.size, width)
                    )
                )
    return groups


def holds(constraint: Constraint, values: Sequence[int], size: int) -> bool:
    """Whether the values of a constraint's cells (``values``, indexed by cell number, every
    cell filled) satisfy it: the slow reference every solver is tested against.

    >>> holds(Constraint("less", (0, 1)), [3, 5], 9)
    True
    >>> holds(Constraint("ratio", (0, 1), 2), [3, 5], 9)
    False
    >>> holds(Constraint("sandwich", tuple(range(9)), 12), [2, 1, 5, 7, 9, 3, 4, 6, 8], 9)
    True
    >>> holds(Constraint("skyscraper", (0, 1, 2, 3), 3), [2, 1, 3, 4], 4)
    True
    """
    x = [int(values[c]) for c in constraint.cells]
    n = constraint.number
    kind = constraint.kind
    if kind in PAIRS:
        a, b = x
        pairs = {
            "differ": a != b,
            "difference": abs(a - b) == n,
            "not-difference": abs(a - b) != n,
            "ratio": a == n * b or b == n * a,
            "not-ratio": a != n * b and b != n * a,
            "pair-sum": a + b == n,
            "not-pair-sum": a + b != n,
            "less": a < b,
            "less-equal": a <= b,
            "gap": abs(a - b) >= n,
            "equal": a == b,
        }
        return pairs[kind]
    if kind == "allowed":
        return bool(n >> (x[0] - 1) & 1)
    if kind == "sum":
        return sum(w * v for w, v in zip(constraint.weights, x, strict=True)) == n
    if kind == "distinct":
        return len(set(x)) == len(x)
    if kind == "cage":
        return len(set(x)) == len(x) and sum(x) == n
    if kind == "renban":
        return len(set(x)) == len(x) and max(x) - min(x) == len(x) - 1
    if kind == "sandwich":
        if 1 not in x or size not in x:
            return False
        i, j = sorted((x.index(1), x.index(size)))
        return sum(x[i + 1 : j]) == n
    if kind == "skyscraper":
        seen = sum(1 for i, v in enumerate(x) if all(v > w for w in x[:i]))
        return seen == n
    raise ValueError(f"unknown constraint kind {kind!r}")


def broken(
    constraints: Sequence[Constraint], values: NDArray[np.int32], size: int
) -> list[Constraint]:
    """The constraints a full assignment breaks (none in a solution).

    >>> broken([Constraint("equal", (0, 1)), Constraint("less", (0, 1))], np.array([2, 2]), 9)
    [Constraint(kind='less', cells=(0, 1), number=0, weights=(), rule=-1)]
    """
    listed = values.tolist()
    return [c for c in constraints if not holds(c, listed, size)]
