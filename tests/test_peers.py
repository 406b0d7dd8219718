"""Peer graph invariants: closed forms over n, networkx's sudoku graph, multi-grid degrees."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from ndoku.model.layout import available_layouts
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.units import BOX, COLUMN, ROW, Units, peers_of

from helpers import blank_grid


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_single_grid_closed_forms(n: int) -> None:
    [puzzle] = read_puzzles(text=blank_grid(n * n))
    size = n * n
    graph = puzzle.graph
    assert puzzle.n_cells == size**2
    assert len(puzzle.units) == 3 * size
    assert np.bincount(puzzle.units.kind).tolist() == [size, size, size]
    assert {d for _, d in graph.degree} == {(n - 1) * (3 * n + 1)}
    assert graph.number_of_edges() == size**2 * (n - 1) * (3 * n + 1) // 2
    ptr, peers = puzzle.peers
    assert np.array_equal(np.diff(ptr), [d for _, d in sorted(graph.degree)])
    assert all(len(set(peers[ptr[c] : ptr[c + 1]])) == ptr[c + 1] - ptr[c] for c in range(9))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_classic_graph_equals_networkx_sudoku_graph(n: int) -> None:
    [puzzle] = read_puzzles(text=blank_grid(n * n))
    reference = nx.sudoku_graph(n)
    assert nx.utils.graphs_equal(nx.Graph(puzzle.graph.edges), nx.Graph(reference.edges))
    assert nx.is_isomorphic(puzzle.graph, reference)


def test_samurai_degrees() -> None:
    [puzzle] = read_puzzles("layouts/samurai.txt")
    degrees = np.array([d for _, d in sorted(puzzle.graph.degree)])
    # A cell of a shared corner box sees two whole grids: 20 + 20 − 8 box peers counted twice.
    shared = np.bincount(puzzle.units.cells[np.repeat(puzzle.units.kind, 9) == BOX]) > 0
    in_two_grids = np.zeros(puzzle.n_cells, dtype=bool)
    for r0, c0 in [(6, 6), (6, 12), (12, 6), (12, 12)]:
        in_two_grids[puzzle.index[r0 : r0 + 3, c0 : c0 + 3].ravel()] = True
    assert shared.all()
    assert set(degrees[in_two_grids]) == {32}
    assert set(degrees[~in_two_grids]) == {20}


def test_cell_units_and_node_attributes() -> None:
    [puzzle] = read_puzzles("layouts/samurai.txt")
    ptr, units = puzzle.cell_units
    per_cell = np.diff(ptr)
    assert set(per_cell) == {3, 5}  # row, column, box; shared boxes add a row and a column
    cell = int(puzzle.index[7, 7])
    kinds = sorted(int(puzzle.units.kind[u]) for u in units[ptr[cell] : ptr[cell + 1]])
    assert kinds == [ROW, ROW, COLUMN, COLUMN, BOX]
    assert puzzle.graph.nodes[cell] == {"row": 7, "col": 7}


def test_jigsaw_region_equal_to_a_row_stays_a_box() -> None:
    # Found by the hypothesis jigsaw test: region "a" is row 3, and Metropolis never moved it.
    text = "4 1 0 3\n0 3 0 0\n0 0 0 0\n0 2 0 1\n\nc d c c\nd b b b\na a a a\nd b d c\n"
    [puzzle] = read_puzzles(text=text)
    units = puzzle.units
    [row3] = [u for u in range(len(units)) if units[u].tolist() == [8, 9, 10, 11]]
    assert units.kind[row3] == BOX
    assert np.bincount(units.select(units.kind == BOX).cells).tolist() == [1] * 16


def _networkx_peers(puzzle: Puzzle) -> list[list[int]]:
    """Each cell's peers, from the networkx graph: the slow, obviously correct reference."""
    graph = puzzle.graph
    return [sorted(graph.adj[cell]) for cell in range(puzzle.n_cells)]


@pytest.mark.parametrize("name", sorted(available_layouts()))
def test_peers_straight_from_units_equal_the_graph(name: str) -> None:
    [puzzle] = read_puzzles(available_layouts()[name], layout=name)
    ptr, peers = puzzle.peers
    assert ptr.dtype == peers.dtype == np.int32
    found = [peers[ptr[c] : ptr[c + 1]].tolist() for c in range(puzzle.n_cells)]
    assert found == _networkx_peers(puzzle)


def test_peers_of_a_cell_alone_in_its_units_are_none() -> None:
    units = Units(np.array([0, 2, 3], dtype=np.int32), np.array([0, 1, 2], dtype=np.int32),
                  np.array([ROW, ROW], dtype=np.int8))  # fmt: skip
    ptr, peers = peers_of(units, 4)  # cell 2 is alone in its unit, cell 3 in none
    assert ptr.tolist() == [0, 1, 2, 2, 2]
    assert peers.tolist() == [1, 0]


def test_puzzles_of_one_layout_share_a_frame_and_its_key() -> None:
    first, second = read_puzzles(text="1" + "0" * 15 + "\n" + "0" * 15 + "2\n")
    assert first.frame is second.frame
    [again] = read_puzzles(text="1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n")
    # another read of the layout: its frame is the one kept (tests/test_kept.py), one key
    assert again.frame is first.frame and again.frame.key == first.frame.key
    [jigsaw] = read_puzzles(available_layouts()["jigsaw9"], layout="jigsaw9")
    [classic] = read_puzzles(available_layouts()["9x9"], layout="9x9")
    assert jigsaw.frame.key != classic.frame.key
