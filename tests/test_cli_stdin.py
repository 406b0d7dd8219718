"""First contact with the command: stdin read without FILES, a puzzle given as an argument,
the errors of an argument that is no puzzle file, terminals (no progress bar over what is
typed, answers on lines of their own), counts in words, and messages that say things once."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from ndoku.cli import main
from ndoku.cli.common import STDIN_HINT
from ndoku.tasks.runs import Tally

from helpers import Command

if TYPE_CHECKING:
    from conftest import CliRun

ONE_LINE = "1000003004000002"
SOLVED = "1324423124133142"
#: A 9×9 typed at a terminal is answered as soon as its line ends (a 4×4's 16 characters
#: might be a row of a 16×16 grid: it waits for more lines, or the end of input).
NINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
NINE_SOLVED = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
#: What each command that reads FILES says of ONE_LINE, and the options that keep it quick.
SAID = {
    "solve": ([], SOLVED + "\n"),
    "count": ([], "1\n"),
    "rate": (["--chains", "0"], "singles"),
    "hint": ([], "Hidden single: in box r1-2 c1-2, 3 can only go in r1c2."),
    "explain": ([], "# solved in 12 steps: hidden single ×4, full house ×8"),
}
WINDMILL = Path(__file__).parent / "data" / "janko" / "windmill" / "1_21x21.puzzle.txt"


class Terminal(io.BytesIO):
    """Input that says it is a terminal, as stdin typed at one does."""

    def isatty(self) -> bool:
        return True


def typed(*args: str, text: str = "") -> tuple[int, str, str]:
    """``ndoku ARGS`` through CliRunner, its stdin a terminal that gives ``text``."""
    result = CliRunner().invoke(main, list(args), input=Terminal(text.encode()))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("command", sorted(SAID))
def test_no_files_and_a_pipe_read_stdin(run: CliRun, command: str) -> None:
    options, said = SAID[command]
    code, out, err = run(command, *options, input=ONE_LINE + "\n")
    assert code == 0, err
    assert said in out and STDIN_HINT not in err


@pytest.mark.parametrize("command", sorted(SAID))
def test_a_one_line_puzzle_is_an_argument(run: CliRun, command: str) -> None:
    options, said = SAID[command]
    code, out, err = run(command, ONE_LINE, *options)
    assert code == 0, err
    assert said in out


def test_one_line_puzzles_as_arguments_are_named_by_their_start(run: CliRun) -> None:
    code, out, _ = run("solve", ONE_LINE, NINE)
    assert code == 0
    assert out == f"# {ONE_LINE}\n{SOLVED}\n\n# 53..7....6..195.…\n{NINE_SOLVED}\n\n"
    code, out, _ = run("count", f"{ONE_LINE}\n{ONE_LINE}")  # two lines: a batch of two
    assert code == 0 and out == "1\n1\n"


@pytest.mark.parametrize("command", sorted(SAID))
def test_an_argument_that_is_no_file_and_no_puzzle_says_so_once(run: CliRun, command: str) -> None:
    code, out, err = run(command, "puzles.txt")
    assert code == 2 and out == ""
    pipe = f"to give a puzzle as text, pipe it to 'ndoku {command} -'"
    assert err == f"Error: puzles.txt: no such file; {pipe}\n"


def test_a_puzzle_with_a_wrong_symbol_is_read_as_one(run: CliRun) -> None:
    # 9 is a symbol of larger grids: the reader, not 'no such file', says what is wrong
    code, _, err = run("solve", ONE_LINE[:-1] + "9")
    assert code == 2 and "out of range" in err and "no such file" not in err


def test_a_damaged_link_says_so_once(run: CliRun) -> None:
    code, _, err = run("solve", "https://f-puzzles.com/?load=N4Ig")
    assert code == 2 and "payload is damaged" in err and err.count("https://") == 1


def test_a_folder_and_a_file_that_cannot_be_read_are_named_once(
    run: CliRun, tmp_path: Path
) -> None:
    code, _, err = run("solve", str(tmp_path))
    assert code == 2
    assert err.startswith(f"Error: cannot read {tmp_path}: ") and err.count(str(tmp_path)) == 1
    locked = tmp_path / "locked.txt"
    locked.write_text(ONE_LINE)
    locked.chmod(0)
    try:
        readable = os.access(locked, os.R_OK)  # as root, every file can be read
        code, _, err = run("count", str(locked))
    finally:
        locked.chmod(0o600)
    assert code == (0 if readable else 2)
    if not readable:
        assert err == f"Error: cannot read {locked}: Permission denied\n"


@pytest.mark.parametrize(("command", "hint"), [("solve", "'FILES...'"), ("graph", "'FILE'")])
def test_no_files_and_a_terminal_is_a_usage_error(command: str, hint: str) -> None:
    code, out, err = typed(command)
    assert code == 2 and out == ""
    assert f"Error: Missing argument {hint}. " in err
    assert f"pipe it in ('ndoku {command} < puzzle.txt')" in err
    assert f"after 'ndoku {command} -' (then Ctrl-D)" in err


def test_a_dash_reads_the_terminal_and_says_how_to_end() -> None:
    code, out, err = typed("solve", "-", text=ONE_LINE)
    assert code == 0 and out == SOLVED + "\n"
    assert STDIN_HINT in err


def test_show_and_graph_read_stdin_and_arguments_too(run: CliRun, tmp_path: Path) -> None:
    code, out, _ = run("show", input=ONE_LINE + "\n")
    assert code == 0 and "# 4×4, boxes 2×2, 16 cells, 4 givens" in out
    code, out, _ = run("graph", input=ONE_LINE + "\n")
    assert code == 0 and out == "16 cells, 12 units, 56 peer pairs, peers per cell 7..7\n"
    target = tmp_path / "shidoku.graphml"
    code, out, err = run("graph", ONE_LINE, "--graphml", str(target))
    assert code == 0 and out.startswith("16 cells")
    assert err == f"ndoku: wrote {target}\n" and target.exists()
    code, _, err = run("graph", "puzles.txt")
    assert code == 2 and err.startswith("Error: puzles.txt: no such file; ")


def test_counts_are_said_in_the_singular_and_the_plural(run: CliRun) -> None:
    for statuses, said in ((["solved"], "1 puzzle: 1 solved"), (["solved"] * 2, "2 puzzles")):
        counted = Tally()
        counted.add(statuses, 0.0)
        assert str(counted).startswith(said)
    code, out, _ = run("explain", "0" + SOLVED[1:])
    assert code == 0 and "# solved in 1 step: full house ×1;" in out
    code, out, _ = run("explain", "00" + SOLVED[2:])
    assert code == 0 and "# solved in 2 steps: full house ×2;" in out
    code, out, _ = run("solve", SOLVED, "--pretty")
    assert code == 0 and "unique, 1 node, 0 guesses" in out
    code, _, err = run("solve", "--max-nodes", "1", input="0" * 81 + "\n")
    assert code == 1 and "the node limit (--max-nodes) after 1 node\n" in err
    code, out, _ = run("show", SOLVED[:15] + "0")
    assert code == 0 and "16 cells, 15 givens" in out
    code, out, _ = run("show", "0" * 15 + "1")
    assert code == 0 and "16 cells, 1 given\n" in out


def test_the_windmill_error_names_the_layout_option_too(run: CliRun) -> None:
    code, _, err = run("solve", str(WINDMILL))
    assert code == 2
    assert "'# layout: windmill' or the option --layout windmill, or with '# subgrids:" in err
    code, _, _ = run("solve", str(WINDMILL), "--layout", "windmill")
    assert code == 0


def on_terminal(*args: str, keys: tuple[tuple[str, bytes], ...] = (), timeout: float = 60.0) -> str:
    """What ``ndoku ARGS`` shows on a terminal (its stdin, stdout and stderr); ``keys`` are
    (what to wait for, what to type then), in turn."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        Command.argv(*args),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=Command.env() | {"TERM": "xterm", "COLUMNS": "120"},
    )
    os.close(slave)
    shown, since, waiting, deadline = b"", 0, list(keys), time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if waiting and waiting[0][0].encode() in shown[since:] and shown.endswith(b"\n"):
                os.write(master, waiting.pop(0)[1])
                since = len(shown)
            if not select.select([master], [], [], 0.1)[0]:
                continue
            try:
                more = os.read(master, 1 << 16)
            except OSError:  # the other end is closed: ndoku has ended
                break
            if not more:
                break
            shown += more
    finally:
        if process.poll() is None:  # still waiting for input: the test fails on what it shows
            process.kill()
        process.wait()
        os.close(master)
    return shown.decode(errors="replace")


def on_a_line_of_its_own(shown: str, text: str) -> bool:
    """Whether every ``text`` shown starts a line: after a line end, or after rich's return to
    the start of the line (erasing it) when it prints a line above a bar."""
    starts = [i for i in range(len(shown)) if shown.startswith(text, i)]
    return bool(starts) and all(shown[:i].endswith(("\n", "\r", "\x1b[2K")) for i in starts)


def test_a_terminal_gets_answers_line_by_line_and_no_bar() -> None:
    reading = "reading the terminal"
    shown = on_terminal(
        "solve", "-", keys=((reading, NINE.encode() + b"\n"), (NINE_SOLVED, b"\x04"))
    )
    assert "━" not in shown and "0/?" not in shown  # no bar
    assert on_a_line_of_its_own(shown, NINE_SOLVED)
    assert "ndoku: <stdin>: 1 puzzle: 1 solved" in shown


def test_input_ended_mid_line_is_answered_on_a_fresh_line() -> None:
    # Ctrl-D twice ends input typed without a new line; the answer must not follow it
    shown = on_terminal(
        "hint", "-", keys=(("reading the terminal", ONE_LINE.encode() + b"\x04\x04"),)
    )
    assert on_a_line_of_its_own(shown, "Hidden single")


def test_answers_of_a_batch_print_above_the_bar(tmp_path: Path) -> None:
    batch = tmp_path / "batch.txt"
    batch.write_text((ONE_LINE + "\n") * 200)
    shown = on_terminal("solve", str(batch))
    assert "━" in shown  # the bar was drawn
    assert shown.count(SOLVED) == 200 and on_a_line_of_its_own(shown, SOLVED)
