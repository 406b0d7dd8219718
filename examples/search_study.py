"""The search study of the student paper, on real puzzles: nodes searched by strategy and
difficulty level, sizes 2 to 5 (4×4, 9×9, 16×16, 25×25).

The paper ran plain backtracking (BTS), backtracking with constraint propagation (BTS+CP)
and with minimum remaining values too (BTS+CP+MRV), and random-restart hill climbing, on
9×9 puzzles of levels 1, 4 and 8 of a series of puzzle books (mean nodes: BTS 4 866, 20 257
and 19 963; BTS+CP 3, 192 and 89; BTS+CP+MRV 2, 137 and 71; hill climbing 5 580 and 2.4
million, and no level-8 puzzle solved). On one 16×16 BTS+CP took 133 797 nodes and
BTS+CP+MRV 93 094, hill climbing solved no 16×16, and no method solved a 25×25. Here every
propagation (none, forward checking, singles, ndoku's full) meets both branchings (first
free cell, mrv), beside ndoku's own solver (full with mrv) and hill climbing, on the puzzle
sets in ``tests/data`` (sources in ``tests/data/SOURCES.md``).

Every search stops at its first solution, as the paper counted the nodes needed to find the
solution, or at NODE_CAP nodes (25×25: BIG_NODE_CAP); hill climbing at HILL_CAP proposals,
its nodes being the proposals (states tried). A cell shows the median over the level's
puzzles, a run that hit its cap counting as the cap (``≥`` when that decides the median),
and how many were solved when not all. The last column is ndoku's default run, uniqueness
proved: its median (and longest) time per puzzle. Each answer is verified.

    python examples/search_study.py    # examples/figures/search_study.{md,png}, about a minute

Needs the plot extra (matplotlib: ``pip install -e '.[plot]'`` in ndoku's clone).
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from _extras import run_script

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.solvers.chains import ChainResult
from ndoku.solvers.exact import ExactResult
from ndoku.tasks.plot import pyplot
from ndoku.tasks.solve import Options, solve

HERE = Path(__file__).parent
DATA = HERE.parent / "tests" / "data"
FIGURES = HERE / "figures"
NODE_CAP = 1_000_000
BIG_NODE_CAP = 100_000  # 25×25: a node there costs up to 25 µs with full propagation
HILL_CAP = 10_000_000
PER_LEVEL = 20
#: Size, level, file (one puzzle per line: ``puzzle``, ``puzzle,solution``, ``puzzle rating``
#: or ``id puzzle,solution status``), easiest first.
LEVELS = [
    (2, "published", "sudoku4/wild_4x4.txt"),
    (3, "Kaggle (trivial)", "sudoku9/kaggle_bryanpark_first69.txt"),
    (3, "Project Euler (easy)", "sudoku9/norvig_easy50.txt"),
    (3, "QQWing diabolical", "sudoku9/sudoku_exchange_diabolical_first100.txt"),
    (3, "top95 (hard)", "sudoku9/norvig_top95.txt"),
    (3, "forum hardest", "sudoku9/forum_hardest_1106_first40.txt"),
    (4, "Goomii", "sudoku16/goomii_16x16_first40.txt"),
    (5, "published", "sudoku25/wild_25x25.txt"),
    (5, "minimal (Gecode)", "sudoku25/gecode_25x25_shared6.txt"),
]
#: Columns: (label, method, propagation, branching); the paper's names in the labels. (Hill
#: climbing takes no propagation: ndoku's own stands in.)
STRATEGIES = [
    ("none·first (BTS)", "exact", "none", "first"),
    ("none·mrv", "exact", "none", "mrv"),
    ("forward·first", "exact", "forward", "first"),
    ("forward·mrv", "exact", "forward", "mrv"),
    ("singles·first (BTS+CP)", "exact", "singles", "first"),
    ("singles·mrv (BTS+CP+MRV)", "exact", "singles", "mrv"),
    ("full·first", "exact", "full", "first"),
    ("ndoku (full·mrv)", "exact", "full", "mrv"),
    ("hill climbing", "hillclimb", "full", "mrv"),
]


@dataclass
class Cell:
    """One strategy on one level: nodes (or proposals) per puzzle, and which were solved."""

    nodes: list[int]
    solved: list[bool]

    def text(self) -> str:
        median = round(statistics.median(self.nodes))
        capped = statistics.median([0 if s else 1 for s in self.solved]) > 0
        shown = ("≥" if capped else "") + spaced(median)
        if not all(self.solved):
            shown += f" ({sum(self.solved)}/{len(self.solved)})"
        return shown


def spaced(number: int) -> str:
    """``1 000 000``: thousands apart, as the tables write them."""
    return f"{number:,}".replace(",", " ")


@dataclass
class Row:
    """One level: its puzzles' size, count and mean givens, a cell per strategy, and the
    seconds of ndoku's default run on each puzzle."""

    size: int
    level: str
    puzzles: int
    givens: float
    cells: list[Cell]
    seconds: list[float]

    def timing(self) -> str:
        """The median and the longest of ``seconds``."""
        return f"{duration(statistics.median(self.seconds))} ({duration(max(self.seconds))})"


def duration(seconds: float) -> str:
    """``12 µs``, ``3.4 ms``, ``1.2 s``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} µs"
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


def puzzles_of(path: Path) -> list[Puzzle]:
    """The first PER_LEVEL unique puzzles of a set (the ``status`` field, when there is one)."""
    texts = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[2] != "unique":
            continue
        texts.append((fields[1] if len(fields) == 3 else fields[0]).split(",")[0])
    return [p for text in texts[:PER_LEVEL] for p in read_puzzles(text=text)]


def run(puzzle: Puzzle, method: str, propagation: str, branching: str) -> tuple[int, bool]:
    """Nodes (proposals) and whether it was solved within the caps."""
    cap = BIG_NODE_CAP if puzzle.size >= 25 else NODE_CAP
    options = Options(
        limit=1, max_nodes=cap, max_proposals=HILL_CAP, propagation=propagation,
        branching=branching,
    )  # fmt: skip
    outcome = solve(puzzle, method, options)  # verified when answered
    result = outcome.result
    nodes = result.proposals if isinstance(result, ChainResult) else result.nodes
    return nodes, outcome.answered


def main() -> None:
    pyplot()  # matplotlib before the searches: without it, stop at once
    rows = []
    for size, level, name in LEVELS:
        puzzles = puzzles_of(DATA / name)
        cells = []
        for _, method, propagation, branching in STRATEGIES:
            results = [run(p, method, propagation, branching) for p in puzzles]
            cells.append(Cell([n for n, _ in results], [s for _, s in results]))
        assert cells[1] == cells[3]  # none·mrv and forward·mrv search one tree
        seconds = []
        solve(puzzles[0])  # warm: the first call of a layout builds its tables
        for puzzle in puzzles:
            outcome = solve(puzzle)  # ndoku's default: uniqueness proved
            result = outcome.result
            assert outcome.status == "solved" and isinstance(result, ExactResult) and result.unique
            seconds.append(outcome.seconds)
        givens = statistics.mean(int((p.givens > 0).sum()) for p in puzzles)
        rows.append(Row(size, level, len(puzzles), givens, cells, seconds))
        print(f"{size} {level}: {' | '.join(c.text() for c in cells)}", flush=True)
    FIGURES.mkdir(exist_ok=True)
    (FIGURES / "search_study.md").write_text(table(rows))
    print(table(rows))
    plot(rows, FIGURES / "search_study.png")


def table(rows: list[Row]) -> str:
    """The markdown table of the study."""
    head = ["size", "level", "puzzles", "givens", *(s[0] for s in STRATEGIES)]
    head.append("ndoku, unique proved: median (max)")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        n = row.size * row.size
        shown = [f"{row.size} ({n}×{n})", row.level, str(row.puzzles), f"{row.givens:.0f}"]
        shown += [c.text() for c in row.cells] + [row.timing()]
        lines.append("| " + " | ".join(shown) + " |")
    return "\n".join(lines) + "\n"


def plot(rows: list[Row], path: Path) -> None:
    """Median nodes by level, one line per strategy (hollow where most runs hit the cap);
    none·mrv, which searches forward·mrv's very tree, under forward·mrv's line."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(11, 5.5), layout="constrained")
    x = range(len(rows))
    colours = {"none": "C3", "forward": "C1", "singles": "C2", "full": "C0"}
    for k, (label, method, propagation, branching) in enumerate(STRATEGIES):
        if label == "none·mrv":
            continue
        if label == "forward·mrv":
            label = "forward·mrv = none·mrv"
        cells = [row.cells[k] for row in rows]
        ys = [statistics.median(c.nodes) for c in cells]
        capped = [statistics.median([0 if s else 1 for s in c.solved]) > 0 for c in cells]
        colour = "0.4" if method == "hillclimb" else colours[propagation]
        if label.startswith("ndoku"):
            colour = "black"
        style = ":" if method == "hillclimb" else "--" if branching == "first" else "-"
        ax.plot(x, ys, style, color=colour, label=label, lw=1.5)
        for xi, yi, hollow in zip(x, ys, capped, strict=True):
            face = "white" if hollow else colour
            ax.plot([xi], [yi], "o", color=colour, markerfacecolor=face, ms=5)
    ax.set_yscale("log")
    ticks = [f"{r.size * r.size}×{r.size * r.size}\n" + r.level.replace(" (", "\n(") for r in rows]
    ax.set_xticks(list(x), ticks, fontsize=8)
    ax.set_ylabel("median nodes to the first solution\n(hill climbing: proposals)")
    ax.set_xlabel(
        f"caps: {spaced(NODE_CAP)} nodes (25×25: {spaced(BIG_NODE_CAP)}), hill climbing "
        f"{spaced(HILL_CAP)} proposals"
    )
    ax.set_title("Nodes searched, by strategy and level (hollow: most runs hit the cap)")
    ax.grid(alpha=0.3, which="both")
    fig.legend(loc="outside right upper", fontsize="small")
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    start = time.perf_counter()
    run_script(main)
    print(f"{time.perf_counter() - start:.0f} s")
