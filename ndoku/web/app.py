"""The web app: the page and the JSON API, guarded (host, size, type of body, jobs at once).

Glossary
--------
guard
    What a request passes before any work: its ``Host`` is one the server listens as (so that
    another web site a browser has open cannot reach it by DNS rebinding), a body is JSON
    (``Content-Type: application/json``, which a page of another site cannot send without
    asking first) and at most :data:`MOST_BYTES` long (else 413).
slot
    A heavy job (every endpoint that solves, rates or makes) runs in a worker thread while
    it holds one of ``jobs`` slots, one per core by default; a request waits for a slot at
    most :data:`WAIT_SECONDS`, then gets 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from ndoku.errors import NdokuError, ParseError, VerificationError
from ndoku.web import answers, asks
from ndoku.web.openapi import openapi
from ndoku.web.watching import Run, SteerAsk, WatchAsk, steer, watched_puzzle

A = TypeVar("A")

STATIC = Path(__file__).resolve().parent / "static"
#: Bytes a request body may hold.
MOST_BYTES = 1_000_000
#: Seconds a request waits for a slot before it is refused (503).
WAIT_SECONDS = 10.0
#: Host names a server on a loopback address answers to.
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
#: The page loads nothing from elsewhere; the API is for this page and for scripts.
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; style-src 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

#: Each endpoint: its ask and its answer.
ENDPOINTS: dict[str, tuple[type[Any], Callable[[Any], answers.Answer | answers.Download]]] = {
    "solve": (asks.SolveAsk, answers.solve_answer),
    "count": (asks.CountAsk, answers.count_answer),
    "hint": (asks.PathAsk, answers.hint_answer),
    "explain": (asks.ExplainAsk, answers.explain_answer),
    "rate": (asks.RateAsk, answers.rate_answer),
    "generate": (asks.GenerateAsk, answers.generate_answer),
    "picture": (asks.PictureAsk, answers.picture_answer),
    "edit": (asks.EditAsk, answers.edit_answer),
    "link": (asks.LinkAsk, answers.link_answer),
    "download": (asks.DownloadAsk, answers.download_answer),
}


class TooLarge(NdokuError):
    """A request body over :data:`MOST_BYTES`."""


def refusal(message: str, status: int, **more: Any) -> JSONResponse:
    """An error as the page shows it: the sentence the command prints after ``Error:``."""
    return JSONResponse({"error": message, **more}, status, headers=HEADERS)


def error_answer(exc: NdokuError) -> JSONResponse:
    """A library error as JSON: 400 with its line and column for bad input; 500 for an
    answer that failed verification (a bug: never given out)."""
    if isinstance(exc, VerificationError):
        return refusal(str(exc), 500)
    if isinstance(exc, TooLarge):
        return refusal(str(exc), 413)
    where = {"line": exc.line, "column": exc.column} if isinstance(exc, ParseError) else {}
    return refusal(str(exc), 400, **where)


class Guard:
    """ASGI middleware: the ``Host`` check of every HTTP request (see the glossary)."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]):
        self.app = app
        self.hosts = {h.lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = dict(scope["headers"])
            host = headers.get(b"host", b"").decode("latin-1").lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name not in self.hosts:
                names = ", ".join(sorted(self.hosts))
                said = f"host {host!r} is not served here (it answers to {names})"
                await refusal(said, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def body_of(request: Request) -> bytes:
    """The request's JSON body, at most :data:`MOST_BYTES` (refused before it is read when
    its length is said)."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise asks.BadAsk("the request body must be JSON (Content-Type: application/json)")
    too_large = TooLarge(f"the request body is over {MOST_BYTES:,} bytes")
    said = request.headers.get("content-length")
    if said is not None and said.isdigit() and int(said) > MOST_BYTES:
        raise too_large
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MOST_BYTES:
            raise too_large
    return body


def make_app(hosts: Sequence[str] = LOOPBACK, jobs: int | None = None) -> Starlette:
    """The app: the page at ``/``, its files under ``/static``, the API under ``/api``.

    Parameters
    ----------
    hosts : sequence of str
        Host names (or addresses) requests may name in ``Host``: those it listens as.
    jobs : int, optional
        Heavy jobs at once [default: one per core].

    Examples
    --------
    >>> from starlette.testclient import TestClient
    >>> client = TestClient(make_app(), base_url="http://127.0.0.1:8000")
    >>> text = "1 0 0 0\\n0 0 3 0\\n0 4 0 0\\n0 0 0 2"
    >>> client.post("/api/count", json={"text": text}).json()["records"][0]["count"]
    1
    """
    slots = asyncio.Semaphore(jobs or os.cpu_count() or 1)

    async def take_slot() -> Response | None:
        """None once a slot is held; else, when none came free in time, the 503 to give."""
        try:
            await asyncio.wait_for(slots.acquire(), WAIT_SECONDS)
        except TimeoutError:
            said = "busy: every slot runs a job (one per core); try again in a moment"
            return JSONResponse({"error": said}, 503, headers=HEADERS | {"Retry-After": "1"})
        return None

    async def endpoint(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ENDPOINTS:
            return refusal(f"no endpoint /api/{name} (known: {', '.join(ENDPOINTS)})", 404)
        kind, answer = ENDPOINTS[name]
        try:
            ask = asks.read_ask(kind, await body_of(request))
        except NdokuError as exc:
            return error_answer(exc)
        refused = await take_slot()
        if refused is not None:
            return refused
        try:
            done = await run_in_threadpool(answer, ask)
        except NdokuError as exc:
            return error_answer(exc)
        finally:
            slots.release()
        if isinstance(done, answers.Download):
            saved = {"Content-Disposition": f'attachment; filename="{done.name}"'}
            return Response(done.data, media_type=done.media_type, headers=HEADERS | saved)
        return JSONResponse(done, headers=HEADERS)

    async def watch(request: Request) -> Response:
        try:
            ask = asks.read_ask(WatchAsk, await body_of(request))
            puzzle = await run_in_threadpool(watched_puzzle, ask)
        except NdokuError as exc:
            return error_answer(exc)
        refused = await take_slot()
        if refused is not None:
            return refused
        loop = asyncio.get_running_loop()

        def release() -> None:  # from the run's thread, once it has ended
            if not loop.is_closed():  # else the server has stopped: no slot is left to free
                loop.call_soon_threadsafe(slots.release)

        try:
            run = Run(puzzle, ask, release)
        except NdokuError as exc:  # its settings, refused before the thread starts
            slots.release()
            return error_answer(exc)
        return StreamingResponse(run.lines(), media_type="application/x-ndjson", headers=HEADERS)

    async def steering(request: Request) -> Response:
        try:
            return JSONResponse(
                steer(asks.read_ask(SteerAsk, await body_of(request))), headers=HEADERS
            )
        except NdokuError as exc:
            return error_answer(exc)

    async def layouts(request: Request) -> Response:
        return JSONResponse(await run_in_threadpool(_layouts), headers=HEADERS)

    async def schema(request: Request) -> Response:
        streamed: dict[str, tuple[type[Any], Callable[..., Any]]] = {
            "watch": (WatchAsk, Run),
            "steer": (SteerAsk, steer),
        }
        return JSONResponse(openapi({**ENDPOINTS, **streamed}), headers=HEADERS)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=HEADERS)

    routes = [
        Route("/", page),
        Route("/api/layouts", layouts),
        Route("/api/openapi.json", schema),
        Route("/api/watch", watch, methods=["POST"]),
        Route("/api/steer", steering, methods=["POST"]),
        Route("/api/{name}", endpoint, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes)
    app.add_middleware(Guard, hosts=hosts)
    return app


@cache
def _layouts() -> answers.Answer:
    return answers.layouts_answer()
