"""The page of ``ndoku serve`` in a real browser (Debian's chromium, headless, driven by
Playwright), against a real server on a free port: as a person would use it.

Skipped only where /usr/bin/chromium is absent (``.ci/run`` installs it); Playwright never
downloads a browser here.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.explain import explain
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.records import hint_record
from ndoku.tasks.verify import verify

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)"
)
playwright = pytest.importorskip("playwright.sync_api")
expect = playwright.expect
REPO = Path(__file__).resolve().parent.parent
SAMURAI = (REPO / "examples" / "samurai.txt").read_text()
# A 9×9 of the test data (its first line), which the path solves with singles.
NINE = (REPO / "tests" / "data" / "sudoku9" / "kaggle_bryanpark_first69.txt").read_text()
NINE = NINE.splitlines()[0].split(",")[0]
BROWSER_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
WAIT_MS = 60_000  # a first answer may load the kernels from numba's cache


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server on 127.0.0.1 and a free port, in a thread of this process."""
    from ndoku.web.server import Listening

    listening = Listening("127.0.0.1", 0, jobs=2)
    thread = threading.Thread(target=listening.serve, kwargs={"warm": False}, daemon=True)
    thread.start()
    yield listening.url
    listening.stop()
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """The page loaded, with every console error and every request it made recorded."""
    context = browser.new_context()
    opened = context.new_page()
    opened.errors, opened.requests = [], []
    opened.on("console", lambda m: m.type == "error" and opened.errors.append(m.text))
    opened.on("pageerror", lambda e: opened.errors.append(str(e)))
    opened.on("request", lambda r: opened.requests.append(r.url))
    opened.set_default_timeout(WAIT_MS)
    expect.set_options(timeout=WAIT_MS)
    opened.goto(server)
    opened.wait_for_selector("body[data-ready=yes]")
    yield opened
    context.close()


def grid_values(page: Any, puzzle: Puzzle) -> np.ndarray:
    """The values the drawn grid shows, read from its ``data-cell`` texts (0: empty)."""
    shown = page.eval_on_selector_all(
        "[data-test=grid] [data-cell]", "cells => cells.map(c => [c.dataset.cell, c.textContent])"
    )
    style = puzzle.grid.style
    value_of = {style.symbol(v): v for v in range(1, puzzle.size + 1)}
    values = np.zeros(puzzle.n_cells, dtype=np.int32)
    seen = 0
    for where, text in shown:
        r, c = map(int, where.split(","))
        cell = int(puzzle.index[r, c])
        assert cell >= 0, f"data-cell {where} is no cell of the puzzle"
        values[cell] = value_of[text] if text else 0
        seen += 1
    assert seen == puzzle.n_cells  # every cell drawn once
    return values


def test_the_page_loads_without_errors_and_asks_nothing_of_other_hosts(
    page: Any, server: str
) -> None:
    for name in ("input", "solve", "count", "hint", "apply", "explain", "rate", "generate"):
        assert page.locator(f"[data-test={name}]").count() == 1, name
    page.select_option("[data-test=layout]", "samurai")
    page.wait_for_selector("[data-test=grid] [data-cell]", state="attached")
    assert page.locator("[data-test=grid] [data-cell]").count() == 369
    assert page.errors == []
    assert page.requests and all(url.startswith(server) for url in page.requests)


def test_a_samurai_pasted_and_solved_shows_a_grid_that_keeps_every_rule(page: Any) -> None:
    [puzzle] = read_puzzles(text=SAMURAI)
    page.fill("[data-test=input]", SAMURAI)
    page.click("[data-test=solve]")
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("^solved"))
    values = grid_values(page, puzzle)
    assert (values > 0).all()
    verify(puzzle, values)  # every unit, every given
    assert page.errors == []


def test_a_chain_solves_and_its_energy_is_plotted(page: Any) -> None:
    easy = (REPO / "tests" / "data" / "sudoku9" / "norvig_easy50.txt").read_text().split()[0]
    [puzzle] = read_puzzles(text=easy)
    page.fill("[data-test=input]", easy)
    page.select_option("[data-test=method]", "metropolis")
    page.click("[data-test=solve]")
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("^solved by metropolis"))
    verify(puzzle, grid_values(page, puzzle))
    expect(page.locator("[data-test=trace]")).to_be_visible()
    points = page.locator("[data-test=trace] polyline").get_attribute("data-points")
    assert points is not None and int(points) >= 2
    assert page.errors == []


def test_a_watched_chain_streams_its_energy_and_stops_on_stop(page: Any) -> None:
    hardest = (REPO / "tests" / "data" / "sudoku9" / "forum_hardest_1106_first40.txt").read_text()
    text = hardest.split()[0].split(",")[0]
    [puzzle] = read_puzzles(text=text + "\n")
    page.fill("[data-test=input]", text)
    page.select_option("[data-test=method]", "metropolis")
    page.fill("[data-test=temperature]", "2")  # hot: it runs until stopped
    page.click("[data-test=chain]")
    expect(page.locator("[data-test=stop]")).to_be_enabled()
    plotted = page.locator("[data-test=trace] polyline")
    page.wait_for_function(
        "() => Number(document.querySelector('[data-test=trace] polyline')"
        "?.getAttribute('data-points') || 0) >= 10"
    )
    shown = grid_values(page, puzzle)  # a state of the chain: every cell filled, givens kept
    given = puzzle.givens > 0
    assert (shown > 0).all() and (shown[given] == puzzle.givens[given]).all()
    assert page.locator("[data-test=grid] text.conflict").count() > 0  # its conflicts marked
    page.eval_on_selector(  # the slider moved: the chain goes on at 2.5
        "[data-test=steer]", "s => { s.value = 2.5; s.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("T 2.500$"))
    page.click("[data-test=stop]")
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("^stopped by you"))
    expect(page.locator("[data-test=chain]")).to_be_enabled()
    assert int(plotted.get_attribute("data-points") or 0) >= 10
    assert page.errors == []


def test_a_hint_shades_its_cells_says_its_step_and_apply_places_it(page: Any) -> None:
    [puzzle] = read_puzzles(text=NINE)
    record = hint_record(explain(puzzle, most_steps=1))
    page.fill("[data-test=input]", NINE)
    page.click("[data-test=hint]")
    expect(page.locator("[data-test=result]")).to_have_text(record["text"])
    shaded = page.locator("[data-test=grid] rect[fill='#ffe58a']").count()
    assert shaded == len(record["cells"])
    [[r, c, symbol]] = record["placements"]
    assert page.text_content(f"[data-cell='{r},{c}']") == ""  # shown green, not yet placed
    page.click("[data-test=apply]")
    expect(page.locator(f"[data-cell='{r},{c}']")).to_have_text(symbol)
    [after] = read_puzzles(text=page.input_value("[data-test=input]"))
    assert int((after.givens > 0).sum()) == int((puzzle.givens > 0).sum()) + 1
    assert page.locator("[data-test=grid] rect[fill='#ffe58a']").count() == 0
    assert page.errors == []


def test_explain_lists_the_steps_and_a_click_shows_the_grid_before_one(page: Any) -> None:
    four = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
    [puzzle] = read_puzzles(text=four)
    told = explain(puzzle)
    page.fill("[data-test=input]", four)
    page.click("[data-test=explain]")
    steps = page.locator("[data-test=steps] li")
    expect(steps).to_have_count(len(told.path.steps))
    assert steps.nth(2).text_content() == told.text(2)
    page.wait_for_selector("[data-test=grid] [data-cell]", state="attached")
    steps.nth(2).click()
    shaded = page.locator("[data-test=grid] rect[fill='#ffe58a']")
    expect(shaded).to_have_count(len(told.path.steps[2].cells))
    assert page.errors == []


def click_cell(page: Any, r: int, c: int) -> None:
    """Click the drawn cell at canvas position (r, c), as a person does (at its centre, the
    grid scrolled into view)."""
    page.locator("[data-test=grid]").scroll_into_view_if_needed()
    x, y = page.locator(f"[data-cell='{r},{c}']").evaluate(
        """label => {
            const svg = label.ownerSVGElement, point = svg.createSVGPoint();
            const size = Number(label.parentNode.getAttribute("font-size"));
            point.x = Number(label.getAttribute("x"));
            point.y = Number(label.getAttribute("y")) - 0.36 * size;
            const on = point.matrixTransform(svg.getScreenCTM());
            return [on.x, on.y];
        }"""
    )
    page.mouse.click(x, y)


def test_a_6x6_drawn_by_clicks_with_givens_typed_is_solved(page: Any) -> None:
    made = generate(layout_puzzle("6x6"), seed=1)
    puzzle = made.puzzle
    symbol = puzzle.grid.style.symbol
    rc = puzzle.cell_rc.tolist()
    givens = [(*rc[k], symbol(int(v))) for k, v in enumerate(puzzle.givens.tolist()) if v]
    page.fill("[data-test=draw-rows]", "6")
    page.fill("[data-test=draw-cols]", "6")
    page.fill("[data-test=draw-box]", "2x3")
    page.click("[data-test=draw-new]")
    for r in range(6):
        for c in range(6):
            page.click(f"[data-test=draw-cell][data-at='{r},{c}']")
    expect(page.locator("[data-test=grid] [data-cell]")).to_have_count(36)
    assert page.input_value("[data-test=input]") == "# box: 2x3\n" + "0 0 0 0 0 0\n" * 6
    for r, c, value in givens:
        click_cell(page, r, c)
        page.keyboard.press(value)
        expect(page.locator(f"[data-cell='{r},{c}']")).to_have_text(value)
    [typed] = read_puzzles(text=page.input_value("[data-test=input]"))
    assert (typed.givens == puzzle.givens).all()  # the text box has every given typed
    # an arrow moves to the next cell, Delete clears what was typed there
    # an arrow moves to the next cell, a symbol writes it, Delete clears it again
    r, c = next((r, c) for r, c in rc if not typed.givens[typed.index[r, c]])
    value = symbol(int(made.solution[typed.index[r, c]]))  # one that breaks no rule
    click_cell(page, r, c - 1 if c > 0 else c + 1)
    page.keyboard.press("ArrowRight" if c > 0 else "ArrowLeft")
    page.keyboard.press(value)
    expect(page.locator(f"[data-cell='{r},{c}']")).to_have_text(value)
    page.keyboard.press("Delete")
    expect(page.locator(f"[data-cell='{r},{c}']")).to_have_text("")
    page.click("[data-test=solve]")
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("^solved"))
    verify(puzzle, grid_values(page, puzzle))
    assert page.errors == []


def draw_cells(page: Any, rows: int, cols: int) -> None:
    """A new canvas of rows × cols with every position clicked on."""
    page.fill("[data-test=draw-rows]", str(rows))
    page.fill("[data-test=draw-cols]", str(cols))
    page.click("[data-test=draw-new]")
    for r in range(rows):
        for c in range(cols):
            page.click(f"[data-test=draw-cell][data-at='{r},{c}']")


def test_a_6x6_drawn_with_boxes_and_diagonals_chosen_is_solved_keeping_them(page: Any) -> None:
    layout = "# box: 3x2\n# extra: diagonals\n" + "0 0 0 0 0 0\n" * 6
    made = generate(read_puzzles(text=layout)[0], seed=3)
    puzzle = made.puzzle
    symbol = puzzle.grid.style.symbol
    givens = [
        (*puzzle.cell_rc[k].tolist(), symbol(int(v))) for k, v in enumerate(puzzle.givens) if v
    ]
    draw_cells(page, 6, 6)
    box = page.locator("[data-test=draw-box]")
    assert box.input_value() == ""  # found by ndoku: an empty 6×6 would be four 4×4 grids
    options = page.eval_on_selector_all("#draw-boxes option", "os => os.map(o => o.value)")
    assert {"2x3", "3x2", "2x2", "none", "jigsaw"} <= set(options)
    box.fill("3x2")
    page.check("[data-test=draw-diagonals]")
    assert page.input_value("[data-test=input]") == layout  # the choices as header lines
    expect(page.locator("[data-test=grid] [data-cell]")).to_have_count(36)
    for r, c, value in givens:
        click_cell(page, r, c)
        page.keyboard.press(value)
        expect(page.locator(f"[data-cell='{r},{c}']")).to_have_text(value)
    [typed] = read_puzzles(text=page.input_value("[data-test=input]"))
    assert (typed.givens == puzzle.givens).all() and typed.layout.box == (3, 2)
    assert [e.kind for e in typed.layout.extras] == ["diagonal", "diagonal"]
    # the server rewrote the text as each given was typed: the drawing read it back
    assert box.input_value() == "3x2" and page.is_checked("[data-test=draw-diagonals]")
    expect(page.locator("[data-test=draw-cell].on")).to_have_count(36)
    page.click("[data-test=solve]")
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("^solved"))
    values = grid_values(page, puzzle)
    verify(puzzle, values)  # every unit and given
    grid = values.reshape(6, 6)  # checked here too: both diagonals, the 3×2 boxes
    assert sorted(np.diag(grid)) == sorted(np.diag(grid[:, ::-1])) == list(range(1, 7))
    boxes = grid.reshape(2, 3, 3, 2).swapaxes(1, 2).reshape(6, 6)
    assert all(sorted(b) == list(range(1, 7)) for b in boxes.tolist())
    assert page.errors == []


def test_a_jigsaw_and_an_extra_unit_painted_and_the_text_read_back(page: Any) -> None:
    page.fill("[data-test=input]", "0 0 0 0\n" * 4)  # typed: the canvas follows the text
    expect(page.locator("[data-test=draw-cell].on")).to_have_count(16)
    page.locator("[data-test=draw-box]").fill("jigsaw")  # the boxes, to paint over
    text = page.locator("[data-test=input]")
    seeded = "a a b b\na a b b\nc c d d\nc c d d\n"
    assert text.input_value() == "0 0 0 0\n" * 4 + "\n" + seeded
    for letter, (r, c) in [("b", (1, 1)), ("a", (0, 2))]:
        page.fill("[data-test=draw-letter]", letter)
        page.click(f"[data-test=draw-cell][data-at='{r},{c}']")
    page.select_option("[data-test=draw-paint]", "units")
    page.fill("[data-test=draw-letter]", "x")
    for r in range(4):
        page.click(f"[data-test=draw-cell][data-at='{r},{3 - r}']")
    regions = "a a a b\na b b b\nc c d d\nc c d d\n"
    unit = ". . . x\n. . x .\n. x . .\nx . . .\n"
    assert text.input_value() == "0 0 0 0\n" * 4 + "\n" + regions + "\n" + unit
    [puzzle] = read_puzzles(text=text.input_value())
    assert puzzle.layout.regions is not None and puzzle.layout.regions[1].tolist() == [0, 1, 1, 1]
    assert [e.cells for e in puzzle.layout.extras] == [((0, 3), (1, 2), (2, 1), (3, 0))]
    page.click("[data-test=solve]")  # no given: one of its solutions, drawn
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("^multiple"))
    values = grid_values(page, puzzle)
    verify(puzzle, values)
    assert sorted(values.reshape(4, 4)[::-1].diagonal()) == [1, 2, 3, 4]  # the unit painted
    # the text edited by hand, or a layout picked: the canvas and the choices follow it
    page.fill("[data-test=input]", "# box: 2x2\n# extra: diagonals\n" + "0 0 0 0\n" * 4)
    expect(page.locator("[data-test=draw-box]")).to_have_value("2x2")
    assert page.is_checked("[data-test=draw-diagonals]")
    assert page.locator("[data-test=draw-cell].unit").count() == 0
    page.select_option("[data-test=layout]", "twodoku")
    twodoku = layout_puzzle("twodoku")
    expect(page.locator("[data-test=draw-cell].on")).to_have_count(twodoku.n_cells)
    expect(page.locator("[data-test=draw-cell]")).to_have_count(twodoku.index.size)
    assert not page.is_checked("[data-test=draw-diagonals]")
    assert page.errors == []


def test_the_solution_downloads_as_text_and_png(page: Any, tmp_path: Path) -> None:
    four = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
    [puzzle] = read_puzzles(text=four)
    page.fill("[data-test=input]", four)
    page.click("[data-test=solve]")
    expect(page.locator("[data-test=result]")).to_have_text(re.compile("^solved"))
    with page.expect_download() as text:
        page.click("[data-test=save-text]")
    [solved] = read_puzzles(text=Path(text.value.path()).read_text())
    verify(puzzle, solved.givens)
    with page.expect_download() as png:
        page.click("[data-test=save-png]")
    assert png.value.suggested_filename == "puzzle.png"
    assert Path(png.value.path()).read_bytes().startswith(b"\x89PNG")
    assert page.errors == []


def test_the_puzzle_is_given_as_an_fpuzzles_link(page: Any) -> None:
    page.fill("[data-test=input]", NINE)
    page.click("[data-test=save-fpuzzles]")
    link = page.locator("[data-test=link]")
    expect(link).to_be_visible()
    assert link.input_value().startswith("https://www.f-puzzles.com/?load=")
    assert page.errors == []


def test_a_bad_puzzle_shows_its_error_at_its_line(page: Any) -> None:
    page.fill("[data-test=input]", "1 2 3 4\n3 4 x 2\n2 1 4 3\n4 3 2 1\n")
    error = page.locator("[data-test=error]")
    error.wait_for(state="visible")
    assert "Error: line 2, column 5: unknown token 'x'" in error.text_content()
    assert error.get_attribute("data-line") == "2"
    # the faulty character is selected in the text box
    box = page.locator("[data-test=input]")
    assert box.evaluate("b => [b.selectionStart, b.selectionEnd]") == [12, 13]


def test_an_upload_over_a_megabyte_is_refused(page: Any) -> None:
    big = ("0" * 80 + "\n") * 26_000  # 2.1 MB of one-line puzzles
    page.set_input_files(
        "[data-test=file]", {"name": "big.txt", "mimeType": "text/plain", "buffer": big.encode()}
    )
    error = page.locator("[data-test=error]")
    error.wait_for(state="visible")
    assert "over 1,000,000 bytes" in error.text_content()
