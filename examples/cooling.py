"""Does cooling help? Success rate against T0 and against alpha for exponential cooling.

The row-swap annealer of the short paper (rows kept as permutations, two free cells of a row
swap, T_k = T0·alpha^k) solved most of 100 Kaggle puzzles with T0 near 1, and found that
alpha = 1 (no cooling) did as well as any. Its energy counts |multiplicity − 1| per symbol,
twice ndoku's N − distinct, so its T0 = 1 is ndoku's 0.5. Here: 50 Kaggle and 50 Project
Euler puzzles, one run each, k counted in sweeps (one sweep = as many proposals as free
cells), each run capped at MAX_PROPOSALS.

    python examples/cooling.py               # writes examples/figures/cooling_{t0,alpha}.png

Needs the plot extra (matplotlib: ``pip install -e '.[plot]'`` in ndoku's clone).
"""

from __future__ import annotations

from pathlib import Path

from _extras import run_script

from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.plot import plot_scan, pyplot
from ndoku.tasks.solve import Options
from ndoku.tasks.tune import scan, settings_of, summarize, table
from ndoku.text.numbers import parse_numbers

HERE = Path(__file__).parent
MAX_PROPOSALS = 2_000_000
T0S = parse_numbers("0.1:1.5:0.1")
ALPHA = 0.999
ALPHAS = [0.9, 0.99, 0.999, 0.9999, 0.99999]
T0 = 0.5


def main() -> None:
    pyplot()  # matplotlib before the scans: without it, stop at once
    data = HERE / "data"
    puzzles = read_puzzles(data / "kaggle50.txt") + read_puzzles(data / "euler50.txt")
    base = Options(moves="row", max_proposals=MAX_PROPOSALS, timeout=10.0)
    figures = HERE / "figures"
    t0_scan = summarize(scan(puzzles, settings_of(T0S, [ALPHA]), 1, base=base))
    print(table(t0_scan), end="\n\n")
    label = f"T0 (row moves, exponential cooling with alpha = {ALPHA}, {len(puzzles)} puzzles)"
    plot_scan(t0_scan, T0S, label, None, figures / "cooling_t0.png")
    # alpha = 1 is no cooling at all: the constant chain at T0, the baseline of the figure
    alpha_scan = summarize(scan(puzzles, settings_of([T0], [*ALPHAS, 1.0]), 1, base=base))
    print(table(alpha_scan))
    *cooling, constant = alpha_scan
    label = f"alpha (row moves, exponential cooling from T0 = {T0}, {len(puzzles)} puzzles)"
    title = f"no cooling (alpha = 1): {constant.solved} of {constant.runs} solved"
    plot_scan(
        cooling, ALPHAS, label, None, figures / "cooling_alpha.png", xscale="logit", title=title
    )


if __name__ == "__main__":
    run_script(main)
