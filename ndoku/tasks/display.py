"""How puzzles and the tasks' results show themselves in Jupyter: a puzzle and an outcome
drawn as SVG, an outcome without a plain answer, a rating and an explanation as HTML.

IPython shows an object by its ``_repr_svg_`` or ``_repr_html_`` (no IPython import is
needed): :class:`~ndoku.tasks.solve.Outcome`, :class:`~ndoku.tasks.rate.Rating` and
:class:`~ndoku.tasks.explain.Explanation` take theirs from here. A puzzle draws itself from
below: the model cannot import pictures (they sit above it), so this module lends it
:func:`puzzle_svg` (:func:`ndoku.model.puzzle.draw_with`) when it is imported, which
importing :mod:`ndoku` does. The pictures are those the commands draw
(:mod:`ndoku.tasks.pictures`), imported when first shown: importing ndoku does not wait
for them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ndoku.model.puzzle import Puzzle, draw_with
from ndoku.text import html
from ndoku.text.words import plural

if TYPE_CHECKING:
    from ndoku.tasks.explain import Explanation
    from ndoku.tasks.rate import Rating
    from ndoku.tasks.solve import Outcome


def puzzle_svg(puzzle: Puzzle) -> str:
    """The puzzle as the commands draw it (givens, pencil marks, variant rules) as an SVG
    document, its layout and givens under it.

    Examples
    --------
    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> svg = puzzle_svg(p)
    >>> svg.startswith("<svg"), "4×4 · 4 givens" in svg
    (True, True)
    """
    from ndoku.picture.svg import to_svg
    from ndoku.tasks.pictures import caption, puzzle_picture

    return to_svg(puzzle_picture(puzzle, footer=caption(puzzle)))


def outcome_svg(outcome: Outcome) -> str:
    """The outcome drawn as the commands draw it, as an SVG document: the solution over the
    puzzle (givens bold, filled cells coloured), or the best grid an unsolved chain reached
    (its conflicts red), else the givens; the caption under it says how it was solved, or
    why not (:meth:`~ndoku.tasks.solve.Outcome.caption`).

    Examples
    --------
    >>> from ndoku import read_puzzles, solve
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> "solved by auto" in solve(p)._repr_svg_()
    True
    """
    from ndoku.picture.svg import to_svg
    from ndoku.tasks.pictures import puzzle_picture

    scene = puzzle_picture(outcome.puzzle, outcome.drawn(), footer=outcome.caption())
    return to_svg(scene)


def outcome_html(outcome: Outcome) -> str | None:
    """An outcome that is not simply solved: its status and the sentence saying why
    (:meth:`~ndoku.tasks.solve.Outcome.message`) over its drawing; None for a solved one,
    which shows as its SVG (:func:`outcome_svg`).

    Examples
    --------
    >>> from ndoku import read_puzzles, solve
    >>> [p] = read_puzzles(text="0 2 0 0\\n0 4 0 0\\n3 0 0 0\\n1 0 0 0\\n")
    >>> "no solution: the givens contradict each other" in solve(p)._repr_html_()
    True
    """
    said = outcome.message()
    if said is None:
        return None
    return html.block(html.title(outcome.status, said), outcome_svg(outcome))


def rating_html(rating: Rating) -> str:
    """A rating as HTML: its headline, a table of its figures, and the techniques its path
    used, in the order of first use with their counts (a rating keeps no step's sentence:
    :func:`explanation_html` lists those).

    Examples
    --------
    >>> from ndoku import rate, read_puzzles
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> "<li>hidden single" in rate(p)._repr_html_()
    True
    """
    head = html.title("Rating", rating.headline())
    rows = [("status", rating.status)]
    if rating.level is not None and rating.score is not None:
        bound = "≥" if rating.lower_bound else ""
        rows += [("level", bound + rating.level), ("score", f"{bound}{rating.score:.1f}")]
        rows += [("hardest", rating.hardest or "nothing to solve")]
        path = plural(rating.steps, "step") + (" before the timeout" if rating.lower_bound else "")
        rows += [("path", path)]
    guesses = plural(rating.guesses, "guess", ",")
    rows.append(("search", f"{guesses}, {plural(rating.nodes, 'node', ',')}"))
    if rating.chains and rating.proposals is not None:
        at_least = "≥" if rating.at_least else ""
        proposals = plural(rating.proposals, "proposal", ",")
        solved = f"{rating.chains_solved} of {rating.chains} solved"
        rows.append(("chains", f"{at_least}{proposals} (median; {solved})"))
    rows.append(("seconds", f"{rating.seconds:.3f}"))
    used = [(f"{name} ×{k}", "") for name, k in rating.counts.items()]
    if not used:
        return html.block(head, html.figures(rows))
    said = html.note("Techniques, in the order of first use:")
    return html.block(head, html.figures(rows), said, html.ordered(used))


def explanation_html(told: Explanation) -> str:
    """A solving path as HTML: its summary, its level and hardest step's rating, and every
    step's sentence in an ordered list, each with its technique's rating.

    Examples
    --------
    >>> from ndoku import read_puzzles
    >>> from ndoku.tasks.explain import explain
    >>> [p] = read_puzzles(text="1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2\\n")
    >>> "<li>Hidden single: in box r1-2 c1-2, 3 can only go in r1c2." in explain(p)._repr_html_()
    True
    """
    path = told.path
    hardest = path.hardest
    rows = [("level", path.level), ("steps", str(len(path.steps))), ("stop", path.stop)]
    if hardest is not None:
        rows.append(("hardest", f"{hardest.technique} ({hardest.rating:g})"))
    steps = [(told.text(k), f"{s.rating:g}") for k, s in enumerate(path.steps)]
    return html.block(html.title(told.summary()), html.figures(rows), html.ordered(steps))


# Lent on import: the model shows puzzles by it, as it cannot import pictures itself.
draw_with(puzzle_svg)
