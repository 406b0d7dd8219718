"""The documentation site: it builds strictly (every warning an error), every public name and
every command and option has its reference entry, and the README stays short."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

import ndoku
from ndoku.cli import main

ROOT = Path(__file__).resolve().parent.parent
README_LINES = 160


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built as `make docs` builds it, into a folder of the test's own."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    folder = tmp_path_factory.mktemp("site")
    build = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(folder)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        # The notebooks' pages are built without running them: tests/test_notebooks.py runs them.
        env={
            "NO_MKDOCS_2_WARNING": "1",
            "PATH": "",
            "HOME": str(folder),
            "NDOKU_DOCS_EXECUTE": "false",
        },
    )
    assert build.returncode == 0, build.stderr
    return folder


def page(site: Path, name: str) -> str:
    return (site / name / "index.html").read_text(encoding="utf-8")


def test_every_public_name_has_its_entry(site: Path) -> None:
    api = page(site, "reference/api")
    names = [name for name in ndoku.__all__ if name != "__version__"]
    missing = [name for name in names if f'id="ndoku.{name}"' not in api]
    assert not missing, f"no reference entry for {missing}"


def test_docstrings_name_objects_as_code_not_as_roles(site: Path) -> None:
    api = page(site, "reference/api")
    assert "<code>Grid</code>" in api  # :class:`~ndoku.text.grid.Grid`
    assert not re.search(r":(?:func|class|mod|meth|attr|data|exc):", api)


def options_of(command: click.Command) -> list[str]:
    """The long (else short) name of each option of ``command``, --help left out."""
    names = []
    for parameter in command.params:
        if isinstance(parameter, click.Option) and not parameter.hidden:
            longs = [o for o in parameter.opts if o.startswith("--")]
            names.append((longs or parameter.opts)[0])
    return names


def test_every_command_and_option_has_its_entry(site: Path) -> None:
    cli = page(site, "reference/cli")
    assert isinstance(main, click.Group)
    missing = []
    for name, command in main.commands.items():
        section = re.search(rf'<h\d id="ndoku-{name}"[\s\S]*?(?=<h\d id="ndoku-|\Z)', cli)
        if section is None:
            missing.append(name)
            continue
        missing += [f"{name} {o}" for o in options_of(command) if o not in section.group()]
    assert not missing, f"no reference entry for {missing}"


def test_the_pictures_the_pages_show_are_served(site: Path) -> None:
    shown = set()
    for html in site.rglob("*.html"):
        shown |= set(re.findall(r'src="(?:\.\./)*assets/([\w.-]+)"', html.read_text()))
    assert shown
    assert all((site / "assets" / name).is_file() for name in shown)


def test_the_site_needs_no_network(site: Path) -> None:
    # No CDN and no web fonts: the site reads the same offline.
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "fonts.googleapis" not in text, html
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="https?://', text), html


def test_the_readme_fits_and_opens_with_the_set_up() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_LINES
    block = lines.index("```", lines.index("## Set up"))
    assert lines[block + 1 : block + 3] == ["make demo", "make test"]


def test_the_readme_links_resolve() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert targets
    assert [t for t in targets if not t.startswith("http") and not (ROOT / t).exists()] == []
