"""The JSON records that the commands and the web API both give: a generated puzzle, a hint,
a rating, the list of layouts (what ``.record()`` of a task's own result does not make).
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ndoku.tasks.explain import Explanation
    from ndoku.tasks.generate import Generated
    from ndoku.tasks.rate import Rating
    from ndoku.tasks.thinning import Aim


def generated_record(
    made: Generated,
    layout: str,
    seed: int,
    givens: int | None,
    aim: Aim | None,
    symmetry: str,
    rules: str | None = None,
) -> dict[str, Any]:
    """A generated puzzle as ``ndoku generate --format json`` writes it: what was asked
    (``layout``, ``seed``, the ``givens`` target, the ``aim``, ``symmetry``, ``rules``), what
    was reached, the puzzle, its verified solution (without the rules: they are the
    puzzle's) and its rating."""
    record: dict[str, Any] = {"layout": layout, "seed": seed}
    record |= {"givens": made.givens, "target": givens}
    # the names as the library knows them (whatever their case when typed)
    record["difficulty"] = None if aim is None else aim.level
    record["needs"] = None if aim is None else aim.needs
    record |= {"symmetry": symmetry, "rules": rules}
    record |= {"stop": made.stop, "reached": made.reached}
    record |= {"attempts": made.attempts, "seconds": round(made.seconds, 6)}
    record["puzzle"] = made.text
    record["solution"] = made.puzzle.text(made.solution, rules=False).rstrip("\n")
    record["rating"] = made.rating.record()
    return record


def generate_command(
    layout: str,
    seed: int,
    givens: int | None,
    difficulty: str | None,
    needs: str | None,
    symmetry: str,
    rules: str | None = None,
) -> str:
    """The command that makes this one puzzle again (for the puzzle's comment line).

    >>> generate_command("9x9", 4, None, "fish", None, "mirror")
    'ndoku generate 9x9 --seed 4 --difficulty fish --symmetry mirror'
    >>> generate_command("samurai", 0, None, None, None, "none", "killer")
    'ndoku generate samurai --seed 0 --rules killer'
    """
    words = ["ndoku generate", layout, f"--seed {seed}"]
    if givens is not None:
        words.append(f"--givens {givens}")
    if difficulty is not None:
        words.append(f"--difficulty {shlex.quote(difficulty)}")
    if needs is not None:
        words.append(f"--needs {shlex.quote(needs)}")
    if symmetry != "none":
        words.append(f"--symmetry {symmetry}")
    if rules is not None:
        words.append(f"--rules {rules}")
    return " ".join(words)


def rating_record(rating: Rating) -> dict[str, Any]:
    """A rating as ``ndoku rate --format json`` writes it: its record and its seconds."""
    return rating.record() | {"seconds": round(rating.seconds, 6)}


def hint_record(told: Explanation) -> dict[str, Any]:
    """The next step of an explanation as ``ndoku hint --format json`` writes it: the first
    step's record, or ``step`` None and why there is none (solved, or the path's summary).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> from ndoku.tasks.explain import explain
    >>> [p] = read_puzzles(text="1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 0\\n")
    >>> hint_record(explain(p, most_steps=1))["step"]
    1
    >>> [p] = read_puzzles(text="1 2 3 4\\n3 4 1 2\\n2 1 4 3\\n4 3 2 1\\n")
    >>> hint_record(explain(p, most_steps=1))
    {'step': None, 'text': 'nothing left to do: the grid is solved'}
    """
    if told.path.steps:
        return told.record(0)
    what = "nothing left to do: the grid is solved" if told.path.solved else told.summary()
    return {"step": None, "text": what}


def layout_records() -> list[dict[str, Any]]:
    """Every layout ``ndoku layouts`` lists (bundled, and those of ``$NDOKU_LAYOUTS``), in
    its order: by sub-grids, then cells, then name.

    >>> [r["layout"] for r in layout_records()][:1]
    ['4x4']
    """
    from ndoku.model.frame import Frame
    from ndoku.model.layout import available_layouts, load_layout

    records = []
    for name in available_layouts():
        lay = load_layout(name)  # each file read once
        records.append(
            {
                "layout": name,
                "canvas": list(lay.shape),
                "size": lay.size,
                "sub_grids": len(lay.corners),
                "boxes": lay.boxes_text(),
                "extras": lay.extras_text() or None,
                "cells": lay.cells,
                "units": len(Frame.of(lay).units),
                "description": lay.description,
            }
        )
    records.sort(key=lambda r: (r["sub_grids"], r["cells"], r["layout"]))
    return records
