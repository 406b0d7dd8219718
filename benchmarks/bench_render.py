"""Pictures: a Samurai drawn as SVG and as PDF, and a book of generated Samurai with solutions.

What is measured
----------------
- Every Samurai of the janko set (``janko/samurai``, files ``*.puzzle.txt``), its solution
  drawn over the puzzle as ``ndoku solve FILE --svg``/``--pdf`` draws it: the scene
  (:func:`ndoku.picture.drawing.picture`) and the writing, to SVG text (:func:`to_svg`) or to
  PDF bytes (the picture fitted to an A4 page, :func:`pages`, then :func:`to_pdf`, fonts
  embedded); the file itself is not written. Each puzzle is timed ``REPEATS`` times and keeps
  its median; the goal is the median over the puzzles, the detail gives the worst puzzle.
  Solving is not timed; the kernels are compiled or loaded, ReportLab and Pillow imported and
  the fonts registered (one PDF drawn) before any timing. ReportLab's own import time is
  measured once, in a fresh interpreter, and reported in the PDF goal's detail.
- A book: ``generate(layout_puzzle("samurai"), seed=k)`` for k in 0..11 (the generator
  warmed with another seed first), ``book_pages(..., per_page=2)`` (puzzles two a page,
  solutions at the back) and :func:`to_pdf`: the total wall time, generation included.

Goals from the issue: a Samurai to SVG ≤ 20 ms, to PDF ≤ 200 ms, a 12-puzzle Samurai book
with its solutions ≤ 5 s.

Measured 2026-11-24, quiet, three runs: SVG 2.8–3.0 ms a Samurai (worst puzzle 3.0 ms), PDF
12.2–12.6 ms (worst 12.7 ms), ReportLab's import 40–43 ms; the book 4.77–4.79 s, of which
4.6 s is generation and 0.17 s the pages and the PDF (5.8 s with the other core busy). Six
of the twelve rating paths stop at ``GENERATE_PATH_TIMEOUT`` (0.5 s each), which sets most of
the book's time.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from benchmarks._common import Goal, benchmark_data, median
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.picture.book import pages
from ndoku.picture.drawing import picture
from ndoku.picture.pdf import to_pdf
from ndoku.picture.svg import to_svg
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.pictures import book_pages
from ndoku.tasks.solve import solve

REPEATS = 7
BOOK = 12
PER_PAGE = 2
#: What :func:`to_pdf` imports, timed in a fresh interpreter.
Solved = tuple[Puzzle, NDArray[np.integer]]
REPORTLAB_IMPORT = (
    "import time; t = time.perf_counter(); "
    "import reportlab.lib.colors, reportlab.pdfgen.canvas, reportlab.pdfbase.ttfonts; "
    "print(time.perf_counter() - t)"
)


def svg_bytes(puzzle: Puzzle, values: NDArray[np.integer]) -> int:
    return len(to_svg(picture(puzzle, values)))


def pdf_bytes(puzzle: Puzzle, values: NDArray[np.integer]) -> int:
    return len(to_pdf(pages([picture(puzzle, values)])))


def per_puzzle(
    write: Callable[[Puzzle, NDArray[np.integer]], int], solved: list[Solved]
) -> tuple[list[float], int]:
    """Median seconds of ``write`` per puzzle, and the largest output in bytes."""
    seconds, largest = [], 0
    for puzzle, values in solved:
        runs = []
        for _ in range(REPEATS):
            start = time.perf_counter()
            size = write(puzzle, values)
            runs.append(time.perf_counter() - start)
        seconds.append(median(runs))
        largest = max(largest, size)
    return seconds, largest


def reportlab_import() -> float:
    """Seconds to import what the PDF writer uses, in a fresh interpreter (median of 3)."""
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", REPORTLAB_IMPORT], check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(3)
    ]
    return median(runs)


def drawing_goals() -> list[Goal]:
    files = sorted(benchmark_data("janko/samurai").glob("*.puzzle.txt"))
    solved: list[Solved] = []
    for path in files:
        [puzzle] = read_puzzles(path)
        outcome = solve(puzzle)
        assert outcome.status == "solved" and outcome.values is not None
        solved.append((puzzle, outcome.values))
    svg_bytes(*solved[0])  # everything imported, the fonts registered, before timing
    pdf_bytes(*solved[0])
    goals = []
    for kind, write, target in (("SVG", svg_bytes, 0.020), ("PDF", pdf_bytes, 0.200)):
        seconds, largest = per_puzzle(write, solved)
        detail = (
            f"{len(solved)} puzzles × {REPEATS} runs, worst puzzle {1e3 * max(seconds):.1f} ms; "
            f"largest file {largest / 1024:.0f} KiB"
        )
        if kind == "PDF":
            detail += f"; importing ReportLab takes {1e3 * reportlab_import():.0f} ms once"
        goals.append(
            Goal(
                f"Samurai solution to {kind} (scene + writing): median",
                1e3 * median(seconds),
                1e3 * target,
                "ms",
                detail=detail,
            )
        )
    return goals


def book_goal() -> Goal:
    empty = layout_puzzle("samurai")
    generate(empty, seed=BOOK)  # kernels loaded or compiled before timing
    start = time.perf_counter()
    made = [generate(empty, seed=k) for k in range(BOOK)]
    generated = time.perf_counter() - start
    sheets = book_pages(made, per_page=PER_PAGE, name="samurai")
    pdf = to_pdf(sheets)
    total = time.perf_counter() - start
    detail = (
        f"generation {generated:.2f} s, pages and PDF {total - generated:.2f} s; "
        f"{len(sheets)} pages, {len(pdf) / 1024:.0f} KiB"
    )
    return Goal(
        f"book of {BOOK} Samurai + solutions, generation included",
        total,
        5.0,
        "s",
        detail=detail,
    )


def main() -> list[Goal]:
    return [*drawing_goals(), book_goal()]
