"""Killer generation goals: ``generate --rules killer`` of a 9×9 and of a Samurai.

What is measured
----------------
:func:`ndoku.tasks.generate.generate` with ``rules="killer"`` and default options, seeds
``0 ..``, kernels loaded beforehand: the whole call (the solution, up to ``CAGE_CUTS`` cuts
checked for one that needs no given, the thinning and up to ``REPAIRS`` rounds of cutting
again where none does, more solutions drawn while givens are needed, the rating with its
path, the read-back, proof and verification).
The goals are the variant-generation issue's: a killer 9×9 with no givens within a median
of 2 s, a killer Samurai within 20 s. The detail gives the worst, the share of puzzles left
with no given, the most givens left and the levels of the rating's paths (``search`` where
the path had to guess).
"""

from __future__ import annotations

import time
from collections import Counter

from benchmarks._common import Goal, median
from ndoku.tasks.generate import generate, layout_puzzle

#: (layout, seeds, target median seconds).
GOALS = (("9x9", 21, 2.0), ("samurai", 7, 20.0))


def killer_goal(layout: str, seeds: int, target: float) -> Goal:
    empty = layout_puzzle(layout)
    generate(empty, rules="killer", seed=seeds)  # loads the kernels; not counted
    times, givens, levels = [], [], Counter[str]()
    for seed in range(seeds):
        start = time.perf_counter()
        made = generate(empty, rules="killer", seed=seed)
        times.append(time.perf_counter() - start)
        givens.append(made.givens)
        levels[made.rating.level] += 1
    bare = sum(g == 0 for g in givens)
    detail = (
        f"seeds 0-{seeds - 1}: worst {max(times):.2f} s; no given in {bare} of {seeds}, at "
        f"most {max(givens)} givens; levels {dict(levels.most_common())}"
    )
    return Goal(
        f"generate {layout} --rules killer (median)", median(times), target, "s", detail=detail
    )


def main() -> list[Goal]:
    return [killer_goal(*case) for case in GOALS]
