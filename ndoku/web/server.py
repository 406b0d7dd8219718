"""The server: the app bound to an address, its kernels warmed in the background, run by
uvicorn until stopped (Ctrl-C in a terminal, :meth:`Listening.stop` from a thread)."""

from __future__ import annotations

import ipaddress
import socket
import threading
from collections.abc import Sequence

import uvicorn

from ndoku.errors import NdokuError
from ndoku.tasks.chunks import warm
from ndoku.web.app import LOOPBACK, make_app


def loopback(host: str) -> bool:
    """True for an address only this machine reaches (127.0.0.0/8, ::1, ``localhost``).

    >>> loopback("127.0.0.1"), loopback("localhost"), loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: only localhost is known to stay here
        return False


def warm_kernels() -> None:
    """Load the kernels of the exact search, the chains and the logic engine (numba's cache,
    or a compile), so that the first answers are quick."""
    for method in ("auto", "rate", "metropolis"):
        warm(method)


class Listening:
    """The app listening on ``host:port`` (port 0: a free one), not yet serving.

    ``hosts`` are further names the ``Host`` header may give (the loopback names and
    ``host`` itself always may); ``jobs`` the heavy jobs at once (default: one per core).
    """

    def __init__(
        self, host: str, port: int, hosts: Sequence[str] = (), jobs: int | None = None
    ) -> None:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.socket = socket.socket(family, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.socket.bind((host, port))
        except OSError as exc:
            self.socket.close()
            raise NdokuError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
        self.socket.listen(128)  # a browser opened now waits in the queue
        self.port = int(self.socket.getsockname()[1])
        shown = f"[{host}]" if family == socket.AF_INET6 else host
        self.url = f"http://{shown}:{self.port}/"
        app = make_app([*LOOPBACK, shown, *hosts], jobs)
        config = uvicorn.Config(app, log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.warming: threading.Thread | None = None

    def serve(self, warm: bool = True) -> None:
        """Serve until stopped; with ``warm``, load the kernels in a background thread."""
        if warm:
            self.warming = threading.Thread(target=warm_kernels, name="ndoku-warm", daemon=True)
            self.warming.start()
        try:
            self.server.run(sockets=[self.socket])
        finally:
            self.socket.close()

    def still_warming(self) -> bool:
        """Whether the warming thread is still loading or compiling kernels."""
        return self.warming is not None and self.warming.is_alive()

    def stop(self) -> None:
        """Ask the server to finish its requests and stop."""
        self.server.should_exit = True
