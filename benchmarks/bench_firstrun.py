"""Whole-process time of the first ``ndoku`` command on an empty numba cache: ``solve`` per
size, and ``hint``, ``explain``, ``rate`` and ``generate`` of a 9×9; and of a ``solve`` with the
kernels cached.

Each first run gets a fresh temporary ``NUMBA_CACHE_DIR``, so it compiles what that command
reaches (the exact solver's kernels for its size: numba caches one version per group of sizes,
below 16×16, 16×16 to 24×24, from 25×25 up; the logic engine's techniques as its path first
reaches them). The goals are the issues': 10 s for a 4×4, 9×9, Samurai and 16×16 solve and for
each first ``hint``, ``explain``, ``rate`` and ``generate`` of a 9×9, 20 s for a 25×25, on a
two-core machine; a warm Samurai within 0.7 s. The detail gives the CPU time (user + system)
too, which another process on the machine does not inflate, and the compile notices the
command printed, whose figures should match what was measured. A last goal: a ``generate``
on an empty cache writes the puzzle it writes warm (:data:`SAME_PUZZLE`).
Measured 2026-11-24 on two cores: 4×4, 9×9 and Samurai 4.3 s, 16×16 5.7 s, 25×25 13 s
(31–48 s each before kernels were compiled per size); warm Samurai 0.6 s. On 2026-11-25:
25×25 20.9 s while the search kernel compiled in two versions (with and without pencil
marks, the second for a search split over threads), 15.5 s in one; 4×4 5.0 s, 9×9 3.7 s,
Samurai 4.7 s, 16×16 6.3 s, warm Samurai 0.61 s.
On 2026-11-28, on a two-core machine about 3 times slower: solve 9×9 8.6 s, 4×4 12.5 s,
Samurai 11.9 s, 16×16 14.5 s, 25×25 38 s; hint 2.7 s, explain 2.3 s, rate 9.3 s, generate
9x9 seeds 0-5 8.0, 7.9, 30.0, 12.2, 7.6, 9.4 s (median 8.7 s); warm Samurai 1.6 s.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time

from benchmarks._common import REPO, Goal, median

RUNS = 2  # first runs per size, each in its own empty cache
WARM_RUNS = 5
DATA = REPO / "tests" / "data"


def _first_line(relative: str, field: int) -> str:
    """The puzzle of the first line of a ``tests/data`` file (``field`` of its words, before
    any comma: ``id puzzle,solution status`` or ``puzzle,solution``)."""
    line = (DATA / relative).read_text().splitlines()[0]
    return line.split()[field].split(",")[0] + "\n"


#: A newspaper 9×9 (singles and intersections), for the commands that explain and make.
EASY = _first_line("sudoku9/norvig_easy50.txt", 0)

#: Name, the ``ndoku`` arguments, standard input ('-' reads it), goal in seconds.
CASES = [
    ("solve 4×4", ["solve", "-"], _first_line("sudoku4/wild_4x4.txt", 1), 10.0),
    ("solve 9×9", ["solve", "-"], _first_line("sudoku9/norvig_top95.txt", 0), 10.0),
    ("solve Samurai", ["solve", str(REPO / "examples" / "samurai.txt")], None, 10.0),
    ("solve 16×16", ["solve", "-"], _first_line("sudoku16/goomii_16x16_first40.txt", 0), 10.0),
    ("solve 25×25", ["solve", "-"], _first_line("sudoku25/gecode_25x25_shared6.txt", 1), 20.0),
    ("hint 9×9", ["hint", "-"], EASY, 10.0),
    ("explain 9×9", ["explain", "-"], EASY, 10.0),
    ("rate 9×9", ["rate", "-"], EASY, 10.0),
    ("generate 9x9", ["generate", "9x9", "--seed", "{run}"], None, 10.0),
]

#: Runs of a case whose arguments hold ``{run}`` (its seed): a generated puzzle's rating
#: compiles the techniques its path reaches, so the time depends on the puzzle made, and
#: seeds 0-5 show the spread (singles to chains) rather than one draw.
SEEDED_RUNS = 6


def run(arguments: list[str], text: str | None, cache: str | None) -> tuple[float, float, str, str]:
    """Wall and CPU seconds of one ``ndoku`` command, and what it wrote on stderr and
    stdout."""
    env = dict(os.environ)
    # Python writes ndoku's bytecode as an installed package has it: with
    # PYTHONDONTWRITEBYTECODE set (as on the machine of 2026-11-29) every warm run compiled
    # each module again, 0.87 s a warm Samurai where it takes 0.57 s
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "ndoku", *arguments],
        input=text,
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, done.stderr.strip(), done.stdout


def first_run_goal(name: str, arguments: list[str], text: str | None, target: float) -> Goal:
    seeded = "{run}" in arguments
    runs = []
    for k in range(SEEDED_RUNS if seeded else RUNS):
        with tempfile.TemporaryDirectory(prefix="ndoku-firstrun-") as cache:
            runs.append(run([a.replace("{run}", str(k)) for a in arguments], text, cache))
    walls = [wall for wall, _, _, _ in runs]
    cpus = [cpu for _, cpu, _, _ in runs]
    said = [line for line in runs[0][2].splitlines() if "compiling" in line]
    notice = " ".join(said) or "no compile notice"
    each = f" (seeds 0-{len(runs) - 1}: {', '.join(f'{w:.1f}' for w in walls)} s)" if seeded else ""
    detail = (
        f"{len(runs)} runs{each}, max {max(walls):.1f} s; CPU median {median(cpus):.1f} s; {notice}"
    )
    return Goal(
        f"first ndoku {name}, empty cache (median)",
        median(walls),
        target,
        "s",
        detail=detail,
    )


#: ``generate`` commands whose puzzle must not depend on the cache: each made on an empty
#: one, then again on the cache it filled. Compiles once ate a first run's time, and a
#: first ``generate 6x6 --rules killer --seed 2`` gave another puzzle (the time it was
#: given ran out before its rating did); the deadlines now stop while kernels compile.
SAME_PUZZLE = [
    ["generate", "9x9", "--seed", "2"],
    ["generate", "6x6", "--rules", "killer", "--seed", "2"],
]


def same_puzzle_goal() -> Goal:
    """How many of :data:`SAME_PUZZLE` wrote another puzzle on an empty cache than warm."""
    differ = []
    for arguments in SAME_PUZZLE:
        with tempfile.TemporaryDirectory(prefix="ndoku-firstrun-") as cache:
            first, again = (run(arguments, None, cache)[3] for _ in range(2))
        if first != again:
            differ.append(" ".join(arguments))
    return Goal(
        "first ndoku generate: puzzles unlike a warm run's (same seed)",
        len(differ),
        0,
        "",
        detail="; ".join(differ) or f"{len(SAME_PUZZLE)} commands, each the same puzzle",
    )


def main() -> list[Goal]:
    goals = [first_run_goal(*case) for case in CASES]
    goals.append(same_puzzle_goal())
    samurai = str(REPO / "examples" / "samurai.txt")
    run(["solve", samurai], None, None)  # fills the cache
    warm = [run(["solve", samurai], None, None) for _ in range(WARM_RUNS)]
    times = [wall for wall, _, _, _ in warm]
    said = {stderr for _, _, stderr, _ in warm if stderr}
    detail = f"{WARM_RUNS} runs, max {max(times):.2f} s" + (f"; said {said}" if said else "")
    goals.append(
        Goal(
            "ndoku solve examples/samurai.txt, cache warm (median)",
            median(times),
            0.7,
            "s",
            detail=detail,
        )
    )
    return goals
