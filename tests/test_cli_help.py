"""Help lists exactly what the program accepts: every choice of every option, and every level
the help texts name, run through the command."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ndoku.cli import main
from ndoku.solvers.logic import LEVELS

PUZZLE = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


def _choices() -> list[tuple[str, str, str]]:
    """(command, option, choice) for every ``click.Choice`` of every command."""
    found = []
    for name, command in sorted(main.commands.items()):
        for param in command.params:
            if isinstance(param, click.Option) and isinstance(param.type, click.Choice):
                found += [(name, param.opts[0], str(c)) for c in param.type.choices]
    return found


def _run(name: str, *arguments: str) -> tuple[int, str]:
    """Exit status and all output of ``ndoku NAME`` on the 4×4 (or the 4x4 layout), with a
    timeout when the command takes one."""
    command = main.commands[name]
    takes = [p.name for p in command.params if isinstance(p, click.Argument)]
    where = ["4x4"] if takes == ["layout"] else ["-"] if takes else []
    if any(p.name == "timeout" for p in command.params) and "--timeout" not in arguments:
        arguments += ("--timeout", "20")
    result = CliRunner().invoke(main, [name, *where, *arguments], input=PUZZLE)
    return result.exit_code, result.output


def test_every_choice_is_listed() -> None:
    listed = {(name, option) for name, option, _ in _choices()}
    # those the program checks itself, as a person would expect
    assert ("solve", "--method") in listed and ("generate", "--symmetry") in listed


@pytest.mark.parametrize(("name", "option", "choice"), _choices())
def test_every_choice_runs(name: str, option: str, choice: str, tmp_path: Path) -> None:
    extra = {"--schedule": ["--method", "metropolis"], "--moves": ["--method", "metropolis"]}
    extra |= {"--restarts": ["--method", "hybrid"], "--propagation": ["--branching", "mrv"]}
    extra |= {"--paper": ["-o", str(tmp_path / "book.pdf")]}
    code, output = _run(name, option, choice, *extra.get(option, []))
    assert code == 0, output
    assert "Error" not in output


def _levels_in(help_text: str, before: str, after: str) -> list[str]:
    """The levels a help text lists between ``before`` and ``after``, as written."""
    text = " ".join(help_text.split())
    listed = text.split(before, 1)[1].split(after, 1)[0]
    return [w.strip() for w in re.split(r",| or ", listed) if w.strip()]


def test_generate_help_lists_exactly_the_levels() -> None:
    _, output = _run("generate", "--help")
    levels = _levels_in(output, "path has this level:", "(see")
    assert levels == list(LEVELS)


def test_rate_help_lists_exactly_the_levels() -> None:
    _, output = _run("rate", "--help")
    listed = _levels_in(output, "what the path needs:", "when it had to guess")
    assert [w.removeprefix("or ").strip() for w in listed] == list(LEVELS)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_is_accepted(level: str) -> None:
    """Each level the help names is asked for: the answer is a 4×4 of that level, or the
    closest one with exit status 1 (a 4×4 may need no more than singles), never an error
    about the name."""
    ruled = ["--rules", "killer"] if level == "rules" else []  # the level of rule techniques
    code, output = _run("generate", "--difficulty", level, "--timeout", "2", *ruled)
    assert code in (0, 1), output
    assert "unknown" not in output and "Error" not in output
