"""Counts in words: ``1 puzzle``, ``2 puzzles``, the noun in the plural unless the count is one."""

from __future__ import annotations


def plural(count: int, noun: str, spec: str = "") -> str:
    """``count`` and ``noun``, the noun in the plural unless the count is one.

    Parameters
    ----------
    count : int
    noun : str
        The singular; its plural adds ``es`` after s, x, z, ch and sh, else ``s``.
    spec : str
        How the count is formatted (``","`` parts the thousands).

    Examples
    --------
    >>> plural(1, "puzzle"), plural(2, "puzzle"), plural(0, "given")
    ('1 puzzle', '2 puzzles', '0 givens')
    >>> plural(1, "guess"), plural(12345, "guess", ","), plural(3, "peer pair")
    ('1 guess', '12,345 guesses', '3 peer pairs')
    """
    if count == 1:
        return f"{count:{spec}} {noun}"
    ending = "es" if noun.endswith(("s", "x", "z", "ch", "sh")) else "s"
    return f"{count:{spec}} {noun}{ending}"
