"""Servers under test: start on loopback, wait until they answer, CPU used, stop.

Every server is one worker on 127.0.0.1, without access log: uvicorn (uvloop and
httptools when installed, as in performance.md) or gunicorn with one sync worker.
"""

from __future__ import annotations

import http.client
import importlib.util
import os
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .common import PYTHON

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def uvicorn_flags() -> list[str]:
    """One worker, quiet, the fastest event loop and HTTP parser installed."""
    fast = all(importlib.util.find_spec(m) for m in ("uvloop", "httptools"))
    loop = ["--loop", "uvloop", "--http", "httptools"] if fast else []
    return ["--workers", "1", "--no-access-log", "--log-level", "warning", *loop]


def uvicorn_stack() -> str:
    """What ``uvicorn_flags`` picks, for the report."""
    flags = uvicorn_flags()
    return "uvloop + httptools" if "uvloop" in flags else "asyncio + h11"


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def fetch(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request to 127.0.0.1:port: status, headers (lower-case), body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        data = response.read()
        found = {k.lower(): v for k, v in response.getheaders()}
        if "set-cookie" in found:
            found["set-cookie"] = "; ".join(response.headers.get_all("set-cookie"))
        return response.status, found, data
    finally:
        connection.close()


@dataclass
class Server:
    """A server process: how to start it, and its port and pid once started."""

    argv: list[str]
    cwd: Path
    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def start(self, probe: str = "/", timeout: float = 60) -> None:
        """Start it and wait until ``probe`` answers (any status)."""
        argv = [a.replace("{port}", str(self.port)) for a in self.argv]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                argv, cwd=self.cwd, env=self.env, stdout=log, stderr=log
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"{argv[:4]} exited early:\n{self.log.read_text()[-3000:]}"
                )
            try:
                fetch(self.port, "GET", probe)
                return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{argv[:4]} did not answer within {timeout} s")

    def stop(self) -> None:
        """Stop it by its pid (terminate, then kill after 10 s)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def cpu_seconds(self) -> float:
        """CPU time used so far by the server and its child processes."""
        if self.process is None:
            return 0.0
        return sum(_process_cpu(pid) for pid in _tree(self.process.pid))


def _tree(pid: int) -> list[int]:
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
    return found


def _process_cpu(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    # utime and stime are fields 14 and 15 of stat(5); fields[0] is field 3.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def machine_busy_seconds() -> float:
    """CPU seconds all processes of the machine have used (from /proc/stat)."""
    values = [
        int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
    ]
    idle = values[3] + values[4]
    return (sum(values[:8]) - idle) / CLOCK_TICKS


def uvicorn_argv(app: str, *extra: str) -> list[str]:
    """``python -m uvicorn APP`` on 127.0.0.1:{port} with the shared flags."""
    return [PYTHON, "-m", "uvicorn", app, *extra, "--host", "127.0.0.1"] + [
        "--port",
        "{port}",
        *uvicorn_flags(),
    ]


def gunicorn_argv(app: str, chdir: Path) -> list[str]:
    """gunicorn, one sync worker, on 127.0.0.1:{port}."""
    return [
        PYTHON,
        "-m",
        "gunicorn",
        app,
        "--chdir",
        str(chdir),
        "--bind",
        "127.0.0.1:{port}",
        "--workers",
        "1",
        "--worker-class",
        "sync",
        "--log-level",
        "warning",
    ]
