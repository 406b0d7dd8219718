"""The notebooks of ``examples/`` (jupytext percent-format scripts): each is kept as jupytext
writes it, runs from top to bottom in a kernel of this very interpreter, and shows ndoku's rich
displays (puzzles and outcomes as SVG, chain results, ratings and explanations as HTML)."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

EXTRA = "the test extra is not installed (pip install -e '.[test]')"
jupytext = pytest.importorskip("jupytext", reason=f"jupytext: {EXTRA}")
nbclient = pytest.importorskip("nbclient", reason=f"nbclient: {EXTRA}")
pytest.importorskip("ipykernel", reason=f"ipykernel: {EXTRA}")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ("examples/monte_carlo_lab.py", "examples/layouts_and_generation.py")
#: The cell added at the end of each run: which python the kernel is.
WHICH = "import sys\nprint(sys.executable, end='')"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_a_notebook_is_kept_as_jupytext_writes_it(name: str) -> None:
    # what Jupyter saves through jupytext is the file itself: the diff shows only real edits
    text = (ROOT / name).read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("# %% ")  # its first line says what it is
    assert jupytext.writes(jupytext.reads(text, fmt="py:percent"), fmt="py:percent") == text


@pytest.fixture(scope="module", params=NOTEBOOKS)
def executed(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """The notebook run from the repository's root in the python3 kernel, a cell added at the
    end that prints the kernel's interpreter."""
    name: str = request.param
    notebook = jupytext.read(ROOT / name)
    notebook.cells.append(jupytext.reads(WHICH, fmt="py:percent").cells[0])
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(ROOT)}},
    )
    raised = None
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as error:  # the cell, its error, its traceback
        raised = ANSI.sub("", str(error))  # IPython colours the traceback
    if raised is not None:
        pytest.fail(f"{name}: a cell raised\n{raised}", pytrace=False)
    return name, notebook


def _outputs(notebook: Any) -> list[Any]:
    return [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]


def test_a_notebook_runs_in_this_interpreter(executed: tuple[str, Any]) -> None:
    name, notebook = executed
    [said] = [o.text for o in notebook.cells[-1].outputs if o.output_type == "stream"]
    assert said == sys.executable, f"{name} ran in {said}, not in {sys.executable}"


def test_a_notebook_shows_the_rich_displays(executed: tuple[str, Any]) -> None:
    name, notebook = executed
    outputs = _outputs(notebook)
    assert not [o for o in outputs if o.output_type == "error"]
    shown = {kind for o in outputs for kind in o.get("data", {})}
    assert {"image/svg+xml", "text/html"} <= shown, f"{name} shows only {sorted(shown)}"
