"""The Monte-Carlo laboratory on the command line: moves, schedules, tempering, traces, tune."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ndoku.model.puzzle import read_puzzles
from ndoku.tasks.verify import problems

if TYPE_CHECKING:
    from conftest import CliRun

SHIDOKU = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"


@pytest.fixture
def easy9(data: Path, tmp_path: Path) -> Path:
    line = (data / "sudoku9" / "norvig_easy50.txt").read_text().split()[0]
    path = tmp_path / "easy.txt"
    path.write_text(line + "\n")
    return path


def assert_solves(text: str, out: str) -> None:
    [puzzle] = read_puzzles(text=text)
    [answer] = read_puzzles(text=out)
    assert problems(puzzle, answer.givens) == []


@pytest.mark.parametrize(
    "args",
    [
        ["--method", "metropolis", "--moves", "row"],
        ["--method", "metropolis", "--moves", "single"],
        ["--method", "hybrid", "--moves", "single"],
        ["--method", "metropolis", "--schedule", "exponential", "--t0", "0.5", "--alpha", "0.99"],
        ["--method", "metropolis", "--alpha", "0.999"],
        ["--method", "metropolis", "--beta-max", "8"],
        ["--method", "metropolis", "--reheat", "500"],
        ["--method", "tempering"],
        ["--method", "tempering", "--ladder", "0.2,0.3,0.4"],
        ["--method", "tempering", "--replicas", "3"],
        ["--method", "tempering", "--no-prune"],
    ],
)
def test_every_chain_option_solves(run: CliRun, args: list[str]) -> None:
    code, out, err = run("solve", "-", "--seed", "2", *args, input=SHIDOKU)
    assert code == 0, err
    assert_solves(SHIDOKU, out)


def test_json_reports_the_chain(run: CliRun, easy9: Path) -> None:
    code, out, _ = run("solve", str(easy9), "--method", "metropolis", "--format", "json")
    assert code == 0
    record = json.loads(out)
    assert record["status"] == "solved" and record["moves"] == "box"
    assert 0 < record["acceptance_rate"] <= 1
    assert record["proposals_per_second"] > 0
    assert record["best_energy"] == 0 and record["best_at"] == record["proposals"]
    code, out, _ = run("solve", "-", "--method", "tempering", "--format", "json", input=SHIDOKU)
    record = json.loads(out)
    assert record["schedule"] == "tempering" and len(record["ladder"]) >= 2
    assert record["ladder"] == sorted(record["ladder"])
    assert len(record["exchange_rates"]) == len(record["ladder"]) - 1
    assert all(r is None or 0 <= r <= 1 for r in record["exchange_rates"])


def test_exchange_every_reaches_the_replicas(run: CliRun, easy9: Path) -> None:
    def rates(every: str) -> list[float | None]:
        args = ["--method", "tempering", "--no-prune", "--seed", "1", "--exchange-every", every]
        code, out, _ = run("solve", str(easy9), *args, "--format", "json")
        record = json.loads(out)
        assert code == 0 and record["proposals"] > 0
        return record["exchange_rates"]

    assert all(r is None for r in rates("1000000000"))  # solved before the first exchange
    assert all(r is not None for r in rates("1"))


def test_json_tells_how_many_cells_pruning_fixed(run: CliRun, data: Path) -> None:
    # a hard 9×9: pruning fixes some cells, the rest hybrid's search, the dive or the chain
    text = (data / "sudoku9" / "forum_hardest_1106_first40.txt").read_text().split()[0] + "\n"
    empty = text.count("0")
    for method in ("hybrid", "tempering"):
        code, out, _ = run("solve", "-", "--method", method, "--format", "json", input=text)
        record = json.loads(out)
        assert code == 0 and record["status"] == "solved"
        assert 0 < record["forced"] < empty
        assert (record["stop"] == "search") == (method == "hybrid")
    args = ("--method", "hybrid", "--restarts", "none", "--format", "json")
    code, out, _ = run("solve", "-", *args, input=text)  # the chain itself: no search
    assert code == 0 and json.loads(out)["stop"] == "solved" and json.loads(out)["forced"] > 0
    code, out, _ = run("solve", "-", "--method", "tempering", "--no-prune", "--format", "json",
                       input=text)  # fmt: skip
    assert code == 0 and "forced" not in json.loads(out)
    code, out, _ = run("solve", "-", "--method", "metropolis", "--format", "json", input=text)
    assert code == 0 and "forced" not in json.loads(out)


def test_runs_print_one_solution_and_one_json_line_per_run(run: CliRun, easy9: Path) -> None:
    args = ["solve", str(easy9), "--method", "metropolis", "--runs", "3", "--seed", "4"]
    code, out, err = run(*args)
    assert code == 0 and "3 of 3 runs solved" in err
    assert_solves(easy9.read_text(), out)
    code, out, _ = run(*args, "--format", "json")
    assert [json.loads(line)["seed"] for line in out.splitlines()] == [4, 5, 6]


def test_trace_csv_follows_the_chain(run: CliRun, easy9: Path, tmp_path: Path) -> None:
    trace = tmp_path / "trace.csv"
    args = ["--method", "metropolis", "--runs", "2", "--trace", str(trace), "--trace-every", "50"]
    code, _, _ = run("solve", str(easy9), *args)
    assert code == 0
    with open(trace) as f:
        rows = list(csv.DictReader(f))
    assert list(rows[0]) == ["file", "seed", "proposal", "energy", "temperature", "acceptance"]
    assert {row["seed"] for row in rows} == {"0", "1"}
    first = [row for row in rows if row["seed"] == "0"]
    proposals = [int(row["proposal"]) for row in first]
    assert proposals == sorted(proposals) and len(proposals) > 2
    assert all(float(row["temperature"]) > 0 for row in first)
    assert first[0]["acceptance"] == ""  # no proposal yet
    assert all(0 <= float(row["acceptance"]) <= 1 for row in first[1:])


def test_trace_of_a_cooling_schedule_shows_the_temperature_fall(
    run: CliRun, tmp_path: Path
) -> None:
    trace = tmp_path / "cool.csv"
    args = ["--method", "metropolis", "--t0", "2", "--alpha", "0.9", "--trace", str(trace)]
    code, _, _ = run("solve", "-", *args, "--trace-every", "1", input=SHIDOKU)
    assert code == 0
    with open(trace) as f:
        temperatures = [float(row["temperature"]) for row in csv.DictReader(f)]
    assert temperatures[0] == pytest.approx(2.0)
    assert temperatures == sorted(temperatures, reverse=True)


def test_plot_draws_every_run(run: CliRun, easy9: Path, tmp_path: Path) -> None:
    image = tmp_path / "energy.png"
    args = ["--method", "metropolis", "--runs", "3", "--plot", str(image)]
    code, _, _ = run("solve", str(easy9), *args)
    assert code == 0
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_missing_matplotlib_is_a_clear_error(
    run: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    code, out, err = run("solve", "-", "--method", "metropolis", "--plot", "x.png", input=SHIDOKU)
    assert code == 2 and out == "" and err.startswith("Error: plots need matplotlib")
    assert "(the plot extra): pip install matplotlib," in err
    assert "pip install -e '.[plot]'" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--trace", "t.csv"], "--method metropolis"),
        (["--moves", "row"], "--method metropolis"),
        (["--method", "metropolis", "-T", "-0.1"], "-0.1"),
        (["--method", "metropolis", "--alpha", "1.5"], "1.5"),
        (["--method", "metropolis", "--alpha", "0"], "0"),
        (["--method", "metropolis", "--schedule", "ramp", "--alpha", "0.9"], "exponential"),
        (["--method", "metropolis", "-T", "0.3", "--alpha", "0.9"], "--t0"),
        (["--method", "metropolis", "--ladder", "0.2,0.3"], "tempering"),
        (["--method", "hybrid", "--exchange-every", "100"], "tempering"),
        (["--method", "tempering", "--exchange-every", "0"], "0"),
        (["--method", "tempering", "--ladder", "0.2"], "at least 2 temperatures"),
        (["--method", "tempering", "--ladder", "0.2:0.1:0.05"], "stops before it starts"),
        (["--method", "tempering", "--moves", "single"], "tempering"),
        (["--method", "metropolis", "--runs", "0"], "0"),
        (["--no-prune"], "--method metropolis"),
        (["--method", "metropolis", "--no-prune"], "only tempering can leave pruning out"),
        (["--method", "hybrid", "--no-prune"], "hybrid always does"),
    ],
)
def test_bad_chain_options(run: CliRun, args: list[str], message: str) -> None:
    code, out, err = run("solve", "-", *args, input=SHIDOKU)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_row_moves_on_a_samurai_are_refused(run: CliRun, data: Path) -> None:
    puzzle = data / "samurai" / "jss_samurai.txt"
    code, _, err = run("solve", str(puzzle), "--method", "metropolis", "--moves", "row")
    assert code == 2 and err.startswith("Error:") and "row" in err


def test_tune_reports_every_setting_and_a_fit(run: CliRun, easy9: Path, tmp_path: Path) -> None:
    image = tmp_path / "tune.png"
    args = ["tune", str(easy9), "--temperatures", "0.2:0.4:0.05", "--runs", "3"]
    code, out, _ = run(*args, "--plot", str(image))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["T", "solved"]
    assert [line.split()[0] for line in lines[1:6]] == ["0.2", "0.25", "0.3", "0.35", "0.4"]
    assert lines[-1].startswith("quadratic fit of mean seconds")
    assert image.read_bytes()[:4] == b"\x89PNG"
    code, out, _ = run(*args, "--format", "json")
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["temperature"] for r in records[:-1]] == [0.2, 0.25, 0.3, 0.35, 0.4]
    assert all(r["runs"] == 3 and len(r["success"]) == 3 for r in records[:-1])
    assert set(records[-1]) == {"fit"}


def test_tune_scans_cooling_rates(run: CliRun, easy9: Path) -> None:
    args = ["tune", str(easy9), "--temperatures", "1", "--alpha", "0.99,0.999", "--runs", "2"]
    code, out, _ = run(*args, "--format", "json")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [(r["temperature"], r["alpha"]) for r in records[:-1]] == [(1, 0.99), (1, 0.999)]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--temperatures", "0.5:0.1:0.1"], "stops before it starts"),
        (["--temperatures", "0.1,-0.2"], "positive"),
        (["--alpha", "0.9,2"], "(0, 1]"),
        (["--temperatures", "0.2,0.3", "--alpha", "0.9,0.99", "--plot", "x.png"], "one"),
        (["--runs", "0"], "0"),
        (["--method", "exact"], "exact"),
    ],
)
def test_bad_tune_options(run: CliRun, args: list[str], message: str) -> None:
    code, out, err = run("tune", "-", *args, input=SHIDOKU)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize(("option", "what"), [("--trace", "trace"), ("--plot", "plot")])
def test_an_unwritable_trace_or_plot_is_a_clear_error(
    run: CliRun, tmp_path: Path, option: str, what: str
) -> None:
    target = str(tmp_path / "missing-folder" / "out")
    code, _, err = run("solve", "-", "--method", "metropolis", option, target, input=SHIDOKU)
    assert code == 2 and err.startswith(f"Error: cannot {'write' if what == 'trace' else 'save'}")
    assert target in err and "Traceback" not in err
