"""``python -m ndoku``: the same as the ``ndoku`` command."""

from ndoku.cli import main

main()
