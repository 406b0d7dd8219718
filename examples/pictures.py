"""The README's pictures: a Samurai solved, a jigsaw, an X-sudoku, a 16×16 with pencil marks, a
page of a puzzle book, a killer Samurai and every kind of variant rule, drawn by ndoku.picture and
rasterised with Pillow (the print extra).

    python examples/pictures.py              # writes examples/figures/picture_*.png

Needs the print extra (Pillow and ReportLab: ``pip install -e '.[print]'`` in ndoku's clone).

Every puzzle is in the repository or generated from a fixed seed (a rating that hits its
timeout says so in the book's header, so that line may differ on a slower machine).
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from _extras import run_script

from ndoku import generate, layout_puzzle, read_puzzles, solve
from ndoku.picture.drawing import picture
from ndoku.picture.needs import require
from ndoku.picture.raster import to_png
from ndoku.picture.scene import Scene
from ndoku.tasks.explain import explain
from ndoku.tasks.pictures import book_pages, caption

HERE = Path(__file__).parent
REPO = HERE.parent
FIGURES = HERE / "figures"
#: Pixels per point: 1.25 keeps a Samurai near 650 pixels wide and its file small.
SCALE = 1.25
JIGSAW = REPO / "tests" / "data" / "janko" / "jigsaw" / "93_9x9.puzzle.txt"
HEXADOKU = REPO / "tests" / "data" / "sudoku16" / "goomii_16x16_first40.txt"
#: The 16×16 is drawn before this step of its explained path (the steps before it applied).
STEP = 8
XSUDOKU_SEED = 3
#: A rule of every kind on an empty 9×9: a picture of how each is drawn, not a puzzle.
EVERY_KIND = """\
000000000
000000000
000000000
000000000
000000000
000000000
000000000
000000000
000000000

little-killer 20 dr: r0c1
sandwich 12: r0c6
skyscraper 3: r6c10
outside-sum 17: r10c5
cage 15: r1c7 r1c8 r2c8
cage 10: r6c5 r6c6
thermo: r2c2 r3c2 r4c3 r4c4
slow-thermo: r9c1 r8c1 r7c1
arrow: r1c4 > r2c5 r3c5
arrow: r6c2 r6c3 > r7c4 r8c4
white: r3c7 r3c8
black: r4c7 r4c8
white 3: r1c1 r1c2
x: r7c8 r8c8
v: r9c8 r9c9
even: r2c6
odd: r5c6
whisper: r7c6 r8c6 r9c5 r9c4
renban: r5c8 r5c9 r6c9
palindrome: r2c3 r1c3
region: r8c2 r8c3 r9c3
line: r4c6 r3c6
circle: r5c1
outline "6": r3c9 r4c9
antiknight
negative: black
"""
BOOK_SEEDS = range(2)


def samurai() -> Scene:
    """The bundled Samurai, its solution over the givens (``ndoku solve --caption``)."""
    [puzzle] = read_puzzles(HERE / "samurai.txt")
    return picture(puzzle, solve(puzzle).values, footer=caption(puzzle, rated=True))


def jigsaw() -> Scene:
    """A janko jigsaw, its regions filled in pale colours (no caption: under a 9×9 it would
    shrink past reading)."""
    [puzzle] = read_puzzles(JIGSAW)
    return picture(puzzle, regions=True)


def xsudoku() -> Scene:
    """A generated X-sudoku (no real one is in the repository): the diagonals shaded."""
    return picture(generate(layout_puzzle("xsudoku"), seed=XSUDOKU_SEED).puzzle)


def pencil_marks() -> Scene:
    """A 16×16 with its pencil marks after the first steps of its path, the next one shown
    (a page of ``ndoku explain --caption``)."""
    puzzle = read_puzzles(HEXADOKU)[0]
    told = explain(puzzle)
    board = next(islice(told.boards(), STEP, None))
    step = told.path.steps[STEP]
    footer = f"step {STEP + 1}: {step.technique} ({step.rating:g})"
    return picture(puzzle, board.values, candidates=board.cand, step=step, footer=footer)


def book_page() -> Scene:
    """The first page of ``ndoku generate samurai -n 12 --per-page 2 --pdf book.pdf``: its
    first two puzzles (seeds 0 and 1)."""
    made = [generate(layout_puzzle("samurai"), seed=seed) for seed in BOOK_SEEDS]
    return book_pages(made, per_page=2, name="samurai")[0]


def killer_samurai() -> Scene:
    """The killer Samurai of ``examples/`` (``ndoku show examples/killer_samurai.txt``): its
    cages run across the sub-grids."""
    [puzzle] = read_puzzles(HERE / "killer_samurai.txt")
    return picture(puzzle)


def generated_killer_samurai() -> Scene:
    """The killer Samurai ``ndoku generate samurai --rules killer --seed 0`` made
    (``examples/killer_samurai_generated.txt``): no given, its cages alone make it unique."""
    [puzzle] = read_puzzles(HERE / "killer_samurai_generated.txt")
    return picture(puzzle)


def every_kind() -> Scene:
    """Every kind of rule ndoku reads, drawn (``ndoku show --png`` of :data:`EVERY_KIND`)."""
    [puzzle] = read_puzzles(text=EVERY_KIND)
    return picture(puzzle, footer="every kind of rule ndoku reads")


def main() -> None:
    require("png")  # Pillow and ReportLab before the solving: without them, stop at once
    FIGURES.mkdir(exist_ok=True)
    for name, draw, scale in (
        ("samurai", samurai, SCALE),
        ("jigsaw", jigsaw, 1.5),
        ("xsudoku", xsudoku, 1.5),
        ("pencil_marks", pencil_marks, 1.5),
        ("book_page", book_page, SCALE),
        ("killer_samurai", killer_samurai, SCALE),
        ("generated_killer_samurai", generated_killer_samurai, SCALE),
        ("rules", every_kind, 2.0),
    ):
        path = FIGURES / f"picture_{name}.png"
        path.write_bytes(to_png(draw(), scale))
        print(f"wrote {path.relative_to(REPO)} ({path.stat().st_size / 1024:.0f} KiB)")


if __name__ == "__main__":
    run_script(main)
