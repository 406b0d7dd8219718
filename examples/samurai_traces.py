"""Energy traces of five seeds on one Samurai: box swaps at the default temperature.

    python examples/samurai_traces.py        # writes examples/figures/samurai_traces.png

Needs the plot extra (matplotlib: ``pip install -e '.[plot]'`` in ndoku's clone).

The same figure from the command line:
    ndoku solve examples/samurai.txt --method metropolis --runs 5 --plot energy.png
"""

from __future__ import annotations

from pathlib import Path

from _extras import run_script

from ndoku.model.puzzle import read_puzzles
from ndoku.solvers.chains.metropolis import metropolis
from ndoku.tasks.plot import LabelledTrace, plot_traces, pyplot

HERE = Path(__file__).parent


def main() -> None:
    pyplot()  # matplotlib before the runs: without it, stop at once
    [puzzle] = read_puzzles(HERE / "samurai.txt")
    traces = []
    for seed in range(5):
        chain = metropolis(puzzle, seed=seed, trace_every=500, timeout=60)
        print(
            f"seed {seed}: {chain.stop} after {chain.proposals:,} proposals, {chain.seconds:.3f} s"
        )
        traces.append(LabelledTrace("samurai.txt", seed, chain.trace))
    title = f"Samurai, box swaps at T = {chain.temperature:g}: five seeds"
    plot_traces(traces, HERE / "figures" / "samurai_traces.png", title)


if __name__ == "__main__":
    run_script(main)
