"""Variant rules in the terminal's drawing: outside clues by the grid, cages as a map of
letters with their sums, and every other rule as its text line.

:func:`ndoku.tasks.render.draw` puts these together; here is what each part says.

Glossary
--------
name
    The letters a cage goes by in the map: ``a`` .. ``z``, ``A`` .. ``Z``, then ``aa``, ``ab``, …
"""

from __future__ import annotations

import string
from collections.abc import Sequence

from ndoku.model.puzzle import Puzzle
from ndoku.model.rules import Rule, rule_text

#: A little killer's arrow, by its step from the clue to its first cell.
ARROWS = {(1, -1): "↙", (1, 1): "↘", (-1, -1): "↖", (-1, 1): "↗"}
LETTERS = string.ascii_lowercase + string.ascii_uppercase


def clue_texts(puzzle: Puzzle) -> dict[tuple[int, int], str]:
    """The outside clues' numbers by their canvas places, a little killer's with an arrow
    along its diagonal; several at one place parted by ``/``.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0" * 16)
    >>> p = Puzzle(p.grid, p.frame, p.givens, rules=(Rule("sandwich", (0, 4, 8, 12), 3,
    ...     clue=(-1, 0)), Rule("little-killer", (1, 4), 6, clue=(-1, 2))))
    >>> clue_texts(p)
    {(-1, 0): '3', (-1, 2): '6↙'}
    """
    texts: dict[tuple[int, int], list[str]] = {}
    rc = puzzle.cell_rc
    for rule in puzzle.rules:
        if rule.clue is None:
            continue
        text = rule.text_value
        if rule.kind == "little-killer":
            r, c = (int(x) for x in rc[rule.cells[0]])
            text += ARROWS[r - rule.clue[0], c - rule.clue[1]]
        texts.setdefault(rule.clue, []).append(text)
    return {place: "/".join(parts) for place, parts in texts.items()}


def names(count: int) -> list[str]:
    """The first ``count`` cage names.

    >>> names(3), names(54)[-3:]
    (['a', 'b', 'c'], ['Z', 'aa', 'ab'])
    """
    out = []
    for k in range(1, count + 1):
        name = ""
        while k:  # k in base 52 with digits 1..52: a letter per digit
            k, digit = divmod(k - 1, len(LETTERS))
            name = LETTERS[digit] + name
        out.append(name)
    return out


def cage_map(puzzle: Puzzle) -> tuple[list[str], list[tuple[str, Rule]]]:
    """A cage name for each cell (``""`` outside every cage) and the cages the map holds,
    named, in order. A cage that shares a cell with one before it is left out (its text
    line says it, :func:`listed`).

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0" * 16)
    >>> cages = (Rule("cage", (0, 1), 3), Rule("cage", (1, 2), 7), Rule("cage", (4, 8)))
    >>> p = Puzzle(p.grid, p.frame, p.givens, rules=cages)
    >>> letters, named = cage_map(p)
    >>> letters[:5], [(name, rule.value) for name, rule in named]
    (['a', 'a', '', '', 'b'], [('a', 3), ('b', None)])
    """
    cages = []
    taken: set[int] = set()
    for rule in puzzle.rules:
        if rule.kind == "cage" and not taken.intersection(rule.cells):
            cages.append(rule)
            taken.update(rule.cells)
    letters = [""] * puzzle.n_cells
    named = list(zip(names(len(cages)), cages, strict=True))
    for name, rule in named:
        for cell in rule.cells:
            letters[cell] = name
    return letters, named


def cage_sums(named: Sequence[tuple[str, Rule]]) -> list[str]:
    """Each cage's name and sum (``a=15``; ``b=?`` without one).

    >>> cage_sums([("a", Rule("cage", (0, 1), 3)), ("b", Rule("cage", (2, 3)))])
    ['a=3', 'b=?']
    """
    return [f"{name}={rule.value if rule.value is not None else '?'}" for name, rule in named]


def listed(puzzle: Puzzle, shown: Sequence[Rule]) -> list[str]:
    """The text lines of the rules the drawing does not show otherwise: all but outside
    clues and the cages of ``shown``.

    >>> from ndoku.model.puzzle import read_puzzles
    >>> [p] = read_puzzles(text="0" * 16)
    >>> rules = (Rule("cage", (0, 1), 3), Rule("thermo", (4, 5, 6)), Rule("antiking"))
    >>> listed(Puzzle(p.grid, p.frame, p.givens, rules=rules), rules[:1])
    ['thermo: r2c1 r2c2 r2c3', 'antiking']
    """
    drawn = {id(rule) for rule in shown}
    return [
        rule_text(rule, puzzle.cell_rc)
        for rule in puzzle.rules
        if rule.clue is None and id(rule) not in drawn
    ]
