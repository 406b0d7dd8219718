"""Generator goals: time to make one puzzle, and the rating's order on the calibration sets.

What is measured
----------------
- :func:`ndoku.tasks.generate.generate` with default options (a random solution, then every given
  that can go removed, no symmetry), kernels loaded beforehand: the median over several
  seeds of the whole call, including the rating, the final read-back, proof and verification.
- The rating (path and exact search, no chains) of the first ``SAMPLE`` puzzles of the 9×9
  calibration sets (``TIERS``): the median scores must rise from tier to tier; the detail
  gives each set's median.

``python -m benchmarks.bench_generate`` prints the calibration table of the README instead:
levels per set (first ``SAMPLE`` puzzles), median score and guesses, and the chain opinion on
the first ``CHAIN_SAMPLE`` puzzles of each set.
"""

from __future__ import annotations

import statistics
import sys
import time
from itertools import pairwise

from benchmarks._common import Goal, benchmark_data, median
from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.rate import LEVELS, Rating, rate

#: (layout, seeds, target seconds). The 25×25 guards the removal checks' speed: with the
#: exact search's 25×25 probes they took 31-55 s a puzzle unnoticed, 5 s without.
GOALS = (
    ("9x9", 21, 0.05),
    ("samurai", 11, 1.0),
    ("16x16", 11, 2.0),
    ("sumo", 7, 5.0),
    ("25x25", 3, 10.0),
)
#: Calibration sets, from the easiest to the hardest by their sources' own account, in tiers:
#: top95 is harder than the diabolical set for a search, not for a person (their median
#: Sukaku Explainer ratings are alike), so they share one.
TIERS = (
    ("kaggle_bryanpark_first69",),
    ("norvig_easy50",),
    ("sudoku_exchange_diabolical_sample5k", "norvig_top95"),
    ("forum_hardest_1106",),
)
ORDER = tuple(name for tier in TIERS for name in tier)
#: Shown in the table too.
OTHERS = (
    "norvig_hardest11",
    "royle17_sample10k",
    "norvig_sudoku10k",
    "forum_hardest_1905_11plus_sample2k",
)
#: Puzzles rated per set (the first ones): a path takes 10 ms to a second.
SAMPLE = 500
CHAIN_SAMPLE = 20
CHAINS = 3


def time_goal(layout: str, seeds: int, target: float) -> Goal:
    empty = layout_puzzle(layout)
    generate(empty, seed=seeds)  # kernels loaded or compiled before timing
    times: list[float] = []
    givens: list[int] = []
    levels: list[str] = []
    for seed in range(seeds):
        start = time.perf_counter()
        made = generate(empty, seed=seed)
        times.append(time.perf_counter() - start)
        givens.append(made.givens)
        levels.append(str(made.rating.level))
    counts = ", ".join(f"{levels.count(level)} {level}" for level in LEVELS if level in levels)
    detail = (
        f"{seeds} seeds, max {max(times):.3f} s; givens median {median(givens):g} "
        f"({min(givens)}..{max(givens)}); {counts}"
    )
    return Goal(
        f"generate {layout} (minimal, unique): median", median(times), target, "s", detail=detail
    )


def ratings(name: str, chains: int = 0, limit: int = SAMPLE) -> list[Rating]:
    puzzles = read_puzzles(benchmark_data(f"sudoku9/{name}.txt"))[:limit]
    return [rate(p, chains=chains) for p in puzzles]


def order_goal() -> Goal:
    medians = {
        name: median([r.score for r in ratings(name) if r.score is not None]) for name in ORDER
    }
    wrong = sum(
        max(medians[name] for name in low) >= min(medians[name] for name in high)
        for low, high in pairwise(TIERS)
    )
    detail = "median scores: " + ", ".join(f"{name} {m:.1f}" for name, m in medians.items())
    return Goal("calibration tiers out of order (median score)", wrong, 0, "", detail=detail)


def main() -> list[Goal]:
    return [*(time_goal(*goal) for goal in GOALS), order_goal()]


def table() -> str:
    """The calibration table (markdown), as in the README."""
    rows = [
        f"| set | rated | {' | '.join(LEVELS)} | median score | median guesses "
        f"| chain proposals (median of {CHAIN_SAMPLE}) |",
        "|---|---|" + "---|" * len(LEVELS) + "---|---|---|",
    ]
    for name in (*ORDER, *OTHERS):
        rated = ratings(name)
        levels = [r.level for r in rated]
        shares = [f"{100 * levels.count(level) / len(rated):.0f}%" for level in LEVELS]
        scores = [r.score for r in rated if r.score is not None]
        chained = ratings(name, CHAINS, CHAIN_SAMPLE)
        proposals = [r.proposals for r in chained if r.proposals is not None]
        bound = "≥" if sum(r.at_least for r in chained) * 2 > len(chained) else ""
        rows.append(
            f"| {name} | {len(rated)} | {' | '.join(shares)} | {statistics.median(scores):.1f} "
            f"| {statistics.median(r.guesses for r in rated):g} "
            f"| {bound}{statistics.median(proposals):.2g} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(table())
    sys.exit(0)
