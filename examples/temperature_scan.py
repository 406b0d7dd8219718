"""Which temperature is best? Mean time to solve against T, for single-site and box moves.

The textbook chain (single-site moves, a clash with a given costs 5) finds its minimum near
T = 0.39 over 50 puzzles; box swaps work well near 0.25-0.3. Here: the 50 Project Euler
puzzles, two runs each per temperature.

    python examples/temperature_scan.py     # writes examples/figures/scan_{single,box}.png

Needs the plot extra (matplotlib: ``pip install -e '.[plot]'`` in ndoku's clone).

The same from the command line:
    ndoku tune examples/data/euler50.txt --moves single --temperatures 0.2:0.6:0.05 --runs 2
"""

from __future__ import annotations

from pathlib import Path

from _extras import run_script

from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.plot import plot_scan, pyplot
from ndoku.tasks.solve import Options
from ndoku.tasks.tune import fit_line, fit_minimum, scan, settings_of, summarize, table
from ndoku.text.numbers import parse_numbers

HERE = Path(__file__).parent
GRID = parse_numbers("0.15:0.6:0.025")
RUNS = 2
#: Runs that hit this many proposals count as unsolved.
MAX_PROPOSALS = 20_000_000


def main() -> None:
    pyplot()  # matplotlib before the scans: without it, stop at once
    puzzles = read_puzzles(HERE / "data" / "euler50.txt")
    for moves in ("single", "box"):
        base = Options(moves=moves, max_proposals=MAX_PROPOSALS, timeout=10.0)
        summaries = summarize(scan(puzzles, settings_of(GRID), RUNS, base=base))
        temperatures = [s.setting.temperature for s in summaries]
        fit = fit_minimum(temperatures, [s.mean_seconds.value for s in summaries])
        print(f"{moves} moves\n{table(summaries)}\n{fit_line(fit, 'T')}\n")
        path = HERE / "figures" / f"scan_{moves}.png"
        plot_scan(
            summaries, temperatures, f"T ({moves} moves, 50 puzzles × {RUNS} runs)", fit, path
        )


if __name__ == "__main__":
    run_script(main)
