"""Does cooling help? Success rate against T0 and against alpha for exponential cooling.

The row-swap annealer of the short paper (rows kept as permutations, two free cells of a row
swap, T_k = T0·alpha^k) solved most of 100 Kaggle puzzles with T0 near 1, and found that
alpha = 1 (no cooling) did as well as any. Its energy counts |multiplicity − 1| per symbol,
twice ndoku's N − distinct, so its T0 = 1 is ndoku's 0.5. Here: 50 Kaggle and 50 Project
Euler puzzles, one run each, k counted in sweeps (one sweep = as many proposals as free
cells), each run capped at MAX_PROPOSALS.

    python examples/cooling.py               # writes examples/figures/cooling_{t0,alpha}.png
"""

from __future__ import annotations

from pathlib import Path

from ndoku.plot import plot_sweep
from ndoku.puzzle import read_puzzles
from ndoku.solve import Options
from ndoku.tune import parse_grid, settings_of, summarize, sweep, table

HERE = Path(__file__).parent
MAX_PROPOSALS = 2_000_000
T0S = parse_grid("0.1:1.5:0.1")
ALPHA = 0.999
ALPHAS = [0.9, 0.95, 0.99, 0.995, 0.999, 0.9995, 0.9999, 1.0]
T0 = 0.5


def main() -> None:
    data = HERE / "data"
    puzzles = read_puzzles(data / "kaggle50.txt") + read_puzzles(data / "euler50.txt")
    base = Options(moves="row", max_proposals=MAX_PROPOSALS, timeout=10.0)
    figures = HERE / "figures"
    for name, settings, xs in (
        ("t0", settings_of(T0S, [ALPHA]), T0S),
        ("alpha", settings_of([T0], ALPHAS), ALPHAS),
    ):
        summaries = summarize(sweep(puzzles, settings, 1, base=base))
        print(f"{table(summaries)}\n")
        what = f"alpha = {ALPHA}" if name == "t0" else f"T0 = {T0}"
        label = f"{name} (row moves, exponential cooling, {what}, {len(puzzles)} puzzles)"
        plot_sweep(summaries, xs, label, None, figures / f"cooling_{name}.png")


if __name__ == "__main__":
    main()
