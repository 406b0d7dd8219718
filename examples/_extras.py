"""How an example script stops when an extra it needs is missing: ``Error: …`` naming the extra
and exit status 2, as the ``ndoku`` command does, instead of a traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable

from ndoku.cli.common import EXIT_BAD_INPUT
from ndoku.errors import MissingExtra


def run_script(main: Callable[[], None]) -> None:
    """Run a script's ``main``, which checks its extra before any work (it raises
    :class:`~ndoku.errors.MissingExtra`)."""
    try:
        main()
    except MissingExtra as exc:
        print(f"Error: {exc}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT) from None
