"""The package's shape: one floor per step of the data flow, one job per file.

text → model → solvers → tasks (and picture, beside them) → cli, with ``errors``, ``limits``
and ``jit`` below them all: an import never runs up a floor, no module imports another's
private name, networkx is imported only where a graph is built for people, and every file
states its one job in its first docstring line and stays readable in length.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ndoku"
#: The floor of each top-level room; a module may import only from its floor or below.
FLOORS = {
    "errors": 0,
    "limits": 0,
    "jit": 0,
    "text": 1,
    "model": 2,
    "solvers": 3,
    "tasks": 4,
    "picture": 4,  # drawing what the tasks computed; tasks draw with it
    "cli": 5,
    "web": 5,  # the browser's way in, beside the commands (serve imports it when run)
    "__init__": 6,
    "__main__": 6,
}
#: Where networkx may be imported: the peer graph built for people, ``ndoku graph``, and the
#: colouring of a jigsaw's regions in a picture.
NETWORKX = {"model/graph.py", "cli/looking.py", "picture/drawing.py"}
MAX_LINES = 600
MODULES = sorted(PACKAGE.rglob("*.py"))


def _name(path: Path) -> str:
    return str(path.relative_to(PACKAGE))


def _room(module: str) -> str:
    """``ndoku.solvers.exact.batch`` → ``solvers``; ``ndoku`` → ``__init__``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[int, str, list[str]]]:
    """(line, module, imported names) of every ``ndoku`` import in code (docstrings aside)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ndoku"):
            found.append((node.lineno, node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name, []) for a in node.names if a.name.startswith("ndoku")]
    return found


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_imports_run_down_the_floors(path: Path) -> None:
    own = FLOORS[_room("ndoku." + _name(path).removesuffix(".py").replace("/", "."))]
    for line, module, names in _imports(path):
        # the version is the package's own constant, and the package is imported first anyway
        names = [n for n in names if n != "__version__"]
        targets = [module] if module != "ndoku" else [f"ndoku.{n}" for n in names]
        for target in targets:
            assert FLOORS[_room(target)] <= own, f"{_name(path)}:{line} imports {target} (up)"


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_no_module_imports_another_private_name(path: Path) -> None:
    for line, module, names in _imports(path):
        private = [n for n in names if n.startswith("_") and not n.startswith("__")]
        assert not private, f"{_name(path)}:{line} imports {private} from {module}"


def _runtime_imports(tree: ast.AST) -> list[str]:
    """Modules imported when the file runs (``if TYPE_CHECKING:`` blocks left out)."""
    found = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            continue
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append(node.module)
        found += _runtime_imports(node)
    return found


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_networkx_only_where_a_graph_is_built_for_people(path: Path) -> None:
    modules = _runtime_imports(ast.parse(path.read_text(encoding="utf-8")))
    uses = any(m.split(".")[0] == "networkx" for m in modules)
    assert not uses or _name(path) in NETWORKX, _name(path)


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_one_job_per_file_stated_first(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    docstring = ast.get_docstring(ast.parse(text))
    assert docstring and docstring.strip(), f"{_name(path)} has no docstring"
    assert len(text.splitlines()) <= MAX_LINES, f"{_name(path)} is over {MAX_LINES} lines"


def test_the_floors_name_every_room() -> None:
    rooms = {_room("ndoku." + _name(p).split("/")[0].removesuffix(".py")) for p in MODULES}
    assert rooms == set(FLOORS)
