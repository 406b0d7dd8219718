"""Logic engine on variant rules (issue 38): janko's killer, consecutive, even-odd, outside-sum
and skyscraper sets explained step by step, how many without a guess, how fast, and every
step checked against the published solution.

What is measured
----------------
- Each puzzle: one :func:`~ndoku.tasks.explain.explain` call (the exact search's proof of
  uniqueness, then the path, which guesses the proved solution's value where no technique
  applies), the best of :data:`RUNS`, after one explained puzzle has loaded the kernels
  (the first run of a technique in a process loads it from numba's cache).
- Goals from the issue: at least :data:`SHARE` % of the killer 9×9 and of the consecutive
  puzzles explained without a guess (per kind); a killer 9×9's explanation in a median of
  :data:`MEDIAN_MS` ms and at worst :data:`WORST_MS` ms; no step of any path, over every
  set, removes a value of the published solution or places another (sound).
"""

from __future__ import annotations

import time

from benchmarks._common import Goal, median
from benchmarks.bench_variants import Published, variant_set
from ndoku.tasks.explain import explain

RUNS = 2  # best of, per puzzle
SHARE = 95.0  # % explained without a guess, at least (killer 9×9, consecutive)
MEDIAN_MS = 50.0
WORST_MS = 1000.0
#: Each set: its name, the files of ``tests/data/variants`` it holds, and whether its share
#: without a guess is a goal (else it is shown in the detail of the set's soundness).
SETS = (
    ("killer 9×9", ("killer_9x9",), True),
    ("consecutive 5×5-9×9", tuple(f"consecutive_{n}x{n}" for n in range(5, 10)), True),
    ("killer 6×6", ("killer_6x6",), False),
    ("killer 4×4", ("killer_4x4",), False),
    ("even-odd 9×9", ("evenodd",), False),
    ("outside sums 9×9", ("margin",), False),
    ("skyscraper 9×9", ("skyscraper",), False),
)


def explained(entries: list[Published]) -> tuple[list[float], int, list[str]]:
    """Seconds of each explanation (best of :data:`RUNS`), the paths without a guess, and
    the puzzles whose path broke the published solution (a step, or where it ends)."""
    seconds, clean, wrong = [], 0, []
    for entry in entries:
        best = float("inf")
        for _ in range(RUNS):
            start = time.perf_counter()
            path = explain(entry.puzzle).path
            best = min(best, time.perf_counter() - start)
        seconds.append(best)
        clean += not any(step.technique == "guess" for step in path.steps)
        solution = entry.solution
        kept = all(
            all(solution[c] == v for c, v in step.placements)
            and all(solution[c] != v for c, v in step.eliminations)
            for step in path.steps
        )
        if not kept or not path.solved or path.values.tolist() != solution:
            wrong.append(entry.source)
    return seconds, clean, wrong


def main() -> list[Goal]:
    explain(variant_set("killer_9x9")[0][0].puzzle)  # kernels loaded before timing
    goals = []
    for label, names, aimed in SETS:
        entries = [entry for name in names for entry in variant_set(name)[0]]
        seconds, clean, wrong = explained(entries)
        share = 100 * clean / len(entries)
        ms = [1000 * s for s in seconds]
        detail = (
            f"{len(entries)} puzzles, {clean} ({share:.1f} %) without a guess; explain median "
            f"{median(ms):.1f} ms, worst {max(ms):.0f} ms"
        )
        if aimed:
            name = f"{label}: explained without a guess"
            goals.append(Goal(name, share, SHARE, "%", True, detail))
        if label == "killer 9×9":
            goals.append(Goal(f"{label}: explain median", median(ms), MEDIAN_MS, "ms"))
            goals.append(Goal(f"{label}: explain worst", max(ms), WORST_MS, "ms"))
        name = f"{label}: paths breaking the published solution"
        goals.append(Goal(name, len(wrong), 0, "", detail=", ".join(wrong[:3]) or detail))
    return goals
