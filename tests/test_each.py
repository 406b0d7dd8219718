"""Many puzzles with rules of their own in one kernel call
(:func:`ndoku.solvers.exact.each.solve_each`), held to one :func:`solve_exact` per puzzle."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchmarks.bench_variants import variant_set
from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.exact import ExactResult, solve_batch, solve_exact
from ndoku.solvers.exact import solver as solver_module
from ndoku.solvers.exact.each import Kept, solve_each
from ndoku.solvers.tables import Topology

VARIANTS = Path(__file__).parent / "data" / "variants"
NAMES = sorted(
    p.name.removesuffix(".txt")
    for p in VARIANTS.glob("*.txt")
    if not p.name.endswith(".solutions.txt")
)
GRID = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 {}\n\n{}\n\n"


def _same(got: ExactResult, want: ExactResult, what: str) -> None:
    """The same answer, count, status and search (the search is deterministic)."""
    assert (got.status, got.count, got.stop) == (want.status, want.count, want.stop), what
    assert (got.nodes, got.guesses, got.propagated) == (want.nodes, want.guesses, want.propagated)
    if want.values is None:
        assert got.values is None, what
    else:
        assert got.values is not None and got.values.tolist() == want.values.tolist(), what


def _by_layout(puzzles: list[Puzzle]) -> list[list[Puzzle]]:
    groups: dict[object, list[Puzzle]] = {}
    for puzzle in puzzles:
        groups.setdefault(puzzle.frame.key, []).append(puzzle)
    return list(groups.values())


@pytest.mark.parametrize("name", [name for name in NAMES if not name.startswith("clueless")])
def test_each_puzzle_as_its_own_call_would(name: str) -> None:
    """Over a whole published set, every puzzle's result is the one its own call gives (the
    clueless sets' rules are units: their puzzles have no constraints)."""
    puzzles = [entry.puzzle for entry in variant_set(name)[0]]
    for group in _by_layout(puzzles):
        batch = solve_each(group)
        for k, puzzle in enumerate(group):
            _same(batch.result(k), solve_exact(puzzle), f"{name} puzzle {k + 1}")


def test_none_multiple_and_limits_each_their_own() -> None:
    """Puzzles with no solution, with several and with one, side by side; and the limits."""
    text = (
        GRID.format(2, "thermo: r4c1 r4c2")  # the givens break it: none
        + GRID.format(0, "thermo: r4c2 r4c1")  # two solutions
        + GRID.format(2, "thermo: r4c2 r4c1")  # one
        + GRID.format(0, "cage 3: r4c1 r4c2")
    )
    puzzles = read_puzzles(text=text)
    for options in ({}, {"limit": 1}, {"max_nodes": 1}, {"limit": 5}):
        batch = solve_each(puzzles, **options)  # type: ignore[arg-type]
        for k, puzzle in enumerate(puzzles):
            _same(batch.result(k), solve_exact(puzzle, **options), f"{options} {k + 1}")  # type: ignore[arg-type]
    assert solve_each(puzzles).statuses.tolist() == ["none", "multiple", "solved", "solved"]


def _open_killers() -> list[Puzzle]:
    """9×9 grids with one cage and no givens: searches that run long when counted far."""
    grid = "\n".join(["0 0 0 0 0 0 0 0 0"] * 9)
    return read_puzzles(text="".join(f"{grid}\n\ncage {s}: r1c1 r1c2\n\n" for s in (3, 17, 10)))


def test_a_paused_puzzle_resumes_with_its_own_rules() -> None:
    """Searches longer than a pause (5 ms) resume where they were, under their own rules."""
    puzzles = _open_killers()
    batch = solve_each(puzzles, limit=20_000, max_nodes=10**7)
    assert batch.seconds.max() > solver_module.PAUSE_SECONDS
    for k, puzzle in enumerate(puzzles):
        _same(batch.result(k), solve_exact(puzzle, limit=20_000, max_nodes=10**7), f"{k + 1}")


def test_a_timeout_stops_its_puzzle_alone() -> None:
    puzzles = _open_killers()
    small = read_puzzles(text=GRID.format(2, "thermo: r4c2 r4c1"))
    # another layout: searched apart by solve_batch, in input order
    results = solve_batch([puzzles[0], *small, puzzles[1]], limit=10**9, timeout=0.02)
    assert [r.stop for r in results] == ["timeout", "complete", "timeout"]
    assert results[1].status == "solved"


def test_the_stack_grows_in_the_middle_of_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search deeper than the first stack grows it and goes on with its own rules."""
    puzzles = _open_killers()
    Topology.layout(puzzles[0].frame).spare.clear()
    monkeypatch.setattr(solver_module, "FIRST_DEPTH", 3)
    batch = solve_each(puzzles, limit=50)
    assert not Topology.layout(puzzles[0].frame).spare  # grown: not kept for reuse
    for k, puzzle in enumerate(puzzles):
        _same(batch.result(k), solve_exact(puzzle, limit=50), f"{k + 1}")


def test_the_kept_arrays_serve_batches_of_fewer_and_of_more_rules() -> None:
    """The arrays a layout's workspace keeps between batches (:class:`Kept`) grow for a
    puzzle with more constraints or cells than they hold, and longer ones serve shorter
    puzzles; every answer is still its own call's."""
    short = GRID.format(2, "thermo: r4c2 r4c1")
    long = GRID.format(0, "cage 3: r4c1 r4c2\ncage 7: r3c1 r3c2 r3c3\nthermo: r1c2 r1c3 r1c4")
    [few, more] = read_puzzles(text=short + long)
    spare = Topology.layout(few.frame).spare
    spare.clear()
    held = []
    for batch in ([few], [more], [few, few], [more, few]):
        results = solve_each(batch)
        for k, puzzle in enumerate(batch):
            _same(results.result(k), solve_exact(puzzle), f"{len(held)} {k + 1}")
        [work] = spare
        assert isinstance(work.each, Kept)
        held.append((work.each.longest, work.each.most_cells))
    assert held == [(1, 2), (4, 9), (4, 9), (4, 9)]  # the thermometer: two pairs


def test_a_batch_of_mixed_puzzles_comes_back_in_order() -> None:
    """Plain puzzles, puzzles with rules on two layouts and a pencil-marked one."""
    four = read_puzzles(
        text=GRID.format(2, "thermo: r4c2 r4c1")
        + GRID.format(2, "")
        + GRID.format(0, "cage 3: r4c1 r4c2")
    )
    six = variant_set("killer_6x6")[0][0].puzzle
    rows = "1 1234 1234 1234\n1234 1234 3 1234\n1234 4 1234 1234\n1234 1234 1234 2\n"
    marked = read_puzzles(text=rows + "\nthermo: r4c2 r4c1\n")
    assert marked[0].candidates is not None
    puzzles = [four[0], six, four[1], marked[0], four[2], six]
    results = solve_batch(puzzles)
    for k, puzzle in enumerate(puzzles):
        _same(results[k], solve_exact(puzzle), f"puzzle {k + 1}")


def test_what_it_refuses() -> None:
    four = read_puzzles(text=GRID.format(2, "thermo: r4c2 r4c1") + GRID.format(2, ""))
    six = variant_set("killer_6x6")[0][0].puzzle
    with pytest.raises(NdokuError, match="no puzzles"):
        solve_each([])
    with pytest.raises(NdokuError, match="puzzle 2 is not of the first puzzle's layout"):
        solve_each([four[0], six])
    with pytest.raises(NdokuError, match="puzzle 2 has pencil marks or no constraints"):
        solve_each(four)
    assert np.array_equal(four[1].lowered.packed.ptr, [0])


def test_with_threads_a_long_search_is_split_from_the_start() -> None:
    """With threads, what one call leaves unfinished after a pause is searched again over
    the threads: the same counts as one search each, its time counted twice over."""
    puzzles = _open_killers()
    small = read_puzzles(text=GRID.format(2, "thermo: r4c2 r4c1") * 2)
    said: list[int] = []
    results = solve_batch(
        [*small, *puzzles], limit=20_000, max_nodes=10**7, threads=2, progress=said.append
    )
    assert said == sorted(said) and said[-1] == len(results)  # never back
    for result, puzzle in zip(results, [*small, *puzzles], strict=True):
        alone = solve_exact(puzzle, limit=20_000, max_nodes=10**7)
        assert (result.status, result.count, result.stop) == (alone.status, alone.count, alone.stop)
        assert result.values is not None and alone.values is not None
        assert result.values.tolist() == alone.values.tolist()  # the same first solution
    assert results[2].seconds > solver_module.PAUSE_SECONDS
