"""The JSON API of ``ndoku serve`` through Starlette's test client, against the real app: the
records are the commands' ``--format json`` records, every answer is verified here again,
bad input gets the command's sentence in a 4xx, and the guards hold (size, type, host, slots).
"""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from ndoku.cli import main
from ndoku.model.puzzle import Puzzle, read_puzzles
from ndoku.tasks.count import count_all
from ndoku.tasks.records import layout_records
from ndoku.tasks.solve import Options
from ndoku.tasks.verify import verify

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from ndoku.web import app as web
from ndoku.web.asks import CountAsk

REPO = Path(__file__).resolve().parent.parent
SAMURAI_PATH = REPO / "examples" / "samurai.txt"
SAMURAI = SAMURAI_PATH.read_text()
NINES = REPO / "tests" / "data" / "sudoku9" / "kaggle_bryanpark_first69.txt"
NINE = NINES.read_text().splitlines()[0].split(",")[0]
FOUR = "1 0 0 0\n0 0 3 0\n0 4 0 0\n0 0 0 2\n"
BASE = "http://127.0.0.1:8000"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(web.make_app(), base_url=BASE) as test_client:
        yield test_client


def post(client: TestClient, name: str, **ask: Any) -> Any:
    """The answer of a request that must succeed."""
    response = client.post(f"/api/{name}", json=ask)
    assert response.status_code == 200, response.text
    return response.json()


def cli_records(*args: str, text: str | None = None) -> list[dict[str, Any]]:
    """The JSON lines of a command (``-`` reads ``text``), without their ``file``."""
    result = CliRunner().invoke(main, [*args, "--format", "json"], input=text)
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    for line in lines:
        line.pop("file", None)
    return lines


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in ("seconds", "proposals_per_second")}


def solved_values(puzzle: Puzzle, solution: str) -> np.ndarray:
    """The values of a solution text, read back as the puzzle it solves (its layout)."""
    [filled] = read_puzzles(text=solution)
    assert filled.index.shape == puzzle.index.shape
    return filled.givens


def test_solve_gives_the_command_record_and_a_verified_solution(client: TestClient) -> None:
    answer = post(client, "solve", text=SAMURAI, picture=True)
    [record] = answer["records"]
    [expected] = cli_records("solve", str(SAMURAI_PATH))
    assert without_seconds(record) == without_seconds(expected)
    [puzzle] = read_puzzles(text=SAMURAI)
    verify(puzzle, solved_values(puzzle, record["solution"]))
    assert answer["svg"].count("data-cell=") == puzzle.n_cells


def test_solve_a_batch_numbers_its_puzzles(client: TestClient) -> None:
    lines = NINES.read_text().splitlines()[:5]
    text = "".join(line.split(",")[0] + "\n" for line in lines)
    records = post(client, "solve", text=text)["records"]
    assert [r["puzzle"] for r in records] == [1, 2, 3, 4, 5]
    for puzzle, record in zip(read_puzzles(text=text), records, strict=True):
        assert record["status"] == "solved"
        verify(puzzle, read_puzzles(text=record["solution"])[0].givens)


def test_a_chain_solves_one_puzzle_and_refuses_a_batch(client: TestClient) -> None:
    [record] = post(client, "solve", text=FOUR, method="metropolis", seed=3)["records"]
    assert record["status"] == "solved" and record["seed"] == 3
    [puzzle] = read_puzzles(text=FOUR)
    verify(puzzle, solved_values(puzzle, record["solution"]))
    refused = client.post("/api/solve", json={"text": FOUR + "\n" + FOUR, "method": "metropolis"})
    assert refused.status_code == 400
    assert refused.json()["error"] == "this asks for one puzzle; the text holds 2 ones"


def test_a_chain_gives_its_trace_when_asked(client: TestClient) -> None:
    easy = (REPO / "tests" / "data" / "sudoku9" / "norvig_easy50.txt").read_text().split()[0]
    answer = post(client, "solve", text=easy, method="metropolis", trace_every=100)
    [record], trace = answer["records"], answer["trace"]
    assert trace["columns"] == ["proposal", "energy", "temperature", "acceptance"]
    rows = trace["rows"]
    assert rows[0][0] == 0 and rows[0][3] is None
    assert rows[-1][:2] == [record["proposals"], record["energy"]] and record["energy"] == 0
    assert len(rows) <= 2000 and [r[0] for r in rows] == sorted(r[0] for r in rows)
    assert "trace" not in post(client, "solve", text=easy)  # the exact search has none


def test_count_gives_the_command_record(client: TestClient) -> None:
    empty = "0 0 0 0\n" * 4
    [record] = post(client, "count", text=empty, limit=5)["records"]
    assert record["count"] == 5 and record["at_least"] is True
    [expected] = cli_records("count", "-", "--limit", "5", text=empty)
    assert without_seconds(record) == without_seconds(expected)


def test_hint_gives_the_step_the_picture_and_the_text_with_it_placed(client: TestClient) -> None:
    answer = post(client, "hint", text=NINE, picture=True)
    [record] = answer["records"]
    [expected] = cli_records("hint", "-", text=NINE)
    assert record == expected
    [[r, c, symbol]] = record["placements"]
    [before] = read_puzzles(text=NINE)
    [after] = read_puzzles(text=answer["applied"])
    placed = after.givens - before.givens
    assert np.count_nonzero(placed) == 1
    assert int(after.index[r, c]) == int(np.flatnonzero(placed)[0])
    assert before.grid.style.symbol(int(placed.max())) == symbol
    # the placed value is one of the solution (the only one)
    [counted] = count_all([after], Options(limit=2))
    assert counted.result is not None and counted.result.count == 1
    assert answer["svg"].count('fill="#ffe58a"') == len(record["cells"])


def test_hint_on_a_solved_grid_says_so(client: TestClient) -> None:
    solved = "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n"
    answer = post(client, "hint", text=solved)
    assert answer["records"] == [{"step": None, "text": "nothing left to do: the grid is solved"}]
    assert answer["applied"] is None


def test_explain_gives_every_step_then_the_summary(client: TestClient) -> None:
    records = post(client, "explain", text=FOUR)["records"]
    assert records == cli_records("explain", "-", text=FOUR)
    assert records[-1]["stop"] == "solved" and records[-1]["steps"] == len(records) - 1


def test_explain_draws_the_grid_before_a_step(client: TestClient) -> None:
    answer = post(client, "explain", text=FOUR, picture=True, at=3)
    step = answer["records"][2]
    assert answer["svg"].count('fill="#ffe58a"') == len(step["cells"])
    # the values placed by the two steps before it are drawn, the third's not yet
    [puzzle] = read_puzzles(text=FOUR)
    placed = [answer["records"][k]["placements"][0] for k in (0, 1, 2)]
    for k, (r, c, symbol) in enumerate(placed):
        shown = f'data-cell="{r},{c}">{symbol}<' in answer["svg"]
        assert shown == (k < 2) and puzzle.givens[int(puzzle.index[r, c])] == 0
    refused = client.post("/api/explain", json={"text": FOUR, "at": 13})
    assert refused.status_code == 400
    assert refused.json()["error"] == "the path has 12 steps: there is no step 13"


def test_rate_gives_the_command_record(client: TestClient) -> None:
    [record] = post(client, "rate", text=NINE, chains=0)["records"]
    [expected] = cli_records("rate", "-", "--chains", "0", text=NINE)
    assert without_seconds(record) == without_seconds(expected)
    assert record["status"] == "unique"


def test_rate_keeps_its_chains_within_the_time_limit_of_a_job(client: TestClient) -> None:
    response = client.post("/api/rate", json={"text": NINE, "chains": 7})
    assert response.status_code == 400
    assert response.json()["error"] == (
        "the server's time limit is 60 s a job: 7 chains of up to 10 s each may take longer; "
        "ask for at most 6"
    )


def test_generate_gives_the_command_record_of_a_unique_puzzle(client: TestClient) -> None:
    answer = post(client, "generate", layout="6x6", seed=4, symmetry="rotational", picture=True)
    [record] = answer["records"]
    [expected] = cli_records("generate", "6x6", "--seed", "4", "--symmetry", "rotational")
    assert without_seconds(record) == without_seconds(expected)
    [puzzle] = read_puzzles(text=record["puzzle"])
    [counted] = count_all([puzzle], Options(limit=2))
    assert counted.result is not None and counted.result.count == 1
    verify(puzzle, solved_values(puzzle, record["solution"]))


def test_generate_with_rules_gives_the_command_record(client: TestClient) -> None:
    answer = post(client, "generate", layout="6x6", seed=2, rules="killer")
    [record] = answer["records"]
    [expected] = cli_records("generate", "6x6", "--seed", "2", "--rules", "killer")
    assert without_seconds(record) == without_seconds(expected) and record["rules"] == "killer"
    [puzzle] = read_puzzles(text=record["puzzle"])
    assert puzzle.rules and all(rule.kind == "cage" for rule in puzzle.rules)
    verify(puzzle, solved_values(puzzle, record["solution"]))


@pytest.mark.parametrize("layout", ["../layouts/9x9.layout", "/etc/passwd", "nine"])
def test_generate_takes_a_layout_by_name_only(client: TestClient, layout: str) -> None:
    response = client.post("/api/generate", json={"layout": layout})
    assert response.status_code == 400
    said = CliRunner().invoke(main, ["generate", "nine"]).stderr.strip()
    assert response.json()["error"] == said.removeprefix("Error: ").replace("'nine'", repr(layout))


@pytest.mark.parametrize(
    ("ask", "line"),
    [
        ({"text": FOUR, "layout": "/etc/passwd"}, None),
        ({"text": FOUR, "layout": "layouts/4x4.txt"}, None),
        ({"text": "# layout: /etc/passwd\n" + FOUR}, 1),
        ({"text": "# a comment\n#Layout:../layouts/4x4.txt\n" + FOUR}, 2),
    ],
)
def test_no_file_a_client_names_is_opened(client: TestClient, ask: Any, line: Any) -> None:
    response = client.post("/api/solve", json=ask)
    assert response.status_code == 400
    error = response.json()
    assert error["line"] == line
    assert "the server takes layouts by name only, not " in error["error"]
    named = {"text": "# layout: 4x4\n" + FOUR, "layout": "4x4"}  # by name: read as usual
    assert post(client, "solve", **named)["records"][0]["status"] == "solved"


def test_layouts_are_those_the_command_lists_with_their_empty_grids(client: TestClient) -> None:
    records = client.get("/api/layouts").json()["records"]
    assert [r["layout"] for r in records] == [r["layout"] for r in layout_records()]
    for record in records:
        [puzzle] = read_puzzles(text=record["text"])
        assert puzzle.layout.name == record["layout"] or puzzle.size == record["size"]
        assert not puzzle.givens.any() and puzzle.n_cells == record["cells"]


def test_a_picture_draws_values_over_the_givens(client: TestClient) -> None:
    [record] = post(client, "solve", text=FOUR)["records"]
    svg = post(client, "picture", text=FOUR, values=record["solution"])["svg"]
    assert svg.count("data-cell=") == 16 and 'data-cell="0,0">1<' in svg
    refused = client.post("/api/picture", json={"text": FOUR, "values": NINE})
    assert refused.status_code == 400


@pytest.mark.parametrize(
    ("kind", "media", "start"),
    [
        ("svg", "image/svg+xml", b"<svg "),
        ("png", "image/png", b"\x89PNG"),
        ("pdf", "application/pdf", b"%PDF"),
    ],
)
def test_a_download_is_the_picture_as_a_file(
    client: TestClient, kind: str, media: str, start: bytes
) -> None:
    [record] = post(client, "solve", text=FOUR)["records"]
    response = client.post(
        "/api/download", json={"text": FOUR, "values": record["solution"], "format": kind}
    )
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(media)
    assert response.headers["content-disposition"] == f'attachment; filename="puzzle.{kind}"'
    assert response.content.startswith(start)
    if kind == "svg":
        assert b"data-cell" not in response.content and response.content.count(b"<text") == 16


def test_a_download_of_an_unknown_format_is_refused(client: TestClient) -> None:
    response = client.post("/api/download", json={"text": FOUR, "format": "gif"})
    assert response.status_code == 400
    assert response.json()["error"] == "unknown picture format 'gif' (known: svg, png, pdf)"


def test_an_edit_writes_or_clears_one_given_in_the_layout_text(client: TestClient) -> None:
    empty = client.get("/api/layouts").json()["records"]
    [six] = [r["text"] for r in empty if r["layout"] == "6x6"]
    text = post(client, "edit", text=six, row=2, col=3, value="4")["text"]
    [puzzle] = read_puzzles(text=text)
    assert text.startswith("# box: 2x3\n")  # the layout's header kept
    assert int(puzzle.givens[puzzle.index[2, 3]]) == 4 and int((puzzle.givens > 0).sum()) == 1
    assert post(client, "edit", text=text, row=2, col=3, value="")["text"] == six
    for ask, said in [
        ({"row": 0, "col": 0, "value": "7"}, "'7' is no symbol of this puzzle (1 to 6)"),
        ({"row": 6, "col": 0, "value": "1"}, "no cell at row 6, column 0 of the canvas (from 0)"),
    ]:
        response = client.post("/api/edit", json={"text": six, **ask})
        assert response.status_code == 400 and response.json()["error"] == said


def test_bad_puzzle_text_gets_the_command_sentence_with_its_line_and_column(
    client: TestClient,
) -> None:
    text = "1 2 3 4\n3 4 x 2\n2 1 4 3\n4 3 2 1\n"
    response = client.post("/api/solve", json={"text": text})
    assert response.status_code == 400
    error = response.json()
    assert error["line"] == 2 and error["column"] == 5
    said = CliRunner().invoke(main, ["solve", "-"], input=text).stderr
    assert said.strip() == f"Error: <stdin>: {error['error']}"


@pytest.mark.parametrize(
    ("ask", "said"),
    [
        ({"text": FOUR, "methods": "x"}, "unknown option 'methods' (known: text, layout"),
        ({"text": FOUR, "seed": "1"}, "option 'seed' must be a whole number, got a string"),
        ({"text": FOUR, "seed": True}, "option 'seed' must be a whole number, got true or"),
        ({"text": FOUR, "seed": -1}, "seed must be a whole number from 0 to 10¹⁸, got -1"),
        ({"text": FOUR, "method": "magic"}, "unknown method 'magic'"),
        ({"text": FOUR, "timeout": 600}, "the server's time limit is 60 s a job"),
        ({"text": FOUR, "timeout": -1}, "timeout must be"),
        ({"seed": 1}, "option 'text' is needed"),
        ([1, 2], "the request body must be a JSON object, got a list"),
    ],
)
def test_bad_options_get_a_sentence_that_names_them(
    client: TestClient, ask: Any, said: str
) -> None:
    response = client.post("/api/solve", json=ask)
    assert response.status_code == 400
    assert response.json()["error"].startswith(said), response.json()


def test_a_body_must_be_json(client: TestClient) -> None:
    response = client.post("/api/count", content=b"{", headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["error"].startswith("the request body is not JSON")
    # a form another site's page could send without asking first
    response = client.post(
        "/api/count", content=b'{"text": "1"}', headers={"content-type": "text/plain"}
    )
    assert response.status_code == 400
    assert "Content-Type: application/json" in response.json()["error"]


def test_a_body_over_a_megabyte_gets_413_said_or_streamed(client: TestClient) -> None:
    big = json.dumps({"text": "0" * 1_100_000}).encode()
    json_type = {"content-type": "application/json"}
    response = client.post("/api/count", content=big, headers=json_type)
    assert response.status_code == 413
    assert response.json()["error"] == "the request body is over 1,000,000 bytes"

    def pieces() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        for k in range(0, len(big), 65536):
            yield big[k : k + 65536]

    response = client.post("/api/count", content=pieces(), headers=json_type)
    assert response.status_code == 413


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example", "attacker:8000"])
def test_another_host_name_is_refused(client: TestClient, host: str) -> None:
    response = client.post("/api/count", json={"text": FOUR}, headers={"host": host})
    assert response.status_code == 403
    assert response.json()["error"].startswith(f"host {host!r} is not served here")
    assert client.get("/", headers={"host": host}).status_code == 403


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "localhost"])
def test_the_loopback_names_are_served(client: TestClient, host: str) -> None:
    assert client.get("/", headers={"host": host}).status_code == 200


def test_the_page_and_its_files_are_served_with_a_strict_policy(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and 'data-test="input"' in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    for name in ("page.js", "page.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.post("/api/nothing", json={}).status_code == 404


def test_openapi_describes_every_endpoint_from_its_ask(client: TestClient) -> None:
    document = client.get("/api/openapi.json").json()
    for name in web.ENDPOINTS:
        assert f"/api/{name}" in document["paths"]
    body = document["paths"]["/api/count"]["post"]["requestBody"]
    schema = body["content"]["application/json"]["schema"]
    assert list(schema["properties"]) == ["text", "layout", "symbols", "limit", "timeout"]
    assert schema["required"] == ["text"]


def test_a_job_waits_for_a_slot_then_gets_503(monkeypatch: pytest.MonkeyPatch) -> None:
    started, release = threading.Event(), threading.Event()

    def held(ask: CountAsk) -> dict[str, Any]:
        started.set()
        release.wait(10)
        return {"records": []}

    monkeypatch.setitem(web.ENDPOINTS, "count", (CountAsk, held))
    monkeypatch.setattr(web, "WAIT_SECONDS", 0.2)
    with TestClient(web.make_app(jobs=1), base_url=BASE) as one_slot:
        first: list[int] = []
        thread = threading.Thread(
            target=lambda: first.append(one_slot.post("/api/count", json={"text": ""}).status_code)
        )
        thread.start()
        assert started.wait(10)
        busy = one_slot.post("/api/count", json={"text": ""})
        release.set()
        thread.join(10)
    assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
    assert busy.json()["error"].startswith("busy")
    assert first == [200]


def test_serve_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    found = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else found(name, *a)
    )
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 2
    assert "needs uvicorn (the serve extra)" in result.stderr or "need uvicorn" in result.stderr
    assert "pip install -e '.[serve]'" in result.stderr


def test_serve_beyond_loopback_needs_public() -> None:
    result = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0"])
    assert result.exit_code == 2
    assert "add --public to listen there" in result.stderr


def test_serve_on_a_port_in_use_says_so() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{port}: ")


def test_serve_says_where_it_listens_answers_there_and_stops_on_ctrl_c() -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "ndoku", "serve", "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        line = server.stderr.readline()
        said = re.fullmatch(
            r"ndoku: listening on (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops\)\n", line
        )
        assert said, line
        request = urllib.request.Request(
            said.group(1) + "api/count",
            data=json.dumps({"text": FOUR}).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            assert json.load(response)["records"][0]["count"] == 1
        server.send_signal(signal.SIGINT)
        assert server.wait(30) == 130  # as every command stopped by Ctrl-C
    finally:
        server.kill()
        server.wait()


@pytest.mark.parametrize("warming", [True, False])
def test_ctrl_c_while_the_kernels_compile_ends_the_process_at_once(
    monkeypatch: pytest.MonkeyPatch, warming: bool
) -> None:
    # Python's own ending stops the warming thread wherever it is: inside a numba compile
    # that aborted the server (status -6 for a Ctrl-C in its first minute on an empty cache).
    from ndoku.cli import serving
    from ndoku.web.server import Listening

    def interrupted(self: Listening, warm: bool = True) -> None:
        raise KeyboardInterrupt

    ended: list[int] = []

    def exit_now(status: int) -> None:  # os._exit, which does not return either
        ended.append(status)
        raise SystemExit(status)

    monkeypatch.setattr(Listening, "serve", interrupted)
    monkeypatch.setattr(Listening, "still_warming", lambda self: warming)
    monkeypatch.setattr(serving.os, "_exit", exit_now)
    result = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert "ndoku: interrupted" in result.stderr and result.exit_code == 130
    assert ended == ([130] if warming else [])


def test_the_commands_import_no_web_library() -> None:
    code = "import sys, ndoku.cli; print(sorted({'starlette', 'uvicorn'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_link_gives_what_show_to_prints(client: TestClient) -> None:
    nine = (REPO / "tests" / "data" / "sudoku9" / "norvig_easy50.txt").read_text().split()[0]
    for to in ("fpuzzles", "sudokupad", "text"):
        answer = post(client, "link", text=nine, to=to)
        printed = CliRunner().invoke(main, ["show", "-", "--to", to], input=nine + "\n")
        assert answer == {"to": to, "link": printed.stdout.strip()}
    link = post(client, "link", text=nine)["link"]  # read back: the same puzzle
    [through] = post(client, "solve", text=link)["records"]
    [direct] = post(client, "solve", text=nine)["records"]
    digits = [re.sub(r"\D", "", r["solution"]) for r in (through, direct)]  # shapes differ
    assert through["status"] == "solved" and digits[0] == digits[1]
    response = client.post("/api/link", json={"text": nine, "to": "png"})
    assert response.status_code == 400
    assert response.json()["error"] == "unknown form 'png' (known: fpuzzles, sudokupad, text)"
