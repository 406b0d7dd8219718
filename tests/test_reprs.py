"""Jupyter's rich display: puzzles and outcomes as SVG, outcomes without a plain answer, chain
results, ratings and explanations as HTML, each a document that parses and shows its figures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from html import escape

import numpy as np
import pytest

from ndoku import Options, metropolis, rate, solve, tempering
from ndoku.model.puzzle import Puzzle
from ndoku.tasks.explain import explain
from ndoku.text.html import block, chart, figures, ordered, title

from helpers import kaggle, puzzle_of

SVG = "{http://www.w3.org/2000/svg}"
FOUR = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
#: No value fits r1c1: 2 in its row, 3 and 1 in its column, 4 in its box.
NO_SOLUTION = "0 2 0 0\n0 4 0 0\n3 0 0 0\n1 0 0 0\n"


def _symbols(puzzle: Puzzle, values: np.ndarray) -> Counter[str]:
    return Counter(puzzle.grid.style.symbol(int(v)) for v in values if v)


def _texts(svg: ET.Element, bold: bool | None = None) -> Counter[str]:
    """The texts of an SVG's labels; only the bold ones (givens), or only the others."""
    found: Counter[str] = Counter()
    for group in svg.iter(f"{SVG}g"):
        if bold is None or (group.get("font-weight") == "bold") == bold:
            found.update(t.text or "" for t in group.iter(f"{SVG}text"))
    return found


def _svg_in(shown: str) -> ET.Element:
    """The one SVG document inside an HTML block (which parses as XML itself)."""
    [svg] = ET.fromstring(shown).iter(f"{SVG}svg")
    return svg


@pytest.mark.parametrize("text", [FOUR, kaggle(0)[0].text()], ids=["4x4", "9x9"])
def test_a_puzzle_draws_its_givens_bold(text: str) -> None:
    puzzle = puzzle_of(text)
    svg = ET.fromstring(puzzle._repr_svg_())
    assert svg.tag == f"{SVG}svg"
    assert _texts(svg, bold=True) == _symbols(puzzle, puzzle.givens)
    givens = int((puzzle.givens > 0).sum())
    assert f"{givens} givens" in "".join(_texts(svg))  # the caption under it


def test_a_puzzle_draws_its_rules() -> None:
    puzzle = puzzle_of(FOUR + "\ncage 7: r1c2 r1c3\n")
    assert "7" in _texts(ET.fromstring(puzzle._repr_svg_()), bold=False)  # the cage's sum


def test_a_puzzle_without_a_drawing_lent_shows_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("ndoku.model.puzzle._DRAWINGS", [])
    assert puzzle_of(FOUR)._repr_svg_() is None


def test_a_solved_outcome_draws_givens_apart_from_filled_cells() -> None:
    puzzle, solution = kaggle(0)
    outcome = solve(puzzle)
    svg = ET.fromstring(outcome._repr_svg_())
    filled = np.where(puzzle.givens > 0, 0, outcome.values)
    assert _texts(svg, bold=True) == _symbols(puzzle, puzzle.givens)
    assert _symbols(puzzle, filled) <= _texts(svg, bold=False)
    assert sum(_texts(svg).values()) == puzzle.n_cells + 1  # every value, and the caption
    assert "".join(solution) == "".join(puzzle.text(outcome.values).split())
    assert any(t.startswith("solved by auto") for t in _texts(svg))
    assert outcome._repr_html_() is None  # its SVG shows


def test_an_outcome_without_a_solution_says_so() -> None:
    outcome = solve(puzzle_of(NO_SOLUTION))
    shown = outcome._repr_html_()
    assert shown is not None
    assert "<strong>none</strong>" in shown
    assert escape(outcome.message() or "") in shown
    assert _texts(_svg_in(shown), bold=True) == _symbols(outcome.puzzle, outcome.puzzle.givens)


def test_an_unsolved_chain_outcome_says_its_status() -> None:
    puzzle, _ = kaggle(0)
    outcome = solve(puzzle, "metropolis", Options(max_proposals=50))
    assert outcome.status == "unsolved"
    shown = outcome._repr_html_()
    assert shown is not None
    message = outcome.message()
    assert message is not None and message.startswith("unsolved: stopped by the proposal limit")
    assert escape(message) in shown
    svg = _svg_in(shown)  # the best grid reached, under its caption
    assert any(t.startswith("best grid reached") for t in _texts(svg))
    assert _symbols(puzzle, outcome.values) <= _texts(svg)


def test_a_traced_chain_shows_its_figures_and_energy() -> None:
    result = metropolis(puzzle_of(FOUR), seed=1, trace_every=1)
    shown = result._repr_html_()
    root = ET.fromstring(shown)
    figures = {th.text: td.text for th, td in zip(root.iter("th"), root.iter("td"), strict=True)}
    assert figures["proposals"] == f"{result.proposals:,}"
    assert figures["seed"] == "1"
    assert figures["energy"] == "0 (0 is solved)"
    assert (root.find("p/strong").text, figures["best energy"].split(",")[0]) == ("solved", "0")
    [line] = _svg_in(shown).iter(f"{SVG}polyline")
    points = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
    assert len(points) == len(result.trace)
    heights = [y for _, y in points]  # energy up is y down, energy 0 at the foot
    assert np.corrcoef(result.trace[:, 1], heights)[0, 1] < -0.999
    assert heights[-1] == max(heights)


def test_an_untraced_chain_says_it_kept_no_trace() -> None:
    shown = metropolis(puzzle_of(FOUR), seed=1)._repr_html_()
    assert "No trace" in shown and "<polyline" not in shown
    ET.fromstring(shown)


def test_tempering_shows_its_ladder_and_exchanges() -> None:
    result = tempering(puzzle_of(FOUR), seed=1, prune=False, trace_every=10)
    shown = result._repr_html_()
    root = ET.fromstring(shown)
    figures = {th.text: td.text for th, td in zip(root.iter("th"), root.iter("td"), strict=True)}
    assert figures["ladder"] == ", ".join(f"{t:g}" for t in result.ladder)
    assert "exchanges taken" in figures
    assert figures["proposals"] == f"{result.proposals:,}"
    assert len(list(_svg_in(shown).iter(f"{SVG}polyline"))) == 1


def test_a_rating_lists_its_level_score_and_techniques() -> None:
    rating = rate(puzzle_of(FOUR))
    root = ET.fromstring(rating._repr_html_())
    said = "".join(root.itertext())
    assert rating.headline() in said
    figures = {th.text: td.text for th, td in zip(root.iter("th"), root.iter("td"), strict=True)}
    assert (figures["level"], figures["score"]) == (rating.level, f"{rating.score:.1f}")
    items = [li.text for li in root.iter("li")]
    assert items == [f"{name} ×{k}" for name, k in rating.counts.items()]


def test_an_unrated_puzzle_says_why() -> None:
    rating = rate(puzzle_of(NO_SOLUTION))
    shown = rating._repr_html_()
    assert "not rated (no solution)" in shown and "<ol>" not in shown
    ET.fromstring(shown)


def test_an_explanation_lists_every_step_in_order() -> None:
    told = explain(kaggle(0)[0])
    root = ET.fromstring(told._repr_html_())
    [ol] = root.iter("ol")
    items = list(ol.iter("li"))
    assert [li.text for li in items] == [told.text(k) + " " for k in range(len(told.path.steps))]
    assert [li.find("span").text for li in items] == [f"({s.rating:g})" for s in told.path.steps]
    assert told.summary() in "".join(root.itertext())


def test_text_is_escaped() -> None:
    shown = block(
        title("<b>", "a & b"),
        figures([("x<y", '"q"')]),
        ordered([("</li>", "<")]),
        chart(np.array([0.0, 1.0]), np.array([1.0, 0.0]), "<x>", "&y"),
    )
    root = ET.fromstring(shown)
    said = "".join(root.itertext())
    for text in ("<b>", "a & b", "x<y", '"q"', "</li>", "&y by <x>"):
        assert text in said
