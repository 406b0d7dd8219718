"""The sentences of the steps of variant rules (:mod:`ndoku.solvers.logic.rules`): each names
its rule by its cells, says what the rule requires and what that removes.

:func:`ndoku.tasks.explain.describe` calls :func:`rule_sentence` with its own ways of naming
cells and units and the removals already said, so that every step names cells alike.
"""

from __future__ import annotations

from collections.abc import Callable

from ndoku.model.puzzle import Puzzle
from ndoku.model.rules import Rule, whisper_gap
from ndoku.solvers.logic.rules import RuleStep

#: What the negative constraint says of two neighbours without a mark, by constraint kind.
_NOT = {
    "not-difference": ("dot", "differ by {n}"),
    "not-ratio": ("black dot", "make a ratio of {n}"),
    "not-pair-sum": ("mark", "sum to {n}"),
}
_NEGATIVE_MARKS = {("not-difference", 1): "white dot", ("not-pair-sum", 10): "X",
                   ("not-pair-sum", 5): "V"}  # fmt: skip


def joined(words: list[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``.

    >>> joined(["r1c1", "r1c2", "r2c2"], "or")
    'r1c1, r1c2 or r2c2'
    """
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" {last} " + words[-1]


def digits_of(mask: int, symbol: Callable[[int], str]) -> list[str]:
    """The values of a bit mask (bit ``v - 1`` for v), as the puzzle writes them.

    >>> digits_of(0b10110, str)
    ['2', '3', '5']
    """
    return [symbol(v + 1) for v in range(mask.bit_length()) if mask >> v & 1]


def rule_sentence(
    puzzle: Puzzle,
    step: RuleStep,
    cell: Callable[[int], str],
    unit: Callable[[int], str],
    removed: str,
) -> str:
    """A rule step in one or two sentences (``cell`` and ``unit`` name a cell and a unit,
    ``removed`` says what the step removes)."""
    symbol = puzzle.grid.style.symbol
    name = step.technique[0].upper() + step.technique[1:]
    rule = puzzle.rules[step.rule] if step.rule >= 0 else None
    said = "" if rule is None else _rule_named(puzzle, rule, cell)
    combos = _combinations(step.combinations, symbol)
    if step.technique == "locked cage digit":
        digit = symbol(step.digits[0])
        places = joined([cell(c) for c in step.cells], "or")
        return (
            f"{name}: {said} can only be {combos} within its candidates, so it holds {digit}, "
            f"in {places}; so {removed}."
        )
    if step.technique == "cage digit from a unit":
        digit = symbol(step.digits[0])
        places = joined([cell(c) for c in step.cells], "or")
        return (
            f"{name}: in {unit(step.units[0])}, {digit} can only go in {places}, in {said}; so "
            f"the cage holds {digit} and can only be {combos} within its candidates; so "
            f"{removed}."
        )
    if step.implied is not None:
        why = _implied(puzzle, step, cell, unit)
        if step.technique == "rule assignments":
            return f"{name}: {why}; no assignment of these cells within their candidates " \
                   f"supports the rest; so {removed}."  # fmt: skip
        if combos:
            why += f", which within their candidates can only be {combos}"
        return f"{name}: {why}; so {removed}."
    assert rule is not None  # every step but an implied sum's has its rule
    if step.technique == "rule assignments":
        return (
            f"{name}: {said}: {_meaning(puzzle, rule, step, cell)}; no assignment of its cells "
            f"within their candidates (different digits where cells see each other) supports "
            f"the rest; so {removed}."
        )
    if step.technique == "cage combinations" and combos:
        fits = ""
        if step.assignments:
            ways = [
                " with ".join(
                    f"{cell(c)} = {symbol(v)}" for c, v in zip(step.cells, a, strict=True)
                )
                for a in step.assignments
            ]
            fits = f", placed as {joined(ways, 'or')}"
        return f"{name}: {said} can only be {combos} within its candidates{fits}; so {removed}."
    if rule.kind in ("negative", "nonconsecutive"):  # a rule of the whole grid: its pair
        return f"{name}: {_meaning(puzzle, rule, step, cell)}; so {removed}."
    return f"{name}: {said}: {_meaning(puzzle, rule, step, cell)}; so {removed}."


def _combinations(masks: tuple[int, ...], symbol: Callable[[int], str]) -> str:
    """``1+5+9 or 2+4+9``."""
    if not masks:
        return ""
    return joined(["+".join(digits_of(m, symbol)) for m in masks], "or")


def _rule_named(puzzle: Puzzle, rule: Rule, cell: Callable[[int], str]) -> str:
    """``the cage r1c1, r1c2 and r2c1 (sum 15)``, ``the thermometer r1c1 → r1c2``, …"""
    cells = [cell(c) for c in rule.cells]
    kind = rule.kind
    if kind == "cage":
        total = "" if rule.value is None else f" (sum {rule.value})"
        return f"the cage {joined(cells)}{total}"
    if kind in ("thermo", "slow-thermo"):
        slow = "slow " if kind == "slow-thermo" else ""
        return f"the {slow}thermometer {' → '.join(cells)}"
    if kind in ("whisper", "renban", "palindrome"):
        noun = {"whisper": "German whisper", "renban": "renban", "palindrome": "palindrome"}[kind]
        return f"the {noun} line {' – '.join(cells)}"
    if kind == "arrow":
        circle = joined(cells[: rule.head])
        return f"the arrow from {circle} along {' – '.join(cells[rule.head :])}"
    if kind in ("white", "black", "x", "v"):
        noun = {"white": "white dot", "black": "black dot", "x": "X", "v": "V"}[kind]
        return f"the {noun} between {cells[0]} and {cells[1]}"
    if kind in ("even", "odd"):
        return f"the {kind} {'cell' if len(cells) == 1 else 'cells'} {joined(cells)}"
    if kind in ("negative", "nonconsecutive"):
        return "the negative constraint" if kind == "negative" else "the non-consecutive rule"
    clue = {"little-killer": "little killer", "outside-sum": "outside sum"}.get(kind, kind)
    noun = clue if kind in ("little-killer", "outside-sum", "region") else f"{kind} clue"
    number = "" if rule.value is None else f" {rule.value}"
    return f"the {noun}{number} on {joined(cells)}"


def _meaning(puzzle: Puzzle, rule: Rule, step: RuleStep, cell: Callable[[int], str]) -> str:
    """What the rule requires of its cells, in words."""
    symbol = puzzle.grid.style.symbol
    kind = rule.kind
    n = rule.value
    size = puzzle.size
    if kind in ("even", "odd"):
        return f"{'they hold' if len(rule.cells) > 1 else 'it holds'} {kind} digits"
    if kind in ("negative", "nonconsecutive"):
        pair = step.constraints[0]
        a, b = (cell(c) for c in pair.cells)
        relation = _NOT[pair.kind][1].format(n=pair.number)
        if kind == "nonconsecutive":
            return f"{a} and {b} are neighbours, so they do not {relation}"
        mark = _NEGATIVE_MARKS.get((pair.kind, pair.number), _NOT[pair.kind][0])
        return f"no {mark} joins {a} and {b}, so they do not {relation}"
    if kind == "white":
        return f"they differ by {1 if n is None else n}"
    if kind == "black":
        return f"one is {2 if n is None else n} times the other"
    if kind in ("x", "v"):
        return f"they sum to {n if n is not None else 10 if kind == 'x' else 5}"
    if kind == "thermo":
        return "its digits rise from the bulb"
    if kind == "slow-thermo":
        return "its digits never fall from the bulb"
    if kind == "whisper":
        return f"neighbours on it differ by {whisper_gap(size) if n is None else n} or more"
    if kind == "palindrome":
        pairs = [c.cells for c in step.constraints if c.kind == "equal"]
        return "it reads the same both ways: " + joined(
            [f"{cell(a)} = {cell(b)}" for a, b in pairs]
        )
    if kind == "renban":
        return "its digits differ and are consecutive, in any order"
    if kind == "arrow":
        return "the circle's number is the sum of the digits on the arrow (which may repeat)"
    if kind in ("little-killer", "outside-sum"):
        return f"its digits sum to {n} (they may repeat)"
    if kind == "sandwich":
        return f"the digits between the {symbol(1)} and the {symbol(size)} sum to {n}"
    if kind == "skyscraper":
        return f"{n} of its digits are larger than every digit before them"
    if kind == "cage" and n is not None:
        return f"its digits differ and sum to {n}"
    return "its digits differ"


def _implied(
    puzzle: Puzzle, step: RuleStep, cell: Callable[[int], str], unit: Callable[[int], str]
) -> str:
    """Why an implied sum holds: the units' total and the cages it takes away."""
    implied = step.implied
    assert implied is not None
    size = puzzle.size
    total = len(implied.units) * size * (size + 1) // 2
    cages = [puzzle.lowered.constraints[k] for k in implied.cages]
    cage_sum = sum(c.number for c in cages)
    units = joined([unit(u) for u in implied.units])
    cells = joined([cell(c) for c in implied.constraint.cells])
    many = len(implied.units) > 1
    held = f"{units} hold{'' if many else 's'} each digit once per line, so {total} in all"
    count = len(cages)
    if implied.innies:
        return (
            f"{held}; the {count} cage{'s' if count > 1 else ''} inside sum to {cage_sum}, so "
            f"the other {'cells' if len(implied.constraint.cells) > 1 else 'cell'} {cells} "
            f"sum to {implied.constraint.number}"
        )
    return (
        f"{held}; the {count} cages that cover {'them' if many else 'it'} sum to {cage_sum}, "
        f"so their cells outside, {cells}, sum to {implied.constraint.number}"
    )
