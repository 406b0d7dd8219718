"""Golden outputs: every command over the bundled layouts and examples prints what it printed
when the files in ``tests/golden/`` were written (exit status, stdout and stderr).

Timings are masked; everything else must match byte for byte. After a change that is meant
to change an output, rewrite the files with ``python tests/test_golden.py`` and review the
diff.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from ndoku.cli import main

ROOT = Path(__file__).parent.parent
GOLDEN = Path(__file__).parent / "golden"
JANKO = "tests/data/janko"
SUKAKU = "tests/data/sukaku/diabolical1_step20"

#: (name, arguments). Paths are relative to the repository root.
COMMANDS: list[tuple[str, list[str]]] = [
    ("layouts", ["layouts"]),
    *(
        (f"show-{path.stem}", ["show", f"layouts/{path.name}"])
        for path in sorted((ROOT / "layouts").glob("*.txt"))
    ),
    ("solve-samurai", ["solve", "examples/samurai.txt"]),
    ("solve-samurai-pretty", ["solve", "examples/samurai.txt", "--pretty"]),
    ("solve-samurai-json", ["solve", "examples/samurai.txt", "--format", "json"]),
    ("solve-euler50", ["solve", "examples/data/euler50.txt"]),
    ("solve-euler50-json", ["solve", "examples/data/euler50.txt", "--format", "json"]),
    ("solve-kaggle50", ["solve", "examples/data/kaggle50.txt"]),
    ("solve-two-files", ["solve", "examples/samurai.txt", f"{JANKO}/jigsaw/93_9x9.puzzle.txt"]),
    *(
        (f"solve-janko-{kind}", ["solve", f"{JANKO}/{kind}/{name}", "--pretty"])
        for kind, name in [
            ("16x16", "301_16x16.puzzle.txt"),
            ("butterfly", "2_12x12.puzzle.txt"),
            ("gattai8", "1_21x33.puzzle.txt"),
            ("jigsaw", "93_9x9.puzzle.txt"),
            ("shogun", "1_21x45.puzzle.txt"),
            ("sohei", "1_21x21.puzzle.txt"),
            ("sumo", "1_33x33.puzzle.txt"),
            ("windmill", "1_21x21.puzzle.txt"),
        ]
    ),
    (
        "solve-janko-windmill-declared",
        ["solve", f"{JANKO}/windmill/1_21x21.puzzle.txt", "--layout", "windmill", "--pretty"],
    ),
    ("solve-multiple", ["solve", "layouts/9x9.txt", "--max-nodes", "50"]),
    ("solve-multiple-unique", ["solve", "layouts/4x4.txt", "--unique"]),
    ("solve-multiple-json", ["solve", "layouts/4x4.txt", "--format", "json"]),
    (
        "solve-hardest-limit",
        ["solve", "tests/data/sudoku9/norvig_hardest11.txt", "--max-nodes", "3"],
    ),
    (
        "solve-metropolis-json",
        [
            "solve",
            "examples/samurai.txt",
            "--method",
            "metropolis",
            "--seed",
            "1",
            "--format",
            "json",
        ],
    ),
    (
        "solve-metropolis-pretty",
        ["solve", "examples/samurai.txt", "--method", "metropolis", "--pretty"],
    ),
    (
        "solve-metropolis-unsolved",
        [
            "solve",
            "examples/samurai.txt",
            "--method",
            "metropolis",
            "--max-proposals",
            "2000",
            "--pretty",
        ],
    ),
    (
        "solve-runs",
        ["solve", f"{JANKO}/jigsaw/93_9x9.puzzle.txt", "--method", "metropolis", "--runs", "3"],
    ),
    (
        "solve-single-schedule",
        [
            "solve",
            f"{JANKO}/jigsaw/94_9x9.puzzle.txt",
            "--method",
            "metropolis",
            "--moves",
            "single",
            "--schedule",
            "exponential",
            "--alpha",
            "0.999",
            "--t0",
            "0.5",
            "--format",
            "json",
            "--max-proposals",
            "200000",
        ],
    ),
    (
        "solve-hybrid-json",
        ["solve", "examples/samurai.txt", "--method", "hybrid", "--format", "json"],
    ),
    (
        "solve-tempering-json",
        [
            "solve",
            f"{JANKO}/16x16/301_16x16.puzzle.txt",
            "--method",
            "tempering",
            "--format",
            "json",
        ],
    ),
    ("solve-chain-option-refused", ["solve", "examples/samurai.txt", "--reheat", "5"]),
    ("solve-missing-file", ["solve", "no/such/file.txt"]),
    ("count-samurai", ["count", "examples/samurai.txt"]),
    ("count-euler-json", ["count", "examples/data/euler50.txt", "--format", "json"]),
    ("count-4x4-limit", ["count", "layouts/4x4.txt", "--limit", "5"]),
    ("rate-samurai", ["rate", "examples/samurai.txt"]),
    ("rate-euler", ["rate", "examples/data/euler50.txt", "--chains", "0"]),
    ("rate-jigsaw-json", ["rate", f"{JANKO}/jigsaw/93_9x9.puzzle.txt", "--format", "json"]),
    ("graph-samurai", ["graph", "examples/samurai.txt"]),
    ("hint-sukaku-pretty", ["hint", f"{SUKAKU}.sukaku.txt", "--pretty"]),
    ("hint-hodoku-json", ["hint", f"{SUKAKU}.hodoku.txt", "--format", "json"]),
    ("show-marks-sukaku", ["show", f"{SUKAKU}.sukaku.txt"]),
    ("generate-9x9", ["generate", "9x9", "--seed", "3"]),
    ("generate-4x4-line", ["generate", "4x4", "--count", "3", "--format", "line"]),
    ("generate-6x6-json", ["generate", "6x6", "--seed", "2", "--format", "json"]),
    (
        "generate-jigsaw-symmetry",
        ["generate", "jigsaw9", "--seed", "1", "--symmetry", "rotational"],
    ),
    ("generate-9x9-subsets", ["generate", "9x9", "--seed", "5", "--difficulty", "subsets"]),
    ("generate-9x9-needs", ["generate", "9x9", "--seed", "2", "--needs", "X-wing"]),
]

_MASKS = [
    (re.compile(r'"(seconds|proposals_per_second)": [0-9.e+-]+'), r'"\1": #'),
    (re.compile(r"\b\d+\.\d+ (m?s)\b"), r"# \1"),
    (re.compile(r"^ndoku: compiling .*\n", re.MULTILINE), ""),
]


def mask(text: str) -> str:
    """``text`` with timings replaced by ``#`` and compile notices left out."""
    for pattern, replacement in _MASKS:
        text = pattern.sub(replacement, text)
    return text


def run(arguments: list[str]) -> str:
    """The command's exit status, stdout and stderr as one masked text."""
    result = CliRunner().invoke(main, arguments)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return mask(
        f"$ ndoku {' '.join(arguments)}\n# exit {result.exit_code}\n# stdout\n{result.stdout}"
        f"# stderr\n{result.stderr}"
    )


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize(("name", "arguments"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_output_unchanged(name: str, arguments: list[str]) -> None:
    assert run(arguments) == (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


def test_every_golden_file_has_a_command() -> None:
    names = {name for name, _ in COMMANDS}
    assert len(names) == len(COMMANDS)
    assert {path.stem for path in GOLDEN.glob("*.txt")} == names


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    GOLDEN.mkdir(exist_ok=True)
    for path in GOLDEN.glob("*.txt"):
        path.unlink()
    for name, arguments in COMMANDS:
        (GOLDEN / f"{name}.txt").write_text(run(arguments), encoding="utf-8")
        print(name, file=sys.stderr)
