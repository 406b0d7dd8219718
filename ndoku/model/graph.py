"""The peer graph as a networkx graph, for people: inspection and export (``ndoku graph``).

The solvers never build it; they read peers as CSR arrays (:attr:`ndoku.model.frame.Frame.peers`).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from ndoku.model.units import Units

if TYPE_CHECKING:
    import networkx as nx


def peer_graph(units: Units, cell_rc: NDArray[np.int32]) -> nx.Graph:
    """The peer graph: one node per cell (``row``, ``col`` attributes), an edge per peer pair.

    >>> from ndoku.model.frame import Frame
    >>> from ndoku.model.layout import load_layout
    >>> frame = Frame.of(load_layout("9x9"))
    >>> g = peer_graph(frame.units, frame.cell_rc)
    >>> g.number_of_nodes(), g.number_of_edges(), g.degree[0]
    (81, 810, 20)
    """
    import networkx as nx

    graph = nx.Graph()
    graph.add_nodes_from(
        (cell, {"row": int(r), "col": int(c)}) for cell, (r, c) in enumerate(cell_rc)
    )
    for u in range(len(units)):
        graph.add_edges_from(combinations(units[u].tolist(), 2))
    return graph
