"""MkDocs hook: the pictures the pages show, served as ``assets/NAME`` from where they live
(``examples/figures/``, ``benchmarks/figures/``), and the notebooks of ``examples/`` as pages
under ``notebooks/`` (mkdocs-jupyter renders them), so that no file is kept twice.

mkdocs-jupyter wraps each notebook in a file object of its own, which works out the source's
path from the folder of the docs; a file added here has none, so :func:`on_nav` (after every
plugin's ``on_files``) gives the wrapped notebooks their path back.

The docstrings name other objects with Sphinx's roles (``:func:`solve```), which the API pages
would show as written: :func:`on_page_content` shows each as the name in code (``~`` keeps
only the last part, as in Sphinx)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("examples/figures", "benchmarks/figures")
#: The notebooks, jupytext percent-format scripts; mkdocs.yml's mkdocs-jupyter `include` and
#: nav name the same files.
NOTEBOOKS = ("examples/monte_carlo_lab.py", "examples/layouts_and_generation.py")
#: A Sphinx role as the page holds it: its target in code, or still in backquotes.
ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):(?:<code>([^<]*)</code>|`([^`]*)`)")


@event_priority(100)  # before the plugins, which then see these as any other file
def on_files(files: Files, config: Any) -> Files:
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).glob("*.png")):
            files.append(File.generated(config, f"assets/{path.name}", abs_src_path=str(path)))
    for name in NOTEBOOKS:
        path = ROOT / name
        files.append(File.generated(config, f"notebooks/{path.name}", abs_src_path=str(path)))
    return files


@event_priority(-100)  # after the plugins: mkdocs-jupyter has wrapped the notebooks by now
def on_nav(nav: Navigation, config: Any, files: Files) -> Navigation:
    for name in NOTEBOOKS:
        path = ROOT / name
        file = files.get_file_from_path(f"notebooks/{path.name}")
        if file is not None:
            file.abs_src_path = str(path)
    return nav


def _named(match: re.Match[str]) -> str:
    target = match.group(1) if match.group(1) is not None else match.group(2)
    if target.startswith("~"):
        target = target[1:].rsplit(".", 1)[-1]
    return f"<code>{target}</code>"


def on_page_content(html: str, page: Any, config: Any, files: Files) -> str:
    return ROLE.sub(_named, html)
