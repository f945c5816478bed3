"""wrk (Debian's package) as the load generator, and what it reports.

``wrk -t1 -cC -dDs --latency --timeout 10s`` as in performance.md; POST requests go
through a small Lua script that sets the method and the JSON body (the same body for
every request). Each run also records the server's CPU per request and how busy the
rest of the machine was (other engineers' jobs share it).
"""

from __future__ import annotations

import re
import resource
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from .servers import Server, machine_busy_seconds

WRK = shutil.which("wrk")
_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


@dataclass
class Load:
    """One wrk run: what to send and how hard."""

    path: str
    headers: dict[str, str]
    connections: int = 16
    seconds: int = 8
    script: Path | None = None


@dataclass
class Result:
    """What one run measured."""

    rps: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int
    server_cpu_ms: float  # per request
    others_cores: float  # CPU used meanwhile by processes other than server and wrk


def post_script(path: Path, body: str) -> Path:
    """A wrk Lua script sending ``body`` as JSON with POST."""
    quoted = body.replace("\\", "\\\\").replace("'", "\\'")
    path.write_text(
        f"wrk.method = 'POST'\nwrk.body = '{quoted}'\n"
        "wrk.headers['Content-Type'] = 'application/json'\n"
    )
    return path


def _latency(text: str, percent: str) -> float:
    match = re.search(rf"^\s+{percent}%\s+([\d.]+)(us|ms|s|m)\s*$", text, re.M)
    return float(match.group(1)) * _UNITS[match.group(2)] if match else float("nan")


def parse(text: str) -> tuple[float, float, float, int, int]:
    """req/s, p50 ms, p99 ms, requests and errors from wrk's output."""
    rps = re.search(r"Requests/sec:\s+([\d.]+)", text)
    total = re.search(r"(\d+) requests in", text)
    errors = 0
    if match := re.search(r"Non-2xx or 3xx responses: (\d+)", text):
        errors += int(match.group(1))
    if match := re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text
    ):
        # gunicorn's sync worker closes every connection: wrk counts no read error
        # for that, but connect errors and timeouts are real failures.
        errors += int(match.group(1)) + int(match.group(4))
    return (
        float(rps.group(1)) if rps else 0.0,
        _latency(text, "50"),
        _latency(text, "99"),
        int(total.group(1)) if total else 0,
        errors,
    )


def wrk(server: Server, load: Load) -> Result:
    """Run wrk against the server; the numbers, the server's CPU and the others'."""
    if WRK is None:
        raise RuntimeError("wrk is not installed (apt-get install -y wrk)")
    argv = [WRK, "-t1", f"-c{load.connections}", f"-d{load.seconds}s", "--latency"]
    argv += ["--timeout", "10s"]
    for name, value in load.headers.items():
        argv += ["-H", f"{name}: {value}"]
    if load.script:
        argv += ["-s", str(load.script)]
    argv.append(f"http://127.0.0.1:{server.port}{load.path}")
    server_before, busy_before = server.cpu_seconds(), machine_busy_seconds()
    children_before = _children_cpu()
    start = time.monotonic()
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=load.seconds + 60, check=False
    )
    wall = time.monotonic() - start
    server_cpu = server.cpu_seconds() - server_before
    wrk_cpu = _children_cpu() - children_before
    busy = machine_busy_seconds() - busy_before
    if done.returncode != 0:
        raise RuntimeError(f"wrk failed: {done.stderr or done.stdout}")
    rps, p50, p99, requests, errors = parse(done.stdout)
    return Result(
        rps=rps,
        p50_ms=p50,
        p99_ms=p99,
        requests=requests,
        errors=errors,
        server_cpu_ms=1000 * server_cpu / requests if requests else float("nan"),
        others_cores=max(0.0, busy - server_cpu - wrk_cpu) / wall,
    )


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime
