"""Batches on a real Dask cluster (two worker processes) and in local processes give what one
process gives, in input order; a lost worker's chunks are run again; puzzles travel as text."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from conftest import CliRun

from ndoku.errors import LayoutError, VerificationError
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.model.table import read_table
from ndoku.tasks import cluster, many
from ndoku.tasks.chunks import check_reply, count_chunk, fingerprint, pack, to_chunk, unpack
from ndoku.tasks.count import count_all
from ndoku.tasks.generate import generate, layout_puzzle
from ndoku.tasks.lines import LineOutcomes, solve_lines
from ndoku.tasks.rate import rate
from ndoku.tasks.runs import solve_runs
from ndoku.tasks.solve import Options, solve_all

pytest.importorskip("distributed")
from distributed import Client

DATA = Path(__file__).parent / "data"
NORVIG = DATA / "sudoku9" / "norvig_top95.txt"
SAMURAI = DATA / "samurai" / "jss_samurai.txt"
SUKAKU = DATA / "sukaku" / "diabolical1_step20.sukaku.txt"
HODOKU = DATA / "sukaku" / "diabolical1_step20.hodoku.txt"


def wild16(count: int) -> list[Puzzle]:
    """One-line 16×16 puzzles (``name puzzle,solution`` lines), read as one file."""
    lines = (DATA / "sudoku16" / "wild_16x16.txt").read_text().splitlines()[:count]
    return read_puzzles(text="".join(line.split()[1].split(",")[0] + "\n" for line in lines))


def mixed() -> list[Puzzle]:
    """One-line 9×9 and 16×16, a Samurai, pencil marks as a sukaku line and as a grid."""
    nine = read_puzzles(NORVIG)
    extra = [*read_puzzles(SAMURAI), *read_puzzles(SUKAKU), *read_puzzles(HODOKU)]
    return [*nine[:30], *wild16(6), *extra, *nine[30:60]]


@pytest.fixture(scope="module")
def client() -> Iterator[Client]:
    with cluster.open_cluster("local:2") as running:
        yield running


def test_chunks_read_back_as_the_same_puzzles() -> None:
    files = [NORVIG, SAMURAI, SUKAKU, HODOKU, *sorted((DATA / "janko").glob("*/*.puzzle.txt"))]
    for path in files:
        try:
            puzzles = read_puzzles(path)
        except LayoutError:  # a windmill's shape needs its name: then --layout says it
            puzzles = read_puzzles(path, layout=path.parent.name)
        chunk = to_chunk(puzzles)
        read = chunk.read()
        assert fingerprint(read) == chunk.fingerprint, path
        for ours, theirs in zip(read, puzzles, strict=True):
            assert np.array_equal(ours.givens, theirs.givens), path
            assert ours.frame.key == theirs.frame.key, path
            if theirs.candidates is None:
                assert ours.candidates is None, path
            else:
                assert np.array_equal(ours.candidates, theirs.candidates), path
    # a 16×16 file whose alphabet the whole file decides, a layout named by --layout, and
    # symbols beyond ASCII
    greek = read_puzzles(text="α" + "." * 15 + "\n" + "." * 15 + "β\n", symbols="αβγδ")
    for puzzles in (wild16(8), read_puzzles(text="0" * 81 + "\n", layout="xsudoku"), greek):
        assert fingerprint(to_chunk(puzzles).read()) == fingerprint(puzzles)


def test_chunks_of_variant_puzzles_keep_their_rules() -> None:
    killers = read_puzzles(DATA / "variants" / "killer_9x9.txt")[:5]
    chunk = to_chunk(killers)
    read = chunk.read()
    assert fingerprint(read) == chunk.fingerprint
    assert [p.rules for p in read] == [p.rules for p in killers]
    # the same givens without a cage, or with another sum, are another puzzle
    fewer = [dataclasses.replace(killers[0], rules=killers[0].rules[1:]), *killers[1:]]
    assert fingerprint(fewer) != chunk.fingerprint
    cage = dataclasses.replace(killers[0].rules[0], value=(killers[0].rules[0].value or 0) + 1)
    other = [dataclasses.replace(killers[0], rules=(cage, *killers[0].rules[1:])), *killers[1:]]
    assert fingerprint(other) != chunk.fingerprint


def test_a_chunk_read_otherwise_is_refused() -> None:
    puzzles = read_puzzles(NORVIG)[:3]
    chunk = to_chunk(puzzles)
    assert check_reply(chunk, count_chunk(chunk, Options())) is not None
    other = to_chunk(read_puzzles(NORVIG)[1:4])
    with pytest.raises(VerificationError, match="read a chunk"):
        check_reply(chunk, count_chunk(other, Options()))


def test_results_travel_as_columns() -> None:
    puzzles = [*read_puzzles(NORVIG)[:2], *read_puzzles(text="12" + "0" * 79 + "\n")]
    outcomes = solve_all(puzzles, options=Options(limit=1))
    back = unpack(pack(outcomes), puzzle=puzzles)
    for one, two in zip(outcomes, back, strict=True):
        assert one.record() == two.record() and two.puzzle is one.puzzle


def same_outcomes(got: list[many.Outcome], want: list[many.Outcome]) -> None:
    assert len(got) == len(want)
    for a, b in zip(got, want, strict=True):
        assert a.puzzle is b.puzzle and (a.status, a.method) == (b.status, b.method)
        assert (a.values is None) == (b.values is None)
        assert a.values is None or np.array_equal(a.values, b.values)
        ours, theirs = a.record(), b.record()
        for key in ("seconds", "proposals_per_second"):
            ours.pop(key, None), theirs.pop(key, None)
        assert ours == theirs


def test_solve_on_the_cluster_equals_one_process(client: Client) -> None:
    puzzles = mixed()
    arrived: list[int] = []
    got = many.solve_many(puzzles, client=client, chunk=7, progress=arrived.append)
    same_outcomes(got, solve_all(puzzles))
    assert arrived[-1] == len(puzzles) and arrived == sorted(arrived)
    # the default chunks, and the iterator form
    assert [o.status for o in many.iter_solve(puzzles, client=client)] == [o.status for o in got]


def test_tables_of_lines_on_the_cluster_equal_one_process(client: Client) -> None:
    lines = (DATA / "sudoku9" / "serg_benchmark_sample1k.txt").read_text().splitlines()[:300]
    none = "123456780" + "000000009" + "0" * 63  # no 9 fits the top row's last cell
    table = read_table("\n".join([*lines, "1" + "0" * 80, none]) + "\n")
    assert table is not None
    parts = list(many.iter_lines(table, client=client, chunk=64))
    assert [len(part) for part in parts] == [64] * 4 + [len(table) - 256]
    assert all(isinstance(part, LineOutcomes) for part in parts)
    want = solve_lines(table)
    assert b"".join(part.text(unique=True) for part in parts) == want.text(unique=True)
    batches = [part.batch for part in parts if isinstance(part, LineOutcomes)]
    assert np.array_equal(np.concatenate([b.values for b in batches]), want.batch.values)
    stats = np.concatenate([b.stats[:, :5] for b in batches])  # not the ticks
    assert np.array_equal(stats, want.batch.stats[:, :5])
    assert np.concatenate([part.statuses() for part in parts]).tolist()[-2:] == ["multiple", "none"]
    counted = many.count_many(table, client=client, chunk=100)
    assert [c.text() for c in counted] == [c.text() for c in want.counts()]


def test_chains_on_the_cluster_run_the_same_seeds(client: Client) -> None:
    lines = (DATA / "sudoku4" / "wild_4x4.txt").read_text().splitlines()[:6]
    puzzles = read_puzzles(text="".join(line.split()[1].split(",")[0] + "\n" for line in lines))
    options = Options(seed=4, max_proposals=20_000)
    got = list(many.iter_runs(puzzles, "metropolis", options, 2, client=client, chunk=4))
    want = solve_runs(puzzles, "metropolis", options, 2)
    assert [[r.result.seed for r in t.outcomes] for t in got] == [[4, 5]] * len(puzzles)
    for ours, theirs in zip(got, want, strict=True):
        same_outcomes(list(ours.outcomes), list(theirs.outcomes))


def test_count_on_the_cluster_equals_one_process(client: Client) -> None:
    puzzles = [*read_puzzles(NORVIG)[:20], *read_puzzles(text="1" + "0" * 80 + "\n" + "0" * 81)]
    options = Options(limit=5)
    got = many.count_many(puzzles, options, client=client, chunk=6)
    want = count_all(puzzles, options)
    assert [c.record() | {"seconds": 0} for c in got] == [c.record() | {"seconds": 0} for c in want]
    assert [c.text() for c in got][-2:] == ["≥5", "≥5"]


def test_rate_on_the_cluster_and_in_processes_equals_one_process(client: Client) -> None:
    puzzles = [*read_puzzles(NORVIG)[:5], *read_puzzles(SUKAKU)]
    want = [rate(p).record() for p in puzzles]
    assert [r.record() for r in many.rate_many(puzzles, client=client, chunk=2)] == want
    assert [r.record() for r in many.rate_many(puzzles[:3], jobs=2)] == want[:3]


def test_generate_on_the_cluster_makes_the_same_puzzles(client: Client) -> None:
    def command(seed: int) -> str:
        return f"made with seed {seed}"

    got = many.generate_many("9x9", 4, seed=20, command=command, client=client)
    empty = layout_puzzle("9x9")
    want = [generate(empty, seed=s, command=command(s)) for s in range(20, 24)]
    assert [g.seed for g in got] == [20, 21, 22, 23]
    for ours, theirs in zip(got, want, strict=True):
        assert not isinstance(ours, Exception)
        assert ours.text == theirs.text and np.array_equal(ours.solution, theirs.solution)
        assert np.array_equal(ours.puzzle.givens, theirs.puzzle.givens)
        assert (ours.stop, ours.rating.level) == (theirs.stop, theirs.rating.level)
    [samurai] = many.generate_many("samurai", 1, seed=3, givens=200, client=client)
    assert not isinstance(samurai, Exception)
    assert samurai.text == generate(layout_puzzle("samurai"), seed=3, givens=200).text
    local = many.generate_many("9x9", 3, seed=20, command=command, jobs=2)
    assert [g.text for g in local if not isinstance(g, Exception)] == [g.text for g in want[:3]]


def test_ctrl_c_cancels_the_chunks_on_the_cluster(client: Client) -> None:
    def interrupt(done: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as caught:
        many.solve_many(read_puzzles(NORVIG), client=client, chunk=1, progress=interrupt)
    # the chunks, finished or not, are gone from the scheduler although the interrupted
    # call (held by ``caught``) still holds their futures; the cancel travels on the client's
    # batched stream, so it reaches the scheduler a moment later
    deadline = time.monotonic() + 10
    while client.run_on_scheduler(_tasks) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert caught.traceback and client.run_on_scheduler(_tasks) == 0


def _tasks(dask_scheduler: object) -> int:
    """Tasks on the scheduler but the workers' warm-ups (one may still be loading kernels)."""
    keys = dask_scheduler.tasks  # type: ignore[attr-defined]
    return sum(not str(key).startswith("warm-") for key in keys)


def test_a_killed_worker_s_chunks_are_run_again(client: Client) -> None:
    puzzles = read_puzzles(DATA / "sudoku9" / "forum_hardest_1106_first40.txt") * 5
    before = client.run(os.getpid)
    victim = next(iter(before.values()))
    killed: list[int] = []

    def kill_once(done: int) -> None:
        if not killed:  # chunks are still running on both workers
            os.kill(victim, signal.SIGKILL)
            killed.append(done)

    got = many.solve_many(puzzles, client=client, chunk=4, progress=kill_once)
    same_outcomes(got, solve_all(puzzles))
    assert killed and killed[0] < len(puzzles)
    client.wait_for_workers(2, timeout=30)
    assert victim not in client.run(os.getpid).values()


# --- the command ---------------------------------------------------------------------------


def test_cli_on_a_local_cluster_prints_what_one_process_prints(run: CliRun, client: Client) -> None:
    # the command's own local:2 cluster once; then the module's, by its scheduler's address
    # (each cluster started is two processes importing ndoku: some 5 s of CPU)
    address = client.scheduler.address
    for command, where in (("solve", "local:2"), ("count", address)):  # read as a table
        spread = run(command, str(NORVIG), "--cluster", where)
        assert spread[:2] == run(command, str(NORVIG))[:2]
    local = run("solve", str(NORVIG), "--format", "json")
    spread = run("solve", str(NORVIG), "--format", "json", "--cluster", address)
    assert spread[0] == local[0] == 0
    strip = [line.split('"seconds"')[0] for line in local[1].splitlines()]
    assert [line.split('"seconds"')[0] for line in spread[1].splitlines()] == strip
    made = run("generate", "4x4", "-n", "3", "--seed", "5", "--cluster", address)
    assert made == run("generate", "4x4", "-n", "3", "--seed", "5")


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("local:0", "1 to 1024 worker processes, not '0'"),
        ("local:x", "not 'x'"),
        ("nohost", "'nohost' is no cluster"),
        ("tcp://127.0.0.1:1", "cannot reach a Dask scheduler at tcp://127.0.0.1:1"),
    ],
)
def test_a_bad_cluster_is_a_clear_error(
    run: CliRun, monkeypatch: pytest.MonkeyPatch, address: str, message: str
) -> None:
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 0.5)
    code, out, err = run("count", str(NORVIG), "--cluster", address)
    assert code == 2 and out == "" and err.startswith("Error: ") and message in err


def test_a_missing_dask_is_a_clear_error(run: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    code, out, err = run("rate", str(NORVIG), "--cluster", "local:2")
    assert code == 2 and out == "" and err.startswith("Error: ")
    assert "(the dask extra): pip install distributed," in err
    assert "pip install -e '.[dask]'" in err


def test_ctrl_c_exits_130_without_a_traceback(run: CliRun, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("ndoku.tasks.paced.paced_runs", interrupted)
    code, _, err = run("solve", str(NORVIG), "--format", "json")
    assert code == 130 and err == "ndoku: interrupted\n"


def test_solve_does_not_import_dask_without_a_cluster() -> None:
    code = (
        "import sys; from click.testing import CliRunner; from ndoku.cli import main; "
        f"CliRunner().invoke(main, ['solve', {str(NORVIG)!r}]); "
        "print('distributed' in sys.modules, 'ndoku.tasks.many' in sys.modules)"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.split() == ["False", "False"]
