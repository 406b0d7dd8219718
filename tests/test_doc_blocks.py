"""Every fenced code block of README.md and docs/**/*.md runs, and shows what ndoku prints.

One test per block (its page and the line of its opening fence):

- **Shell sessions**: a line ``$ COMMAND`` (or ``host$ COMMAND``) is a command, the lines up
  to the next one what it prints. ``ndoku …`` runs in-process (click's CliRunner, from the
  repository root), its stdin from ``< FILE`` or from a pipe (``ndoku … |``, ``cat FILE |``,
  ``echo …|``); ``> FILE`` sends its stdout away; a ``# comment`` is no part of it. What it
  prints, masked as ``tests/test_golden.py`` masks it (timings), must match the lines shown,
  stdout alone or stdout and stderr as they came: ``…`` on a line of its own stands for any
  number of lines, and within a line for any text (a line ending in ``…`` matches every line
  that starts with what is before it). A command shown without output must exit with 0.
  Pictures and other files a command writes go to a folder of the test's own.

  A command is only parsed (its options must exist and take its values) when it cannot run
  here: it names an input file the repository does not hold (``puzzle.txt``, ``FILE``, a
  one-line puzzle cut with ``…``), it runs on another machine (``laptop$ …``), or the block
  is marked ``<!-- blocks: parse-only -->`` on the line before it (its run takes long).
  ``make``, ``pip``, ``python examples/…``, ``python -m benchmarks …`` and the tools of the
  venv are not run, but must name a make target, an extra, a file, a benchmark, a tool.
- **Python blocks**: run as a doctest when they hold ``>>>`` lines (ELLIPSIS and
  NORMALIZE_WHITESPACE; ``…`` in an expected output is ``...``), else executed, each in a
  fresh namespace from the repository root; marked parse-only, compiled and their ``ndoku``
  imports run.
- **Text blocks**: a whole one (no ``…``) must read as a puzzle, unless marked
  ``<!-- blocks: text -->`` (a grammar, a message, headers); ``<!-- blocks: excerpt FILE -->``
  marks one cut from a file of the repository, whose lines must appear in FILE in that
  order, ``…`` skipping lines. A block cut with ``…`` and not marked is not checked.

Identical commands and Python blocks run once per module.
"""

from __future__ import annotations

import ast
import doctest
import re
import shlex
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from ndoku import read_puzzles
from ndoku.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
CUT = "…"
#: ``…`` within a line, with the blanks around it: "Samurai (gattai-5) …" cuts the line there.
WILD = re.compile(r"[ \t]*…[ \t]*")

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
MARK = re.compile(r"^<!--\s*blocks:\s*(?P<mark>.+?)\s*-->$")
PROMPT = re.compile(r"^(?P<host>[\w.-]+)?\$ (?P<command>.*)$")
MAKE_LINE = re.compile(r"^make(?: [\w-]+)+$")
# Timings, as tests/test_golden.py masks them, and the compile notices of a first run.
MASKS = [
    (re.compile(r'"(seconds|proposals_per_second)": [0-9.e+-]+'), r'"\1": #'),
    (re.compile(r"\b\d+\.\d+ (m?s)\b"), r"# \1"),
    (re.compile(r"^ndoku: compiling .*\n", re.MULTILINE), ""),
]
#: Programs of the venv a block may name without ndoku running them (the dask extra's).
TOOLS = {"dask"}


# ---------------------------------------------------------------------------- the blocks


@dataclass(frozen=True)
class Block:
    page: str
    line: int  # of the opening fence, 1-based
    info: str
    lines: tuple[str, ...]
    mark: str  # the words of the <!-- blocks: … --> line before it, or ""

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    @property
    def kind(self) -> str:
        if self.info.split()[:1] in (["python"], ["pycon"], ["py"]):
            return "python"
        if any(PROMPT.match(line) for line in self.lines):
            return "shell"
        if self.lines and all(MAKE_LINE.match(line) for line in self.lines if line.strip()):
            return "shell"
        return "text"


def blocks_of(path: Path) -> Iterator[Block]:
    lines = path.read_text(encoding="utf-8").splitlines()
    page = path.relative_to(ROOT).as_posix()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        end = i + 1
        while end < len(lines) and lines[end].strip() != fence:
            end += 1
        body = tuple(
            line[len(indent) :] if line.startswith(indent) else line.lstrip()
            for line in lines[i + 1 : end]
        )
        before = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()), "")
        mark = MARK.match(before)
        yield Block(page, i + 1, opening["info"].strip(), body, mark["mark"] if mark else "")
        i = end + 1


BLOCKS = [block for page in PAGES for block in blocks_of(page)]


def test_the_pages_have_blocks() -> None:
    assert len(BLOCKS) > 50
    marks = {block.mark.split()[0] for block in BLOCKS if block.mark}
    assert marks <= {"parse-only", "text", "excerpt"}, marks


# ---------------------------------------------------------------------------- matching


def mask(text: str) -> str:
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def tidy(text: str) -> str:
    """``text`` with trailing blanks and blank last lines left out."""
    return "\n".join(line.rstrip() for line in text.splitlines()).strip("\n") + "\n"


def pattern_of(expected: list[str]) -> re.Pattern[str]:
    """The lines shown as a pattern: ``…`` alone any lines, within a line any text (the blanks
    around it too)."""
    parts = []
    for line in expected:
        line = mask(line.rstrip() + "\n").rstrip("\n")
        if line.strip() == CUT:
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            pieces = WILD.split(line)
            parts.append("[^\n]*".join(re.escape(piece) for piece in pieces) + r"\n")
    return re.compile("".join(parts))


def shows(expected: list[str], text: str) -> bool:
    return pattern_of(expected).fullmatch(tidy(mask(text))) is not None


# ---------------------------------------------------------------------------- shell sessions


@dataclass
class Command:
    host: str | None
    line: str
    expected: list[str] = field(default_factory=list)


def session_of(block: Block) -> list[Command]:
    commands: list[Command] = []
    for line in block.lines:
        prompt = PROMPT.match(line)
        if prompt:
            commands.append(Command(prompt["host"], prompt["command"]))
        elif MAKE_LINE.match(line):
            commands.append(Command(None, line))
        elif commands:
            commands[-1].expected.append(line)
        else:
            raise AssertionError(f"a line before the first command: {line!r}")
    for command in commands:
        while command.expected and not command.expected[-1].strip():
            command.expected.pop()
    return commands


@dataclass
class Stage:
    argv: list[str]
    stdin: str | None = None  # a file, from '<'
    stdout: str | None = None  # a file, from '>'


def stages_of(line: str) -> list[Stage]:
    """The pipeline of ``line``: each stage's words and redirections; comments left out."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars="|<>")
    lexer.commenters = "#"
    lexer.whitespace_split = True
    words = list(lexer)
    stages = [Stage([])]
    i = 0
    while i < len(words):
        word = words[i]
        if word == "|":
            stages.append(Stage([]))
        elif word in ("<", ">"):
            assert i + 1 < len(words), f"{word} without a file: {line}"
            setattr(stages[-1], "stdin" if word == "<" else "stdout", words[i + 1])
            i += 1
        else:
            stages[-1].argv.append(word)
        i += 1
    assert all(stage.argv for stage in stages), f"an empty command: {line}"
    return stages


@dataclass(frozen=True)
class Ran:
    status: int
    output: str  # stdout and stderr as they came
    stdout: str
    stderr: str


class Shell:
    """ndoku run in-process, each distinct command once; files it writes go to ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.ran: dict[tuple[tuple[str, ...], str | None], Ran] = {}

    def run(self, args: list[str], stdin: str | None) -> Ran:
        key = (tuple(args), stdin)
        if key not in self.ran:
            result = CliRunner().invoke(main, self.writing_here(args), input=stdin)
            if result.exception and not isinstance(result.exception, SystemExit):
                raise result.exception
            self.ran[key] = Ran(result.exit_code, result.output, result.stdout, result.stderr)
        return self.ran[key]

    def writing_here(self, args: list[str]) -> list[str]:
        """``args`` with every file a command writes (``--png``, ``-o``, ``--plot``, …) moved
        into the folder."""
        outputs = {opt for opt in options_of(args[0]) if writes(args[0], opt)}
        moved = list(args)
        for i, arg in enumerate(moved):
            name, equals, value = arg.partition("=")
            if equals and name in outputs:
                moved[i] = f"{name}={self.folder / Path(value).name}"
            elif arg in outputs and i + 1 < len(moved):
                moved[i + 1] = str(self.folder / Path(moved[i + 1]).name)
        return moved


def command_of(name: str) -> click.Command:
    assert isinstance(main, click.Group)
    assert name in main.commands, f"no command 'ndoku {name}'"
    return main.commands[name]


def options_of(name: str) -> set[str]:
    if name not in getattr(main, "commands", {}):
        return set()
    return {opt for param in command_of(name).params for opt in param.opts}


def writes(name: str, opt: str) -> bool:
    """Whether option ``opt`` of ``ndoku name`` names a file it writes (every path option)."""
    return any(
        isinstance(param, click.Option) and isinstance(param.type, click.Path)
        for param in command_of(name).params
        if opt in param.opts
    )


def parsed(args: list[str]) -> dict[str, object]:
    """The parameters of ``ndoku ARGS``, parsed as click parses them (values checked, no run);
    a usage error fails the test."""
    assert args, "ndoku without a command"
    command = command_of(args[0])
    with CliRunner().isolation(input=""):  # stdin no terminal: FILES may be left out
        parent = click.Context(main, info_name="ndoku")
        try:
            ctx = command.make_context(args[0], list(args[1:]), parent=parent)
        except click.exceptions.Exit:  # --help
            return {}
        except click.UsageError as error:
            raise AssertionError(f"ndoku {shlex.join(args)}: {error.format_message()}") from error
    return ctx.params


def placeholders(args: list[str]) -> list[str]:
    """The input files ``ndoku ARGS`` names that the repository does not hold: files users
    replace (``puzzle.txt``, ``FILE``) and one-line puzzles cut short with ``…``."""
    params = parsed(args)
    named: list[str] = []
    for param in command_of(args[0]).params:
        if isinstance(param, click.Argument) and isinstance(param.type, click.Path):
            value = params.get(param.name or "")
            if isinstance(value, str):
                named.append(value)
            elif isinstance(value, tuple | list):
                named += [str(item) for item in value]
    return [
        name
        for name in named
        if name != "-"
        and not (ROOT / name).exists()
        and (CUT in name or "/" in name or re.search(r"\.\w+$", name) or name.isupper())
    ]


def check_tool(stage: Stage) -> None:
    """A command ndoku does not run: what it names must exist."""
    program, *args = stage.argv
    name = Path(program).name
    if program.startswith(".venv/bin/") and name not in ("python", "pip", "ndoku"):
        assert (Path(sys.executable).parent / name).exists(), f"no {program} in the venv"
        return
    if name == "make":
        makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
        targets = set(re.findall(r"^([\w.-]+):", makefile, re.MULTILINE))
        assert args and set(args) <= targets, f"make {args}: targets are {sorted(targets)}"
    elif name in ("pip", "pip3") or args[:2] == ["-m", "pip"]:
        project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        extras = set(project["project"]["optional-dependencies"])
        for arg in args:
            wanted = re.fullmatch(r"\.\[([\w,]+)\]", arg)
            if wanted:
                assert set(wanted[1].split(",")) <= extras, f"{arg}: extras are {extras}"
    elif name.startswith("python"):
        if args[:1] == ["-m"]:
            assert args[1:2] == ["benchmarks"], f"python -m {args[1:2]}"
            for bench in args[2:]:
                assert (ROOT / "benchmarks" / f"bench_{bench}.py").is_file(), bench
        else:
            assert args and (ROOT / args[0]).is_file(), f"python {args[:1]}: no such file"
    else:
        assert name in TOOLS, f"{program}: a program this test does not know"
        assert (Path(sys.executable).parent / name).exists(), f"{name} is not installed"


def source_of(stage: Stage) -> str:
    """What ``cat FILE``, ``echo …`` or ``printf …`` sends down a pipe."""
    program, *args = stage.argv
    if program == "cat":
        return "".join((ROOT / arg).read_text(encoding="utf-8") for arg in args)
    if program == "echo":
        return " ".join(args) + "\n"
    assert program == "printf", f"{program} cannot start a pipe here"
    return args[0].encode().decode("unicode_escape") % tuple(args[1:])


def is_ndoku(stage: Stage) -> bool:
    return Path(stage.argv[0]).name == "ndoku"


def check_command(command: Command, shell: Shell, parse_only: bool) -> str:
    """Run or parse one command of a session; how it was checked."""
    stages = stages_of(command.line)
    ndoku = [stage for stage in stages if is_ndoku(stage)]
    for stage in stages:
        if not is_ndoku(stage) and stage.argv[0] not in ("cat", "echo", "printf"):
            check_tool(stage)
    if not ndoku:
        return "named"
    missing = [name for stage in ndoku for name in placeholders(stage.argv[1:])]
    missing += [
        stage.stdin for stage in stages if stage.stdin and not (ROOT / stage.stdin).is_file()
    ]
    missing += [
        arg
        for stage in stages
        if stage.argv[0] == "cat"
        for arg in stage.argv[1:]
        if not (ROOT / arg).is_file()
    ]
    # A missing file the output shown names in an error is what the command shows: it runs.
    errors = [line for line in command.expected if line.startswith("Error:")]
    missing = [name for name in missing if not any(name in line for line in errors)]
    if parse_only or command.host or missing:
        return "parsed"
    stdin: str | None = None
    ran: Ran | None = None
    for stage in stages:
        if stage.stdin:
            stdin = (ROOT / stage.stdin).read_text(encoding="utf-8")
        if not is_ndoku(stage):
            stdin = source_of(stage)
            continue
        if ran is not None:
            assert ran.status == 0, f"{shlex.join(stage.argv)} | …: exit {ran.status}"
        ran = shell.run(stage.argv[1:], stdin)
        stdin = ran.stdout
    assert ran is not None
    last = stages[-1]
    if not command.expected:
        assert ran.status == 0, f"$ {command.line}: exit {ran.status}\n{ran.output}"
    elif last.stdout:  # stdout went to a file: the lines shown are stderr's
        if not shows(command.expected, ran.stderr):
            pytest.fail(report(command, ran.stderr), pytrace=False)
    elif not (shows(command.expected, ran.output) or shows(command.expected, ran.stdout)):
        pytest.fail(report(command, ran.output), pytrace=False)
    return "ran"


def report(command: Command, got: str) -> str:
    shown = "\n".join(command.expected)
    return f"$ {command.line}\n--- the page shows:\n{shown}\n--- ndoku prints:\n{tidy(mask(got))}"


# ---------------------------------------------------------------------------- Python blocks


FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
PYTHON_RUNS: dict[str, str] = {}  # a block's text → its doctest report ("" when it passed)


def run_python(block: Block) -> str:
    """The doctest report of a Python block ("" when it passes)."""
    if block.text in PYTHON_RUNS:
        return PYTHON_RUNS[block.text]
    globs: dict[str, object] = {"__name__": "__doc_block__"}
    if any(line.lstrip().startswith(">>>") for line in block.lines):
        test = doctest.DocTestParser().get_doctest(block.text, globs, block.id, block.page, 0)
        for example in test.examples:
            example.want = WILD.sub("...", example.want)
        out: list[str] = []
        doctest.DocTestRunner(optionflags=FLAGS).run(test, out=out.append)
        PYTHON_RUNS[block.text] = "".join(out)
    else:
        exec(compile(block.text, block.id, "exec"), globs)
        PYTHON_RUNS[block.text] = ""
    return PYTHON_RUNS[block.text]


def parse_python(block: Block) -> None:
    """Compile a block without running it, but run its imports from ndoku."""
    if any(line.lstrip().startswith(">>>") for line in block.lines):
        sources = [e.source for e in doctest.DocTestParser().get_examples(block.text)]
    else:
        sources = [block.text]
    for source in sources:
        tree = ast.parse(source, block.id)
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ndoku"):
                exec(compile(ast.Module([node], []), block.id, "exec"), {})


# ---------------------------------------------------------------------------- text blocks


def check_text(block: Block) -> str:
    words = block.mark.split()
    if words[:1] == ["text"]:
        return "text"
    if words[:1] == ["excerpt"]:
        assert len(words) == 2, f"excerpt of which file? {block.mark}"
        file = ROOT / words[1]
        assert file.is_file(), f"{words[1]}: no such file"
        expected = [CUT, *block.lines, CUT]
        assert shows(expected, file.read_text(encoding="utf-8")), (
            f"not an excerpt of {words[1]}:\n{block.text}"
        )
        return "excerpt"
    if any(CUT in line for line in block.lines):
        return "cut"
    try:
        read_puzzles(text=block.text)
    except Exception as error:
        raise AssertionError(
            f"{block.id} does not read as a puzzle ({error}); mark it <!-- blocks: text --> "
            "on the line before it if it is none"
        ) from error
    return "puzzle"


# ---------------------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Shell:
    return Shell(tmp_path_factory.mktemp("doc-blocks"))


@pytest.fixture(autouse=True)
def _at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_block(block: Block, shell: Shell) -> None:
    parse_only = block.mark == "parse-only"
    assert block.mark in ("", "parse-only") or block.kind == "text", (
        f"<!-- blocks: {block.mark} --> is for text blocks"
    )
    if block.kind == "shell":
        session = session_of(block)
        assert session
        for command in session:
            check_command(command, shell, parse_only)
    elif block.kind == "python":
        if parse_only:
            parse_python(block)
        else:
            failures = run_python(block)
            if failures:
                pytest.fail(failures, pytrace=False)
    else:
        assert not parse_only, "<!-- blocks: parse-only --> is for commands and Python"
        check_text(block)
