"""Frames and sub-grids kept for reuse across reads: shared only by layouts equal in every
field, bounded, and never written by the solvers that read their tables."""

from __future__ import annotations

import dataclasses
import threading
from typing import Any

import numpy as np
import pytest

from ndoku.model.frame import MOST_FRAMES, Frame
from ndoku.model.kept import Kept
from ndoku.model.layout import load_layout
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import build_units, number_cells
from ndoku.solvers.logic.board import Tables
from ndoku.solvers.tables import Topology
from ndoku.tasks.count import count_all
from ndoku.tasks.explain import explain
from ndoku.tasks.solve import Options, solve

from helpers import DATA, REPO, blank_grid, load, puzzle_of


def six(*headers: str) -> Puzzle:
    """A 6×6 with a 6 given (an empty one is four 4×4 grids), with ``headers``."""
    return puzzle_of("".join(f"# {h}\n" for h in headers) + "6" + blank_grid(6)[1:])


def test_equal_layouts_share_a_frame_and_others_do_not() -> None:
    assert six().frame is six().frame
    plain, tall, diagonal = six(), six("box: 3x2"), six("box: 2x3", "extra: diagonals")
    assert plain.layout.box == (2, 3) and plain.layout.box_inferred
    assert tall.layout.box == (3, 2) and tall.frame is not plain.frame
    declared = six("box: 2x3")  # the same boxes, but declared: not "inferred" when shown
    assert declared.frame is not plain.frame and not declared.layout.box_inferred
    assert len(diagonal.units) == len(declared.units) + 2 and diagonal.frame is not declared.frame
    for puzzle in (plain, tall, diagonal):  # each kept frame's units are its own layout's
        built = build_units(puzzle.layout, number_cells(puzzle.layout.mask)[0])
        assert np.array_equal(built.cells, puzzle.units.cells)
        assert np.array_equal(built.kind, puzzle.units.kind)
    named = puzzle_of("# layout: 9x9\n" + blank_grid(9))
    assert named.layout.name == "9x9" and puzzle_of(blank_grid(9)).layout.name is None


def test_rules_that_add_peers_share_their_own_frame() -> None:
    grid = blank_grid(4)
    knights = [puzzle_of(grid + "\nantiknight\n") for _ in range(2)]
    kings = puzzle_of(grid + "\nantiking\n")
    assert knights[0].frame is knights[1].frame
    assert kings.frame is not knights[0].frame
    assert puzzle_of(grid).frame is not knights[0].frame
    assert knights[0].frame.key != kings.frame.key


def test_the_store_is_bounded_in_frames_and_in_cells() -> None:
    def stack(grids: int) -> Frame:  # 4×4 sub-grids one below the other
        corners = " ".join(f"{4 * k},0" for k in range(grids))
        return puzzle_of(f"# subgrids: {corners}\n" + blank_grid(4 * grids, 4)).frame

    first = stack(1)
    assert stack(1) is first
    for grids in range(2, MOST_FRAMES + 2):
        stack(grids)
    assert stack(1) is not first  # the oldest of more than MOST_FRAMES went
    store: Kept[int, str] = Kept(most=5, weight=len, most_weight=6)
    for k in range(4):
        store.get_or_build(k, lambda: "abc")
    assert store.get_or_build(2, lambda: "new") == "abc"  # kept: the two latest weigh 6
    assert store.get_or_build(1, lambda: "new") == "new"
    assert store.get_or_build(0, lambda: "x" * 10) == "x" * 10  # the latest, whatever it weighs


def test_threads_that_build_one_key_at_once_get_one_value() -> None:
    store: Kept[str, object] = Kept(most=2)
    got: list[object] = []
    start = threading.Barrier(8)

    def ask() -> None:
        start.wait()
        got.append(store.get_or_build("key", object))

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len({id(value) for value in got}) == 1


def snapshot(value: Any) -> Any:
    """A deep copy of the arrays of a table (dataclasses, tuples, lists, dicts of them); a
    dataclass's fields that take no part in comparing (work arrays kept for reuse) left out."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = [f for f in dataclasses.fields(value) if f.compare]
        return {f.name: snapshot(getattr(value, f.name)) for f in fields}
    if isinstance(value, tuple | list):
        return [snapshot(v) for v in value]
    if isinstance(value, dict):
        return {k: snapshot(v) for k, v in value.items()}
    return value


def same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def tables(puzzle: Puzzle) -> Any:
    """The arrays of a puzzle's frame and the tables the search and the logic engine keep on
    it (built on first use)."""
    frame = puzzle.frame
    kept = [Topology.of(puzzle), Tables.of(frame)]
    return snapshot([frame.index, frame.cell_rc, frame.units, frame.peers, frame.cell_units, kept])


@pytest.mark.parametrize(
    "path",
    [REPO / "examples" / "samurai.txt", DATA / "janko" / "jigsaw" / "93_9x9.puzzle.txt"],
    ids=["samurai", "jigsaw"],
)
def test_solvers_leave_a_kept_frames_tables_as_built(path: Any) -> None:
    puzzle = load(path)
    before = tables(puzzle)
    # a frame built apart, not kept, has the same: the kept one was built for this layout
    layout = puzzle.layout
    index, cell_rc = number_cells(layout.mask)
    apart = Frame(layout, index, cell_rc, build_units(layout, index))
    assert same(tables(dataclasses.replace(puzzle, frame=apart)), before)
    solve(puzzle)
    count_all([puzzle])
    explain(puzzle, 60.0, None, False)
    solve(puzzle, "metropolis", Options(seed=1, max_proposals=20_000))
    assert same(tables(puzzle), before)
    assert same(tables(load(path)), before)  # and a puzzle read again reads them


def test_a_layout_file_and_the_same_shape_read_keep_apart() -> None:
    loaded = Frame.of(load_layout("samurai"))
    read = load(REPO / "examples" / "samurai.txt").frame
    assert loaded.layout.name == "samurai" and read.layout.name is None
    assert loaded is not read and loaded.key == read.key
