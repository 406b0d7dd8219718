"""Ctrl-C (SIGINT) and SIGTERM stop a batch, a chain or a generation within a second (5 s
here, a bound that only catches a hang): every answer found is written, in whole lines that
answer their input lines, no worker process and no partial file is left, and the exit status
is 130 or 143. A worker process that dies gives its puzzles the ``error`` status, and the
batch goes on and exits 1."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from ndoku.cli import stopping
from ndoku.picture import files

from helpers import DATA, Command

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="signals and /proc of Linux")

#: The forum's hardest (40 puzzles, 0.1–0.3 ms each) written 1500 times: seconds of work, so
#: that ``--jobs 2`` hands it to workers (easy puzzles are solved too fast for that now).
HARD = DATA / "sudoku9" / "forum_hardest_1106_first40.txt"
COPIES = 1500
BOUND = 5.0


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "big.txt"
    path.write_bytes(HARD.read_bytes() * COPIES)
    return path


@pytest.fixture(scope="module")
def answers() -> list[bytes]:
    """The answer line of each puzzle of :data:`HARD`, solved as one table."""
    from ndoku.model.table import read_table
    from ndoku.tasks.lines import solve_lines

    table = read_table(HARD.read_text())
    assert table is not None
    return solve_lines(table).text().splitlines(keepends=True)


def lined_up(out: bytes, answers: list[bytes], lost: bool = False) -> int:
    """The lines of ``out``, each the answer of its input line (or ``error``, when a worker
    may be ``lost``), whole; their number."""
    assert out.endswith(b"\n")
    lines = out.splitlines(keepends=True)
    for i, line in enumerate(lines):
        assert line == answers[i % len(answers)] or (lost and line == b"error\n"), i
    return len(lines)


def gone(pids: list[int]) -> bool:
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


def test_ctrl_c_mid_batch_writes_the_answers_found_and_exits_130(
    big: Path, answers: list[bytes]
) -> None:
    command = Command("solve", "--jobs", "1", str(big))
    assert command.lines(1) >= 1
    code, out, err, took = command.stop(signal.SIGINT)
    assert code == 130 and err.endswith("ndoku: interrupted\n") and "Traceback" not in err
    assert 0 < lined_up(out, answers) < 40 * COPIES
    assert took < BOUND


def test_sigterm_stops_the_workers_and_exits_143(big: Path, answers: list[bytes]) -> None:
    command = Command("solve", "--jobs", "2", str(big))
    assert command.lines(5001) > 5000  # the workers' answers are coming
    workers = command.workers()
    code, out, err, took = command.stop(signal.SIGTERM)
    assert code == 143 and err.endswith("ndoku: terminated\n")
    assert 5000 < lined_up(out, answers) < 40 * COPIES
    assert len(workers) == 2 and gone(workers) and took < BOUND


def test_a_killed_worker_gives_its_puzzles_the_error_status(
    big: Path, answers: list[bytes]
) -> None:
    command = Command("solve", "--jobs", "2", str(big))
    assert command.lines(5001) > 5000
    os.kill(command.busy_worker(), signal.SIGKILL)
    code, out, err = command.finish()
    assert code == 1 and lined_up(out, answers, lost=True) == 40 * COPIES
    assert b"error\n" in out and "died (pid " in err and "SIGKILL" in err


def test_a_chain_stops_within_a_second() -> None:
    easy = (DATA / "sudoku9" / "norvig_easy50.txt").read_text()[:82]
    hardest = (DATA / "sudoku9" / "forum_hardest_1106_first40.txt").read_text()[:81]
    none = "1" + hardest[1:]  # no solution, which the chain cannot know: it runs on
    command = Command("solve", "--method", "tempering", "--no-prune", "-", stdin=True)
    assert command.process.stdin is not None
    command.process.stdin.write(f"{easy}{none}\n".encode())
    command.process.stdin.close()
    assert command.lines(1) == 1  # the easy one solved: the chains of the other are running
    code, out, err, took = command.stop(signal.SIGINT)
    assert code == 130 and err.endswith("ndoku: interrupted\n") and took < BOUND
    assert out.count(b"\n") == 1 and len(out) == 82


def test_a_generation_stops_and_leaves_no_picture(tmp_path: Path) -> None:
    book = tmp_path / "book.svg"
    command = Command("generate", "9x9", "-n", "40", "--format", "line", "--svg", str(book))
    assert command.lines(2) >= 2
    code, out, err, took = command.stop(signal.SIGINT)
    assert code == 130 and err.endswith("ndoku: interrupted\n") and took < BOUND
    made = out.decode().splitlines()
    assert 2 <= len(made) < 40 and all(len(line) == 81 for line in made)
    assert list(tmp_path.iterdir()) == []


def test_pictures_are_written_all_or_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ndoku.picture import svg
    from ndoku.tasks.pictures import puzzle_picture

    from helpers import puzzle_of

    scene = puzzle_picture(puzzle_of("1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"), None)
    (tmp_path / "old.svg").write_text("kept")
    drawn = svg.to_svg
    calls: list[int] = []

    def interrupted_third(picture: object) -> str:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return drawn(picture)  # type: ignore[arg-type]

    monkeypatch.setattr(svg, "to_svg", interrupted_third)
    with pytest.raises(KeyboardInterrupt):
        files.save([scene] * 4, str(tmp_path / "book.svg"))
    assert [p.name for p in tmp_path.iterdir()] == ["old.svg"]
    with pytest.raises(KeyboardInterrupt), files.written(tmp_path / "old.svg") as partial:
        partial.write_text("half")
        raise KeyboardInterrupt
    assert [p.name for p in tmp_path.iterdir()] == ["old.svg"]
    assert (tmp_path / "old.svg").read_text() == "kept"


def test_a_signal_in_a_held_block_waits_for_its_end_or_the_grace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(stopping, "GRACE_SECONDS", 0.05)
    done: list[str] = []
    before = signal.getsignal(signal.SIGINT)  # SIG_IGN in a shell's background job
    with stopping.caught():
        with pytest.raises(stopping.Stopped) as stopped, stopping.held():
            os.kill(os.getpid(), signal.SIGTERM)
            stopping.check()  # within the grace: goes on
            done.append("block")
        assert done == ["block"] and stopped.value.status == 143
    with stopping.caught():
        with pytest.raises(stopping.Stopped) as stopped, stopping.held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.1)
            stopping.check()  # past the grace
            done.append("not reached")
        assert done == ["block"] and stopped.value.status == 130
    assert signal.getsignal(signal.SIGINT) is before
