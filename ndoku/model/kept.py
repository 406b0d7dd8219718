"""A store of the latest things built, by key, bounded in number and in weight, safe to share
between threads: what depends only on a layout is built once, not once per read.

>>> store: Kept[str, int] = Kept(most=2)
>>> store.get_or_build("a", lambda: 1), store.get_or_build("a", lambda: 2)
(1, 1)
>>> _ = store.get_or_build("b", lambda: 3), store.get_or_build("c", lambda: 4)
>>> store.get_or_build("a", lambda: 5)  # the oldest went when the third came
5
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    """The ``most`` latest used values; with ``weight``, also at most ``most_weight`` of
    their weights summed (the latest one kept whatever it weighs).

    A value is built outside the lock: two threads asking for one key at once may both
    build it, and both get the first one stored.
    """

    def __init__(
        self,
        most: int,
        weight: Callable[[V], int] | None = None,
        most_weight: int = 0,
    ):
        self.most = most
        self.weight = weight
        self.most_weight = most_weight
        self._values: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_build(self, key: K, build: Callable[[], V]) -> V:
        """The value kept for ``key``, else ``build()``, kept."""
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = build()
        with self._lock:
            value = self._values.setdefault(key, value)
            self._values.move_to_end(key)
            while len(self._values) > self.most or self._too_heavy():
                self._values.popitem(last=False)
        return value

    def _too_heavy(self) -> bool:
        if self.weight is None or len(self._values) < 2:
            return False
        return sum(self.weight(v) for v in self._values.values()) > self.most_weight
