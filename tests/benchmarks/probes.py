"""Child-process probes for ``run.py --profile`` (a stand-alone script; prints JSON).

``probes.py generation ARGS…`` runs ``panelforge ARGS…`` in this process with black's
``format_str`` and the spec validation timed. ``probes.py asgi APP_DIR MODULE:ATTR N
PATH…`` imports an ASGI app, runs its lifespan, logs in when ``PROBE_LOGIN`` holds
JSON credentials, and serves each PATH N times one request at a time, timing the whole
request and, separately, every function sent to the thread pool.
"""

from __future__ import annotations

import asyncio
import collections
import importlib
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

Timings = collections.Counter


def _timed(owner: Any, name: str, label: str, seconds: Timings, calls: Timings) -> None:
    original = getattr(owner, name, None)
    if original is None:
        return

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            seconds[label] += time.perf_counter() - start
            calls[label] += 1

    setattr(owner, name, wrapper)


def generation(argv: list[str]) -> dict[str, Any]:
    """Run panelforge in-process; seconds in black, in spec validation, in all."""
    from generator import cli
    from generator.render import format
    from generator.spec import validate

    seconds, calls = Timings(), Timings()
    _timed(format, "_format_str", "black.format_str", seconds, calls)
    _timed(validate, "validate_spec", "spec validation", seconds, calls)
    start = time.perf_counter()
    code = cli.main(argv)
    total = time.perf_counter() - start
    return {"exit": code, "total": total, "seconds": seconds, "calls": calls}


class _ThreadTimer:
    """Times every function anyio runs in a worker thread, by name."""

    def __init__(self) -> None:
        self.seconds: Timings = Timings()
        self.calls: Timings = Timings()

    def install(self) -> None:
        from anyio._backends._asyncio import AsyncIOBackend

        original = AsyncIOBackend.run_sync_in_worker_thread.__func__
        timer = self

        async def run_sync(cls: Any, func: Callable, args: tuple, *a: Any, **k: Any):
            inner = getattr(func, "func", func)
            name = getattr(getattr(inner, "__wrapped__", inner), "__qualname__", "?")

            def timed(*call_args: Any) -> Any:
                start = time.perf_counter()
                try:
                    return func(*call_args)
                finally:
                    timer.seconds[name] += time.perf_counter() - start
                    timer.calls[name] += 1

            return await original(cls, timed, args, *a, **k)

        AsyncIOBackend.run_sync_in_worker_thread = classmethod(run_sync)


async def _lifespan(app: Any) -> None:
    inbox: asyncio.Queue = asyncio.Queue()
    outbox: asyncio.Queue = asyncio.Queue()
    scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    asyncio.get_running_loop().create_task(app(scope, inbox.get, outbox.put))
    await inbox.put({"type": "lifespan.startup"})
    message = await outbox.get()
    if message["type"] != "lifespan.startup.complete":
        raise RuntimeError(f"lifespan failed: {message}")


async def _call(app: Any, method: str, target: str, headers: dict, body: bytes = b""):
    path, _, query = target.partition("?")
    if body:  # as an HTTP server passes it on: a body comes with its length
        headers = {**headers, "content-length": str(len(body))}
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    answer: dict[str, Any] = {"status": 0, "headers": [], "body": b""}

    async def receive() -> dict:
        if messages:
            return messages.pop()
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer.update(status=message["status"], headers=message["headers"])
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return answer


async def _login(app: Any, credentials: dict) -> dict[str, str]:
    headers = {"accept": "application/json", "content-type": "application/json"}
    answer = await _call(
        app, "POST", "/admin/authenticate", headers, json.dumps(credentials).encode()
    )
    data = json.loads(answer["body"])
    if answer["status"] != 200:
        raise SystemExit(f"logging in answered {answer['status']}: {data}")
    if "token" in data:
        return {
            "accept": "application/json",
            "authorization": f"Bearer {data['token']}",
        }
    cookies = [v.decode() for k, v in answer["headers"] if k == b"set-cookie"]
    return {"accept": "application/json", "cookie": cookies[0].split(";", 1)[0]}


async def _serve(app: Any, count: int, paths: list[str]) -> dict[str, Any]:
    import anyio.to_thread

    timer = _ThreadTimer()
    timer.install()
    await _lifespan(app)
    start = time.perf_counter()
    for _ in range(200):  # the cost of one hand-off to the pool and back, alone
        await anyio.to_thread.run_sync(int)
    empty_hop = 1e6 * (time.perf_counter() - start) / 200
    headers = {"accept": "application/json"}
    if login := os.environ.get("PROBE_LOGIN"):
        headers = await _login(app, json.loads(login))
    found = {}
    for path in paths:
        for _ in range(max(20, count // 10)):  # warm-up
            answer = await _call(app, "GET", path, headers)
        if answer["status"] != 200:
            raise RuntimeError(f"{path}: {answer['status']} {answer['body'][:200]!r}")
        timer.seconds.clear()
        timer.calls.clear()
        start = time.perf_counter()
        for _ in range(count):
            await _call(app, "GET", path, headers)
        total = time.perf_counter() - start
        found[path] = {
            "us_per_request": 1e6 * total / count,
            "threads_us": {k: 1e6 * v / count for k, v in timer.seconds.items()},
            "hops_per_request": sum(timer.calls.values()) / count,
            "empty_hop_us": empty_hop,
        }
    return found


def asgi(app_dir: str, target: str, count: int, paths: list[str]) -> dict:
    """Serve ``paths`` in-process, one request at a time."""
    sys.path.insert(0, app_dir)
    module, _, attribute = target.partition(":")
    app = getattr(importlib.import_module(module), attribute)
    return asyncio.run(_serve(app, count, paths))


def main(argv: list[str]) -> int:
    """``generation ARGS…`` or ``asgi APP_DIR MODULE:ATTR N PATH…``."""
    if argv[0] == "generation":
        print(json.dumps(generation(argv[1:])))
    else:
        print(json.dumps(asgi(argv[1], argv[2], int(argv[3]), argv[4:])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
