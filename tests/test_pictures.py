"""Pictures: the scene of every layout against closed forms and a slow reference, SVG, PNG and
PDF of every layout and janko puzzle, a golden SVG, reference PNGs within a pixel tolerance,
and the picture options of the CLI."""

from __future__ import annotations

import io
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops

from ndoku import layout_puzzle, read_puzzles, solve
from ndoku.cli import main
from ndoku.errors import NdokuError
from ndoku.model.puzzle import Puzzle
from ndoku.model.units import BOX
from ndoku.picture import needs
from ndoku.picture.book import PAPER, Entry, book, pages
from ndoku.picture.drawing import CANDIDATE, PLACED, REMOVED, THICK, THIN, picture
from ndoku.picture.pdf import to_pdf
from ndoku.picture.raster import to_png
from ndoku.picture.scene import Scene
from ndoku.picture.svg import to_svg
from ndoku.solvers.logic import Board, next_step

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "golden" / "pictures"
LAYOUTS = sorted(p.stem for p in (ROOT / "layouts").glob("*.txt"))
JANKO = sorted((ROOT / "tests/data/janko").glob("*/*.puzzle.txt"))
SVG_NS = "{http://www.w3.org/2000/svg}"


def _janko(path: Path) -> Puzzle:
    """A janko puzzle, its layout named where the shape alone does not decide it."""
    [puzzle] = read_puzzles(path, layout="windmill" if path.parent.name == "windmill" else None)
    return puzzle


def _walls(scene: Scene, cell: float) -> tuple[float, float]:
    """Total length of thin and of thick lines, in cells."""
    thin = sum(
        abs(ln.x1 - ln.x0) + abs(ln.y1 - ln.y0) for ln in scene.lines if ln.width == THIN * cell
    )
    thick = sum(
        abs(ln.x1 - ln.x0) + abs(ln.y1 - ln.y0) for ln in scene.lines if ln.width == THICK * cell
    )
    return thin / cell, thick / cell


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5), (6, 6)])
def test_lines_of_a_single_grid_have_their_closed_form_length(box: tuple[int, int]) -> None:
    r, c = box
    n = r * c
    [p] = read_puzzles(text=f"# box: {r}x{c}\n" + ("0 " * n + "\n") * n)
    thin, thick = _walls(picture(p, cell=10), 10)
    # Outline 4N, then N/r − 1 lines across and N/c − 1 down between boxes, each N long.
    walls = 4 * n + (n // r - 1) * n + (n // c - 1) * n
    assert thick == pytest.approx(walls)
    assert thin == pytest.approx(2 * (n + 1) * n - walls)


def _reference_walls(puzzle: Puzzle) -> set[tuple[str, int, int]]:
    """Every edge that must be thick, one at a time: its two sides differ in being a cell, in
    the boxes (or regions) that hold them, or in the sub-grids that hold them."""
    rows, cols = puzzle.index.shape
    units = puzzle.units
    owner: dict[tuple[int, int], set[tuple[str, int]]] = {}
    for u in np.flatnonzero(units.kind == BOX):
        for cell in units[u]:
            owner.setdefault(tuple(puzzle.cell_rc[cell]), set()).add(("box", int(u)))
    n = puzzle.size
    for g, (r0, c0) in enumerate(puzzle.layout.corners):
        for r in range(r0, r0 + n):
            for c in range(c0, c0 + n):
                owner.setdefault((r, c), set()).add(("grid", g))

    def side(r: int, c: int) -> frozenset[tuple[str, int]] | None:
        inside = 0 <= r < rows and 0 <= c < cols and puzzle.index[r, c] >= 0
        return frozenset(owner.get((r, c), set())) if inside else None

    walls = set()
    for r in range(rows + 1):
        for c in range(cols):
            a, b = side(r - 1, c), side(r, c)
            if (a is not None or b is not None) and a != b:
                walls.add(("across", r, c))
    for r in range(rows):
        for c in range(cols + 1):
            a, b = side(r, c - 1), side(r, c)
            if (a is not None or b is not None) and a != b:
                walls.add(("down", r, c))
    return walls


def _drawn_walls(scene: Scene, cell: float, margin: float) -> set[tuple[str, int, int]]:
    """The unit edges the thick lines of a scene cover."""
    out = set()
    for ln in scene.lines:
        if ln.width != THICK * cell:
            continue
        x0, y0 = round((ln.x0 - margin) / cell), round((ln.y0 - margin) / cell)
        x1, y1 = round((ln.x1 - margin) / cell), round((ln.y1 - margin) / cell)
        if y0 == y1:
            out |= {("across", y0, c) for c in range(min(x0, x1), max(x0, x1))}
        else:
            out |= {("down", r, x0) for r in range(min(y0, y1), max(y0, y1))}
    return out


@pytest.mark.parametrize("name", LAYOUTS)
def test_walls_of_every_layout_match_the_slow_reference(name: str) -> None:
    puzzle = layout_puzzle(name)
    scene = picture(puzzle, cell=10)
    assert _drawn_walls(scene, 10, 2.5) == _reference_walls(puzzle)


@pytest.mark.parametrize("path", JANKO, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_walls_of_every_janko_puzzle_match_the_slow_reference(path: Path) -> None:
    puzzle = _janko(path)
    assert _drawn_walls(picture(puzzle, cell=10), 10, 2.5) == _reference_walls(puzzle)


def test_a_box_edge_inside_a_sub_grid_is_not_a_wall_where_it_must_not_be() -> None:
    # A 4×4: the middle lines are walls, the others thin; no wall inside a box.
    [p] = read_puzzles(text="0 0 0 0\n" * 4)
    walls = _drawn_walls(picture(p, cell=10), 10, 2.5)
    assert ("across", 1, 0) not in walls and ("down", 0, 1) not in walls
    assert ("across", 2, 0) in walls and ("down", 0, 2) in walls


def _labels(scene: Scene) -> list[str]:
    return [lb.text for lb in scene.labels]


@pytest.mark.parametrize("path", JANKO[::2], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_given_and_every_solved_value_is_drawn_in_the_puzzles_alphabet(path: Path) -> None:
    puzzle = _janko(path)
    symbol = puzzle.grid.style.symbol
    givens = picture(puzzle)
    assert sorted(_labels(givens)) == sorted(symbol(int(v)) for v in puzzle.givens if v)
    assert all(lb.bold for lb in givens.labels)
    solution = solve(puzzle).values
    solved = picture(puzzle, solution)
    assert sorted(_labels(solved)) == sorted(symbol(int(v)) for v in solution)
    assert sum(lb.bold for lb in solved.labels) == int((puzzle.givens > 0).sum())


def test_hexadoku_written_0_to_f_is_drawn_with_its_own_symbols() -> None:
    rows = ["0 1 2 3 4 5 6 7 8 9 A B C D E F"] + [" ".join(["."] * 16)] * 15
    [p] = read_puzzles(text="\n".join(rows) + "\n")
    assert _labels(picture(p)) == list("0123456789ABCDEF")


def test_missing_cells_stay_blank() -> None:
    puzzle = layout_puzzle("samurai")
    scene = picture(puzzle, solve(puzzle).values, cell=10)
    assert len(scene.labels) == puzzle.n_cells < 21 * 21
    for lb in scene.labels:  # no value where the canvas has no cell
        r, c = int((lb.y - 2.5) // 10), int((lb.x - 2.5) // 10)
        assert puzzle.index[r, c] >= 0


def test_pencil_marks_and_a_step_are_drawn() -> None:
    p = read_puzzles(ROOT / "tests/data/sudoku9/norvig_top95.txt")[0]
    board = Board.start(p)
    step = next_step(board)
    assert step is not None
    scene = picture(p, board.values, candidates=board.cand, step=step)
    small = [lb for lb in scene.labels if lb.colour in (CANDIDATE, REMOVED)]
    placed_cells = [cell for cell, _ in step.placements]  # these show the value placed
    assert len(small) == int(board.cand.sum() - board.cand[placed_cells].sum())
    placed = [lb for lb in scene.labels if lb.colour == PLACED]
    assert len(placed) == len(step.placements)
    removed = [lb for lb in scene.labels if lb.colour == REMOVED]
    assert len(removed) == len(step.eliminations)
    assert len(scene.fills) >= len(step.cells)


def test_jigsaw_fills_give_touching_regions_different_colours() -> None:
    p = _janko(JANKO[[q.parent.name for q in JANKO].index("jigsaw")])
    scene = picture(p, regions=True, cell=10)
    colour = {(round((f.y - 2.5) / 10), round((f.x - 2.5) / 10)): f.colour for f in scene.fills}
    region = p.layout.regions
    assert region is not None and len(colour) == p.n_cells
    for (r, c), fill in colour.items():
        for rr, cc in ((r + 1, c), (r, c + 1)):
            if (rr, cc) in colour and region[rr, cc] != region[r, c]:
                assert colour[rr, cc] != fill


def test_extra_units_are_shaded() -> None:
    [p] = read_puzzles(text="# extra: diagonals\n" + "0 0 0 0\n" * 4)
    assert len(picture(p).fills) == 8


@pytest.mark.parametrize("name", LAYOUTS)
def test_every_layout_renders_to_valid_svg_png_and_pdf(name: str) -> None:
    puzzle = layout_puzzle(name)
    scene = picture(puzzle, solve(puzzle).values, title=name, footer="footer")
    root = ET.fromstring(to_svg(scene))
    assert root.tag == f"{SVG_NS}svg"
    assert len(root.findall(f".//{SVG_NS}text")) == puzzle.n_cells + 2
    image = Image.open(io.BytesIO(to_png(scene, scale=1)))
    assert image.size == (round(scene.width), round(scene.height))
    pdf = to_pdf([scene])
    assert pdf.startswith(b"%PDF-") and pdf.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize("path", JANKO, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_janko_puzzle_renders_to_valid_svg_png_and_pdf(path: Path) -> None:
    puzzle = _janko(path)
    scene = picture(puzzle, regions=True)
    root = ET.fromstring(to_svg(scene))
    assert len(root.findall(f".//{SVG_NS}text")) == int((puzzle.givens > 0).sum())
    assert Image.open(io.BytesIO(to_png(scene, scale=0.5))).format == "PNG"
    assert to_pdf([scene]).count(b"/Type /Page\n") == 1


def test_pdf_is_the_same_bytes_every_time_and_embeds_its_fonts() -> None:
    [p] = read_puzzles(ROOT / "examples/samurai.txt")
    scene = picture(p)
    pdf = to_pdf([scene])
    assert to_pdf([scene]) == pdf
    assert b"/FontFile2" in pdf  # TrueType embedded


def test_golden_svg() -> None:
    """The drawing, pinned: rewrite with ``python tests/test_pictures.py`` and review."""
    assert _golden_svg() == (GOLDEN / "samurai.svg").read_text()


def _golden_svg() -> str:
    [p] = read_puzzles(ROOT / "examples/samurai.txt")
    return to_svg(picture(p, solve(p).values, title="Samurai", footer="examples/samurai.txt"))


def _reference_scenes() -> dict[str, Scene]:
    """The pictures the reference PNGs show: a 4×4, a jigsaw with fills, a step with marks."""
    [small] = read_puzzles(text="1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n")
    jigsaw = _janko(JANKO[[q.parent.name for q in JANKO].index("jigsaw")])
    hard = read_puzzles(ROOT / "tests/data/sudoku9/norvig_top95.txt")[0]
    board = Board.start(hard)
    return {
        "4x4": picture(small, solve(small).values),
        "jigsaw": picture(jigsaw, regions=True),
        "step": picture(hard, board.values, candidates=board.cand, step=next_step(board)),
    }


@pytest.mark.parametrize("name", ["4x4", "jigsaw", "step"])
def test_png_matches_its_reference_image_within_a_pixel_tolerance(name: str) -> None:
    drawn = Image.open(io.BytesIO(to_png(_reference_scenes()[name]))).convert("L")
    reference = Image.open(GOLDEN / f"{name}.png").convert("L")
    assert drawn.size == reference.size
    diff = np.asarray(ImageChops.difference(drawn, reference), dtype=np.int32)
    # Font rasterising may differ a little between FreeType versions; lines and fills not.
    assert (diff > 64).mean() < 0.01
    assert diff.mean() < 2.0


def test_a_png_that_differs_fails_the_tolerance() -> None:
    drawn = Image.open(io.BytesIO(to_png(_reference_scenes()["4x4"]))).convert("L")
    other = Image.open(GOLDEN / "jigsaw.png").convert("L").resize(drawn.size)
    diff = np.asarray(ImageChops.difference(drawn, other), dtype=np.int32)
    assert (diff > 64).mean() >= 0.01


def test_pages_fit_the_paper_and_books_count_their_pages() -> None:
    scene = picture(layout_puzzle("sumo"))
    [page] = pages([scene], "letter")
    assert (page.width, page.height) == PAPER["letter"]
    xs = [v for ln in page.lines for v in (ln.x0, ln.x1)]
    ys = [v for ln in page.lines for v in (ln.y0, ln.y1)]
    assert min(xs) > 0 and max(xs) < page.width and min(ys) > 0 and max(ys) < page.height
    entries = [Entry(str(k), scene, scene, str(k)) for k in range(7)]
    assert len(book(entries, per_page=3)) == 3 + 1  # 7 puzzles 3 a page, 7 solutions 12 a page
    with pytest.raises(NdokuError):
        book(entries, per_page=0)


def _run(args: list[str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.stdout, result.stderr


def test_show_writes_each_format_and_says_so(tmp_path: Path) -> None:
    out = [tmp_path / f"s.{kind}" for kind in ("svg", "png", "pdf")]
    code, stdout, stderr = _run(
        [
            "show",
            "layouts/samurai.txt",
            "--svg",
            str(out[0]),
            "-o",
            str(out[1]),
            "--pdf",
            str(out[2]),
        ]
    )
    assert code == 0 and stdout == ""
    assert all(p.exists() for p in out) and str(out[2]) in stderr
    ET.parse(out[0])
    assert out[1].read_bytes()[:4] == b"\x89PNG" and out[2].read_bytes()[:5] == b"%PDF-"


def test_several_puzzles_go_to_numbered_files_or_pages(tmp_path: Path) -> None:
    code, _, _ = _run(["show", "examples/data/euler50.txt", "-o", str(tmp_path / "e.svg")])
    assert code == 0
    assert len(list(tmp_path.glob("e-*.svg"))) == 50 and (tmp_path / "e-01.svg").exists()
    code, _, _ = _run(["show", "examples/data/euler50.txt", "--pdf", str(tmp_path / "e.pdf")])
    assert (tmp_path / "e.pdf").read_bytes().count(b"/Type /Page\n") == 50


def test_an_unknown_picture_extension_is_refused_before_any_work(tmp_path: Path) -> None:
    code, _, stderr = _run(["solve", "examples/samurai.txt", "-o", str(tmp_path / "x.jpg")])
    assert code == 2 and "end its name in .svg, .png or .pdf" in stderr
    assert not list(tmp_path.iterdir())


def test_a_missing_extra_is_a_clear_error_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(needs, "_found", lambda module: module != "reportlab")
    code, stdout, stderr = _run(["generate", "9x9", "--pdf", str(tmp_path / "b.pdf"), "--caption"])
    assert code == 2 and stdout == ""
    assert "PDF pictures need reportlab (the print extra): pip install reportlab," in stderr
    assert "pip install -e '.[print]'" in stderr
    code, _, _ = _run(["show", "layouts/9x9.txt", "--svg", str(tmp_path / "ok.svg")])
    assert code == 0  # SVG needs no extra


def test_solve_draws_the_solution_over_the_puzzle(tmp_path: Path) -> None:
    code, stdout, _ = _run(
        ["solve", "examples/samurai.txt", "--svg", str(tmp_path / "s.svg"), "--caption"]
    )
    assert code == 0 and stdout  # the solution is printed as well
    root = ET.parse(tmp_path / "s.svg").getroot()
    [puzzle] = read_puzzles(ROOT / "examples/samurai.txt")
    texts = [t.text for t in root.iter(f"{SVG_NS}text")]
    assert len(texts) == puzzle.n_cells + 1 and "givens" in texts[-1]


def test_generate_writes_a_book_with_solutions(tmp_path: Path) -> None:
    book_pdf = tmp_path / "book.pdf"
    code, stdout, _ = _run(["generate", "6x6", "-n", "3", "--seed", "4", "--pdf", str(book_pdf)])
    assert code == 0 and stdout.count("# ndoku generate") == 3
    pdf = book_pdf.read_bytes()
    assert pdf.count(b"/Type /Page\n") == 3 + 1  # a puzzle a page, then the solutions


def test_hint_and_explain_draw_their_steps(tmp_path: Path) -> None:
    line = (ROOT / "tests/data/sudoku9/norvig_top95.txt").read_text().splitlines()[0]
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(line + "\n")
    code, _, _ = _run(["hint", str(puzzle), "-o", str(tmp_path / "h.svg")])
    assert code == 0
    root = ET.parse(tmp_path / "h.svg").getroot()
    assert any(r.get("fill") == "#ffe58a" for r in root.iter(f"{SVG_NS}rect"))
    code, stdout, _ = _run(["explain", str(puzzle), "--pdf", str(tmp_path / "e.pdf")])
    steps = sum(1 for ln in stdout.splitlines() if ln[:1].isdigit())
    assert (tmp_path / "e.pdf").read_bytes().count(b"/Type /Page\n") == steps + 1


def _write_golden() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    (GOLDEN / "samurai.svg").write_text(_golden_svg())
    for name, scene in _reference_scenes().items():
        (GOLDEN / f"{name}.png").write_bytes(to_png(scene))


if __name__ == "__main__":
    os.chdir(ROOT)
    _write_golden()
    sys.exit(0)
