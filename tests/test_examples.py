"""The scripts of ``examples/`` name the extra they need, and without it stop at once with
``Error: …`` and exit status 2, not a traceback."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).parent.parent / "examples"
#: Script → the extra it needs and the modules of that extra.
NEEDS = {
    "cooling.py": ("plot", ["matplotlib"]),
    "pictures.py": ("print", ["PIL", "reportlab"]),
    "samurai_traces.py": ("plot", ["matplotlib"]),
    "search_study.py": ("plot", ["matplotlib"]),
    "temperature_scan.py": ("plot", ["matplotlib"]),
}


#: Scripts that need no extra (tests/test_variant_sets.py checks what this one made).
NO_EXTRA = {"make_killer_samurai.py"}
#: Notebooks, run by tests/test_notebooks.py.
NOTEBOOKS = {"layouts_and_generation.py", "monte_carlo_lab.py"}


def test_every_script_is_checked() -> None:
    scripts = {p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_")}
    assert scripts == set(NEEDS) | NO_EXTRA | NOTEBOOKS


@pytest.mark.parametrize("script", sorted(NEEDS))
def test_a_script_without_its_extra_says_so_before_any_work(script: str, tmp_path: Path) -> None:
    extra, modules = NEEDS[script]
    docstring = ast.get_docstring(ast.parse((EXAMPLES / script).read_text())) or ""
    assert f"Needs the {extra} extra" in docstring
    # Python imports sitecustomize at start-up: a None in sys.modules makes the import fail
    blockers = "".join(f"sys.modules[{module!r}] = None\n" for module in modules)
    (tmp_path / "sitecustomize.py").write_text("import sys\n" + blockers)
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / script)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": path},
        timeout=120,  # the runs take minutes: a script that starts them has not failed fast
    )
    assert done.returncode == 2 and done.stdout == ""  # nothing run, nothing printed
    assert done.stderr.startswith("Error: ") and f"(the {extra} extra): pip install" in done.stderr
    assert f"pip install -e '.[{extra}]'" in done.stderr
    assert "Traceback" not in done.stderr
