"""Long batches stream: a file is read, solved and written a piece at a time, so the first
answer comes before the last line is read (from stdin too), memory stays flat and line i of
the output answers line i of the input; a pipe closed early ends the command quietly."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import SERG, CliRun

from ndoku.errors import ParseError
from ndoku.model.puzzle import read_puzzles
from ndoku.model.table import PuzzleTable, TableStream, read_table
from ndoku.text.pieces import FIRST_LINES, PIECE_BYTES, read_pieces

from helpers import Command

COPIES = 20  # SERG 20 times: 1.6 MB, two pieces


@pytest.fixture(scope="module")
def long(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("long") / "long.txt"
    path.write_bytes(SERG.read_bytes() * COPIES)
    assert path.stat().st_size > PIECE_BYTES
    return path


def stream_of(path: Path, size: int) -> TableStream:
    pieces = read_pieces(path, size)
    first = next(pieces)
    table = read_table(first.text, str(path))
    assert table is not None and not first.last
    return TableStream(table, first, pieces)


def test_a_file_comes_in_pieces_of_whole_lines(tmp_path: Path) -> None:
    path = tmp_path / "batch.txt"
    path.write_bytes(b"\xef\xbb\xbf" + SERG.read_bytes().replace(b"\n", b"\r\n"))
    pieces = list(read_pieces(path, size=10_000))
    assert len(pieces) > 5 and [p.last for p in pieces] == [False] * (len(pieces) - 1) + [True]
    assert "".join(p.text for p in pieces) == path.read_bytes().decode("utf-8-sig")
    assert pieces[0].text.count("\n") >= FIRST_LINES
    assert all(p.text.endswith("\n") for p in pieces if p.text)
    numbers = [p.line for p in pieces]
    assert numbers == [1 + sum(p.text.count("\n") for p in pieces[:k]) for k in range(len(pieces))]
    assert pieces[0].left == path.stat().st_size - len(pieces[0].text.encode()) - 3


def test_binary_data_far_down_a_file_is_named_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "batch.txt"
    path.write_bytes(SERG.read_bytes() + b"12\x0034\n")
    with pytest.raises(ParseError, match=r"line 1001, column 3: .* \(binary data\)"):
        list(read_pieces(path, size=10_000))


def test_a_stream_reads_every_piece_as_the_first_was(tmp_path: Path) -> None:
    lines = SERG.read_text().splitlines()
    four = "1000003004000002"  # a 4×4 among the 9×9: that piece is read puzzle by puzzle
    text = "\n".join([*lines[:300], "# a comment", "", *lines[300:600], four, *lines[600:]])
    path = tmp_path / "mixed.txt"
    path.write_text(text + "\n")
    stream = stream_of(path, size=8_000)
    parts = list(stream)
    assert stream.left() == 0 and any(isinstance(p, list) for p in parts)
    assert all(len(p) < 200 for p in parts[1:])  # a piece at a time, never the whole file
    got = [
        g
        for p in parts
        for g in (p.givens if isinstance(p, PuzzleTable) else [q.givens for q in p])
    ]
    want = [p.givens for p in read_puzzles(text=text)]
    assert len(got) == len(want) == 1001
    assert all(np.array_equal(a, b) for a, b in zip(got, want, strict=True))
    numbers = [int(n) for p in parts if isinstance(p, PuzzleTable) for n in p.lines.numbers]
    assert numbers[-1] == 1003 and 301 not in numbers and 302 not in numbers


def test_a_header_among_the_puzzles_of_a_long_batch_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "late.txt"
    path.write_text(SERG.read_text() + "# symbols: 1-9\n" + SERG.read_text())
    with pytest.raises(ParseError, match="line 1001: a '# symbols:' header among"):
        list(stream_of(path, size=10_000))


def test_a_long_batch_is_solved_line_for_line(
    run: CliRun, long: Path, answers: list[bytes]
) -> None:
    code, out, err = run("solve", str(long))
    assert code == 0 and out.encode() == b"".join(answers) * COPIES
    said = rf"ndoku: {re.escape(str(long))}: 20000 puzzles: 20000 multiple \(\d+\.\d+ s solving\)"
    assert re.fullmatch(said + "\n", err)
    code, out, _ = run("count", str(long), "--limit", "3")
    assert (code, out) == (0, run("count", str(SERG), "--limit", "3")[1] * COPIES)


def test_a_bad_line_far_down_comes_after_the_answers_before_it(
    run: CliRun, tmp_path: Path, answers: list[bytes]
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(SERG.read_text() * COPIES + "8" * 81 + "\n")
    code, out, err = run("solve", str(path))
    assert code == 2 and out.encode() == b"".join(answers) * COPIES
    line = 1000 * COPIES + 1
    assert f"Error: {path}: line {line}, column 2: " in err and "Traceback" not in err


def test_the_first_answer_comes_before_stdin_is_closed(answers: list[bytes]) -> None:
    command = Command("solve", "-", stdin=True)
    assert command.process.stdin is not None
    batch = SERG.read_bytes().splitlines(keepends=True)
    command.process.stdin.write(b"".join(batch[:100]))
    command.process.stdin.flush()
    assert command.lines(1) >= 1 and command.process.poll() is None  # still reading stdin
    command.process.stdin.write(b"".join(batch[100:200]))
    command.process.stdin.close()
    code, out, err = command.finish()
    assert code == 0 and out == b"".join(answers[:200]), err


def test_one_line_at_a_time_is_answered_line_by_line(answers: list[bytes]) -> None:
    """A pipe that sends a 9×9 line and waits (a slow generator, a person typing) gets its
    answer before the next line: one-line 9×9 puzzles read only one way."""
    command = Command("solve", "-", stdin=True)
    assert command.process.stdin is not None
    batch = SERG.read_bytes().splitlines(keepends=True)
    for k in range(3):
        command.process.stdin.write(batch[k])
        command.process.stdin.flush()
        assert command.lines(k + 1) == k + 1 and command.process.poll() is None
    command.process.stdin.close()
    code, out, err = command.finish()
    assert code == 0 and out == b"".join(answers[:3]), err


def test_a_closed_pipe_ends_the_command_quietly(long: Path, answers: list[bytes]) -> None:
    """``ndoku solve long.txt | head -1``: status 141, as for a command SIGPIPE ended."""
    solving = subprocess.Popen(
        Command.argv("solve", str(long)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=Command.env(),
    )
    assert solving.stdout is not None and solving.stderr is not None
    head = subprocess.run(["head", "-1"], stdin=solving.stdout, capture_output=True, check=True)
    solving.stdout.close()
    err = solving.stderr.read().decode()
    assert solving.wait(30) == 141 and err == ""
    assert head.stdout == answers[0]


@pytest.mark.parametrize("stalled", [True, False])
def test_results_waiting_for_a_slow_job_do_not_pile_up(stalled: bool) -> None:
    # Job 0 sleeps while the others are quick: without a bound, every later job would be
    # taken and its result held until job 0's comes back (found as 640 MB under load).
    import time
    from functools import partial

    from ndoku.tasks.paced import HELD_MOST, in_order
    from ndoku.tasks.workers import Job, run_jobs

    taken: list[int] = []

    def work():  # type: ignore[no-untyped-def]
        for k in range(40):
            taken.append(k)
            yield Job(time.sleep, (3.0 if stalled else 0.0,)) if k == 0 else Job(abs, (-k,))

    results, taken_at_first = [], None
    for _, result in in_order(partial(run_jobs, work(), 2), None):
        taken_at_first = len(taken) if taken_at_first is None else taken_at_first
        results.append(result)
    assert results == [None, *range(1, 40)]  # every job, in order
    if stalled:  # the held results, the jobs running and those waiting for a worker
        assert taken_at_first <= HELD_MOST + 2 * 2 + 1 < len(results)
