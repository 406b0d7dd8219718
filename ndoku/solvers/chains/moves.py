"""Move sets of the chains: their groups, pairs and energy units, start states and energies.

What a swap kernel works on is built here, in plain arrays (:class:`SwapSystem`); the
single-site move set's in :mod:`.sites`, the kernels that make the moves in :mod:`.kernels`.

Glossary
--------
move set
    What a proposal changes (:data:`MOVES`). ``box``: two free cells of one box swap their
    values, every box stays a permutation of the symbols. ``row``: the same within rows, every
    row stays a permutation (not possible where sub-grids overlap side by side). ``single``:
    one free cell takes another value; nothing is kept a permutation.
state
    Swap moves: each move group (box or row) holds a permutation, givens fixed, free cells
    filled with the group's missing symbols at random (from the seed; pruned, each to one of
    its candidates). Single-site moves: each free cell a random symbol.
pair
    Two free cells of one move group: the swaps there are. A proposal picks a pair uniformly
    among all pairs of all groups (pruned, those that are not guided swaps); the pairs never
    depend on the state, so proposals are symmetric and the chain is a proper Metropolis
    chain. Single-site proposals pick one of the free cells × (N − 1) other values
    uniformly, symmetric as well.
pruning, candidates
    Before a chain starts, propagation and all-different matching (:func:`pruned`) fix the
    cells they force, which become givens, and leave every other cell its *candidates*: the
    symbols some solution may put there. A pruned swap chain keeps to them through guided
    swaps and the penalty.
guided swap
    Pruned swap moves only (:data:`GUIDED_SHARE` of the proposals; the rest uniform pairs).
    A free cell c is drawn uniformly; if its symbol x is a candidate, one of its k − 1 other
    candidates, y, is drawn uniformly, and c swaps with the cell d of its group holding y
    (else nothing is proposed). So the swap of c and d is proposed from c's side when x and y
    are both candidates of c, from d's side when both are candidates of d, and the swap back
    under the same conditions with the same probabilities: proposals are symmetric. d may
    land outside its candidates: the penalty charges it. Guided swaps alone reach every state
    within the candidates (each pairing of a group's free cells with candidates leads to any
    other through states with one cell outside), hence every solution; a state where no free
    cell of a group holds a candidate they never reach.
penalty
    Pruned swap moves: :data:`PENALTY` of energy per free cell holding a symbol outside its
    candidates (0 in every solution).
energy
    Swap moves: Σ over every unit that is not a move group (rows and columns for box moves,
    columns, boxes and extra units for row moves) of N − (number of distinct symbols).
    Pruned, plus the penalty. Single-site moves: see :mod:`.sites`. Either way plus the
    broken count of each constraint of the puzzle's rules (:mod:`.broken`), and 0 exactly
    when the puzzle is solved.
changed units
    The energy units that hold one cell of a pair but not the other: only their counts change
    in a swap (a unit holding both keeps its symbols). The *pair table* lists them per pair.
counts, seen, repeated
    ``counts[u, s]``: how many cells of energy unit ``u`` hold symbol ``s``; bit ``s`` of
    ``masks[u, SEEN]`` is set when that count is at least 1, of ``masks[u, REPEATED]`` when it
    is at least 2. ΔE of a swap follows from two bits per changed unit.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ndoku.errors import NdokuError
from ndoku.limits import CHAIN_MAX_SYMBOLS
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX, Units
from ndoku.solvers import propagation
from ndoku.solvers.chains.broken import ChainRules, chain_rules, largest_rule_change, rule_energy
from ndoku.solvers.chains.fill import GreedyFill
from ndoku.solvers.random import generator

IntArray = NDArray[np.int32]
PairArray = NDArray[np.uint32]
GuideArray = NDArray[np.uint16]

#: Move sets: swaps within a box, swaps within a row, single-site changes.
MOVES = ("box", "row", "single")
#: Pruned swap chains: the energy of a free cell that holds a symbol outside its candidates,
#: and the share of proposals that are guided swaps (the rest uniform pairs, so that every
#: state can be reached). On 25×25 a penalty of 2 needs about twice the proposals of 1, and
#: shares of 0.75, 0.9 and 1 do not differ beyond the noise (benchmarks/bench_tempering.py).
PENALTY = 1
GUIDED_SHARE = 0.9
#: Columns of ``masks``.
SEEN, REPEATED = 0, 1
#: Columns of :attr:`SwapSystem.guide`, and slots of :attr:`SwapSystem.mix`.
GUIDE_GROUP, GUIDE_POSITION, GUIDE_COUNT, GUIDE_OPTIONS = range(4)
MIX_PAIRS, MIX_GUIDED, MIX_PENALTY = range(3)
_ONE = np.uint64(1)


@dataclass(frozen=True, eq=False)
class SwapSystem:
    """Plain arrays a swap kernel works on: move groups, pairs, energy units and candidates.

    Attributes
    ----------
    moves : str
        ``box`` or ``row``.
    groups : Units
        The move groups (boxes or rows); ``initial_state`` fills their free cells.
    pairs : ndarray of uint32, shape (pairs, 3 + 2 · width)
        Per pair: cell ``a``, cell ``b``, the number ``k`` of changed units listed, then
        ``width`` slots of a's changed units and ``width`` of b's, each padded with the dummy
        unit (index ``units``, never holding a symbol, so it adds 0 to ΔE).
    unit_ptr, unit_cells : ndarray of int32
        The energy units (CSR); ``cell_unit_ptr, cell_units``: cell → energy units.
    givens : ndarray of int32
        The fixed cells.
    pruned : bool
        Whether the cells have candidates (then guided swaps and the penalty are on).
    allowed : ndarray of uint64, shape (cells,)
        Bit ``s`` set when symbol ``s`` is a candidate of the cell (every symbol unpruned).
    free : ndarray of int32
        The free cells, group by group: a guided swap starts from one of them.
    guide : ndarray of uint16, shape (cells, 3 + N)
        Per cell: its group, its position among the group's free cells, the number of its
        candidates among the group's missing symbols, then those symbols, rising.
    group_pairs : ndarray of uint32, shape (groups, 2)
        Per group: the row of its first pair in ``pairs``, and its number of free cells.
    mix : ndarray of int64, shape (3,)
        Proposal slots of uniform pairs (every pair, or none), guided slots per free cell,
        and the penalty.
    fill : GreedyFill or None
        Pruned: the dive a start state begins with (:mod:`.fill`); None: random fills only.
    rules : ChainRules or None
        The puzzle's constraints (:func:`~.broken.chain_rules`); None: it has none.
    """

    size: int
    moves: str
    groups: Units
    pairs: PairArray
    unit_ptr: IntArray
    unit_cells: IntArray
    cell_unit_ptr: IntArray
    cell_units: IntArray
    givens: IntArray
    pruned: bool
    allowed: NDArray[np.uint64]
    free: IntArray
    guide: GuideArray
    group_pairs: PairArray
    mix: NDArray[np.int64]
    fill: GreedyFill | None = None
    rules: ChainRules | None = None

    @property
    def n_units(self) -> int:
        return len(self.unit_ptr) - 1

    @property
    def penalty(self) -> int:
        return int(self.mix[MIX_PENALTY])

    @property
    def largest_change(self) -> int:
        """The largest ΔE of a swap: every changed unit of both cells, both penalties and the
        constraints of both."""
        rules = largest_rule_change(self.rules, self.size)
        return int(self.pairs.shape[1]) - 3 + 2 * self.penalty + 2 * rules

    @property
    def kernel_arrays(
        self,
    ) -> tuple[
        PairArray, IntArray, IntArray, NDArray[np.uint64], IntArray, GuideArray, PairArray,
        NDArray[np.int64], ChainRules | None,
    ]:  # fmt: skip
        """What a swap kernel reads besides the state: pairs … cell_units, allowed … rules."""
        return (
            self.pairs,
            self.cell_unit_ptr,
            self.cell_units,
            self.allowed,
            self.free,
            self.guide,
            self.group_pairs,
            self.mix,
            self.rules,
        )


def pruned(
    puzzle: Puzzle, givens: IntArray | None = None
) -> tuple[IntArray, NDArray[np.uint64] | None]:
    """The givens plus every cell propagation fixes, and every cell's candidates.

    Propagation and all-different matching (:func:`ndoku.solvers.propagation.candidates`) to
    a fixpoint: every solution holds each cell's value among its candidates, so a chain may
    start from them.

    Returns
    -------
    givens : ndarray of int32
        The fixed cells (the givens alone when the candidates are None).
    candidates : ndarray of uint64 or None
        Bit ``v − 1`` of a cell's mask is set while value ``v`` is possible; None when the
        givens contradict each other (the puzzle has no solution).

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> givens, candidates = pruned(p)
    >>> givens.tolist()[:4], [bin(int(m)) for m in candidates[:4]]
    ([1, 0, 0, 0], ['0b1', '0b1110', '0b1110', '0b1100'])
    """
    fixed = puzzle.givens if givens is None else givens
    masks, ok = propagation.candidates(puzzle, fixed)
    if not ok:
        return fixed.astype(np.int32), None
    return np.where(fixed > 0, fixed, propagation.fixed_values(masks)).astype(np.int32), masks


def box_swap_system(
    puzzle: Puzzle,
    givens: IntArray | None = None,
    candidates: NDArray[np.uint64] | None = None,
) -> SwapSystem:
    """Boxes as move groups, all other units as energy units.

    With ``candidates`` (from :func:`pruned`, whose givens should come along) the chain
    makes guided swaps and charges the penalty; without, it swaps uniform pairs only.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = box_swap_system(p)
    >>> system.n_units, len(system.pairs)  # 4 rows + 4 columns; 3 free cells per box
    (8, 12)
    """
    return swap_system(puzzle, "box", givens, candidates)


def row_swap_system(
    puzzle: Puzzle,
    givens: IntArray | None = None,
    candidates: NDArray[np.uint64] | None = None,
) -> SwapSystem:
    """Rows as move groups; columns, boxes and extra units as energy units.

    A row is any unit whose cells lie on one canvas row (a jigsaw region can be one). Each cell
    must lie in exactly one row, which sub-grids that overlap side by side break.
    ``candidates`` as for :func:`box_swap_system`.

    Raises
    ------
    ndoku.errors.NdokuError
        A cell in two rows (a Samurai's shared boxes), naming the cell.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = row_swap_system(p)
    >>> system.n_units, len(system.pairs)  # 4 columns + 4 boxes; 3 free cells per row
    (8, 12)
    """
    return swap_system(puzzle, "row", givens, candidates)


def default_moves(puzzle: Puzzle, swaps: bool = False) -> str:
    """``box`` where every cell lies in a box (or region), else ``row`` where every cell lies
    in exactly one row (a Latin square), else ``single`` (``box`` when ``swaps``: its
    refusal says why no swap serves).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> default_moves(p)
    'box'
    """
    found = (m for m in ("box", "row") if _misplaced(puzzle, m)[1] is None)
    return next(found, "box" if swaps else "single")


def _groups(puzzle: Puzzle, moves: str) -> NDArray[np.bool_]:
    """The units that are the groups of swap moves ``box`` or ``row``; refuses a layout where
    a cell lies in no group, or in two, naming it."""
    is_group, cell, groups = _misplaced(puzzle, moves)
    if cell is not None:
        where = f"no {moves}" if groups == 0 else "two rows (sub-grids overlap side by side)"
        other = "row" if moves == "box" else "box"
        raise NdokuError(
            f"{moves} moves need every cell in exactly one {moves}, but the cell at "
            f"{puzzle.locate(cell)} lies in {where}: use moves '{other}' or 'single'"
        )
    return is_group


def _misplaced(puzzle: Puzzle, moves: str) -> tuple[NDArray[np.bool_], int | None, int]:
    """The units that are the groups of ``moves``, and the first cell in no group or in
    several (None: none is), with its number of groups."""
    units = puzzle.units
    if moves == "box":
        is_group = units.kind == BOX
    else:
        row_of = puzzle.cell_rc[units.cells, 0]
        starts = units.ptr[:-1]
        is_group = np.minimum.reduceat(row_of, starts) == np.maximum.reduceat(row_of, starts)
    per_cell = np.bincount(units.select(is_group).cells, minlength=puzzle.n_cells)
    wrong = np.flatnonzero(per_cell != 1)
    if not len(wrong):
        return is_group, None, 1
    return is_group, int(wrong[0]), int(per_cell[wrong[0]])


def swap_system(
    puzzle: Puzzle,
    moves: str,
    givens: IntArray | None = None,
    candidates: NDArray[np.uint64] | None = None,
) -> SwapSystem:
    """:func:`box_swap_system` or :func:`row_swap_system`, as ``moves`` says."""
    is_group = _groups(puzzle, moves)
    if puzzle.size > CHAIN_MAX_SYMBOLS:
        raise NdokuError(f"the Metropolis solver handles up to {CHAIN_MAX_SYMBOLS} symbols")
    fixed = puzzle.givens if givens is None else givens
    units = puzzle.units
    groups = units.select(is_group)
    energy = units.select(~is_group)
    cell_unit_ptr, cell_units = energy.of_cells(puzzle.n_cells)
    free = [g[fixed[g] == 0] for g in (groups[i] for i in range(len(groups)))]
    pairs = _pair_table(free, cell_unit_ptr, cell_units, len(energy))
    every = np.uint64(((1 << puzzle.size) - 1) << 1)  # bits 1 … N
    allowed = np.full(puzzle.n_cells, every, dtype=np.uint64)
    if candidates is not None:
        allowed &= np.asarray(candidates, dtype=np.uint64) << _ONE
    guide, group_pairs = _guide(groups, free, fixed, allowed, puzzle.size)
    free_cells = np.concatenate([*free, np.zeros(0, np.int32)]).astype(np.int32)
    mix = _mix(len(pairs), len(free_cells), candidates is not None)
    return SwapSystem(
        puzzle.size, moves, groups, pairs, energy.ptr, energy.cells, cell_unit_ptr, cell_units,
        fixed, candidates is not None, allowed, free_cells, guide, group_pairs, mix,
        None if candidates is None else GreedyFill.of(puzzle, candidates),
        chain_rules(puzzle, units),
    )  # fmt: skip


def _guide(
    groups: Units, free: list[IntArray], fixed: IntArray, allowed: NDArray[np.uint64], size: int
) -> tuple[GuideArray, PairArray]:
    """The guide and group_pairs tables of :class:`SwapSystem`; leaves in ``allowed`` only the
    group's missing symbols (a guided swap finds each of them in a free cell)."""
    # uint16 rather than int32: the table is read at random, and half the size is faster
    guide = np.zeros((len(fixed), GUIDE_OPTIONS + size), dtype=np.uint16)
    group_pairs = np.zeros((len(free), 2), dtype=np.uint32)
    symbols = np.arange(1, size + 1, dtype=np.uint64)
    first = 0
    for g, cells in enumerate(free):
        guide[groups[g], GUIDE_GROUP] = g
        guide[cells, GUIDE_POSITION] = np.arange(len(cells))
        present = fixed[groups[g]]
        taken = np.bitwise_or.reduce(_ONE << present[present > 0].astype(np.uint64), initial=0)
        allowed[cells] &= ~np.uint64(taken)
        holds = ((allowed[cells, None] >> symbols) & _ONE) == 1  # (cells, N)
        guide[cells, GUIDE_COUNT] = holds.sum(axis=1)
        # each row's allowed symbols first, rising (a stable sort keeps their order)
        order = np.argsort(~holds, axis=1, kind="stable") + 1
        guide[cells, GUIDE_OPTIONS:] = np.where(np.sort(~holds, axis=1), 0, order)
        group_pairs[g] = first, len(cells)
        first += len(cells) * (len(cells) - 1) // 2
    return guide, group_pairs


def _mix(n_pairs: int, n_free: int, guided: bool) -> NDArray[np.int64]:
    """The ``mix`` of :class:`SwapSystem`: uniform pairs only, or :data:`GUIDED_SHARE` of the
    proposals guided (as near as whole slots per free cell allow) and the penalty."""
    if not guided or n_free == 0:
        return np.array([n_pairs, 0, 0], dtype=np.int64)
    if GUIDED_SHARE >= 1:
        return np.array([0, 1, PENALTY], dtype=np.int64)
    per_cell = max(1, round(GUIDED_SHARE / (1 - GUIDED_SHARE) * n_pairs / n_free))
    return np.array([n_pairs, per_cell, PENALTY], dtype=np.int64)


def _pair_table(
    free: list[IntArray], cell_unit_ptr: IntArray, cell_units: IntArray, n_units: int
) -> PairArray:
    """Every pair of free cells of each group, with the units each cell has and the other lacks."""
    ends = [np.triu_indices(len(f), 1) for f in free]
    a = np.concatenate([f[i] for f, (i, _) in zip(free, ends, strict=True)] + [np.zeros(0, int)])
    b = np.concatenate([f[j] for f, (_, j) in zip(free, ends, strict=True)] + [np.zeros(0, int)])
    # cell → its units as a dense row, padded with the dummy unit n_units
    per_cell = np.diff(cell_unit_ptr)
    # the kernel always reads two units per side: rows at least that wide (under row moves a
    # Latin square's cell has one energy unit, its column)
    dense = np.full((len(per_cell), max(int(per_cell.max(initial=0)), 2)), n_units, np.int32)
    dense[np.repeat(np.arange(len(per_cell)), per_cell), _ranks(per_cell)] = cell_units
    ua, ub = dense[a], dense[b]
    only_a = (ua[:, :, None] != ub[:, None, :]).all(axis=2) & (ua != n_units)
    only_b = (ub[:, :, None] != ua[:, None, :]).all(axis=2) & (ub != n_units)
    k = np.maximum(only_a.sum(axis=1), only_b.sum(axis=1))
    width = max(int(k.max(initial=0)), 2)
    sides = [
        np.take_along_axis(np.where(only, u, n_units), np.argsort(~only, axis=1, kind="stable"), 1)
        for u, only in ((ua, only_a), (ub, only_b))
    ]
    return np.column_stack([a, b, k, sides[0][:, :width], sides[1][:, :width]]).astype(np.uint32)


def _ranks(lengths: IntArray) -> NDArray[np.intp]:
    """``0 .. len-1`` for each CSR row, concatenated."""
    starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.arange(int(lengths.sum())) - starts


#: A dive made already: the values it fixed, and the generator it drew from.
Dive = tuple[IntArray, np.random.Generator]


def initial_state(system: SwapSystem, seed: int, dive: Dive | None = None) -> IntArray:
    """Givens kept; each group's free cells get its missing symbols in random order (drawn
    from :func:`~ndoku.solvers.random.generator` of ``seed``).

    Pruned, a dive (:mod:`.fill`) fixes cells first, and the order of the rest is a random
    matching of the cells to the symbols that gives each cell one of its candidates (where the
    matching leaves cells without, the rest at random). ``dive``: that dive, made already
    from ``seed`` (the draws go on from its generator): the same state, without diving again.
    """
    if dive is not None:
        values, rng = dive[0].copy(), dive[1]
    else:
        rng = generator(seed)
        values = (
            system.givens.copy() if system.fill is None else system.fill.dive(system.givens, rng)
        )
    if (values > 0).all():
        return values.astype(np.int32)
    groups = system.groups
    for g in range(len(groups)):
        cells = groups[g]
        free = cells[values[cells] == 0]
        missing = np.setdiff1d(np.arange(1, system.size + 1), values[cells])
        if system.pruned:
            values[free] = _random_matching(free, missing, system.allowed, rng)
        else:
            values[free] = rng.permutation(missing)
    return values.astype(np.int32)


def _random_matching(
    cells: IntArray, missing: IntArray, allowed: NDArray[np.uint64], rng: np.random.Generator
) -> IntArray:
    """``missing`` spread over ``cells``, each to a cell allowing it as far as a maximum
    matching manages (augmenting paths, cells and symbols tried in random order)."""
    options = [
        [s for s in rng.permutation(missing).tolist() if int(allowed[c]) >> s & 1] for c in cells
    ]
    holder: dict[int, int] = {}  # symbol → position in cells

    def augment(i: int, seen: set[int]) -> bool:
        for s in options[i]:
            if s not in seen:
                seen.add(s)
                if s not in holder or augment(holder[s], seen):
                    holder[s] = i
                    return True
        return False

    for i in rng.permutation(len(cells)).tolist():
        augment(i, set())
    filled = np.zeros(len(cells), dtype=np.int32)
    filled[list(holder.values())] = list(holder)
    left = [s for s in missing.tolist() if s not in holder]
    filled[filled == 0] = rng.permutation(np.array(left, dtype=np.int32))
    return filled


def places(system: SwapSystem, values: IntArray) -> IntArray:
    """``place[g, s]``: the free cell of group ``g`` that holds symbol ``s`` (−1: none).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> system = box_swap_system(p)
    >>> places(system, initial_state(system, 0))[0].tolist()  # the top-left box lacks 2, 3, 4
    [-1, -1, 4, 5, 1]
    """
    place = np.full((len(system.groups), system.size + 1), -1, dtype=np.int32)
    place[system.guide[system.free, GUIDE_GROUP], values[system.free]] = system.free
    return place


def unit_counts(
    system: SwapSystem, values: IntArray
) -> tuple[NDArray[np.int32], NDArray[np.uint64], int]:
    """Symbol counts and seen/repeated masks per energy unit (plus the dummy), and the energy.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1\\n")
    >>> system = box_swap_system(p)
    >>> unit_counts(system, p.givens)[2], unit_counts(system, p.givens[::-1].copy())[2]
    (0, 0)
    >>> unit_counts(system, np.full(16, 1, dtype=np.int32))[2]  # 8 units, 3 short each
    24
    """
    n_units = system.n_units
    counts = np.zeros((n_units + 1, system.size + 1), dtype=np.int32)
    unit_of = np.repeat(np.arange(n_units), np.diff(system.unit_ptr))
    np.add.at(counts, (unit_of, values[system.unit_cells]), 1)
    bits = np.left_shift(np.uint64(1), np.arange(system.size + 1, dtype=np.uint64))
    masks = np.zeros((n_units + 1, 2), dtype=np.uint64)
    masks[:, SEEN] = np.bitwise_or.reduce(np.where(counts >= 1, bits, np.uint64(0)), axis=1)
    masks[:, REPEATED] = np.bitwise_or.reduce(np.where(counts >= 2, bits, np.uint64(0)), axis=1)
    lengths = np.diff(system.unit_ptr)
    energy = int((lengths - (counts[:n_units, 1:] > 0).sum(axis=1)).sum())
    energy += system.penalty * outside(system, values) + rule_energy(system.rules, values)
    return counts, masks, energy


def outside(system: SwapSystem, values: IntArray) -> int:
    """Free cells whose symbol is not one of their candidates (0 unpruned).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 0 0\\n0 0 0 0\\n0 0 0 2\\n")
    >>> givens, candidates = pruned(p)
    >>> system = box_swap_system(p, givens, candidates)
    >>> values = initial_state(system, 0)
    >>> outside(system, values), outside(system, values[::-1].copy())
    (0, 4)
    """
    free = system.free
    held = values[free].astype(np.uint64)
    return int((((system.allowed[free] >> held) & _ONE) == 0).sum())
