"""Generation: ``panelforge generate`` against fastapi-code-generator and copier.

For each size, in interleaved rounds (reverse order on odd rounds), the three tools
run as users run them, each as its own process:

- panelforge, as the README installs it: ``pip install -e .`` with no extras, in its
  own venv (``$PANELFORGE_BENCH_HOME/plain-venv``, made on first use and again when
  ``pyproject.toml`` or the checkout changes): cold (empty ``PANELFORGE_CACHE_DIR``,
  new destination), then warm regeneration onto that project with nothing changed,
  then regeneration after one field of one resource changed (the same manifest file
  rewritten, as an editor would); the peak memory (max RSS) of each process is kept;
- fastapi-code-generator on the OpenAPI 3.0.3 document panelforge emits for the same
  resources (``resources/oag.yaml`` of the manifest with ``openapi_version: "3.0.3"``);
- ``copier copy`` of the project template alone, no resources (the floor).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import manifests
from .common import COPIER, HOME, PANELFORGE, ROOT, Samples, interleave, run, timed_run

FCG_VENV = HOME / "fcg-venv"
FCG = FCG_VENV / "bin" / "fastapi-codegen"
FCG_REQUIREMENT = "fastapi-code-generator==0.8.1"
PLAIN_VENV = HOME / "plain-venv"
PLAIN_STAMP = PLAIN_VENV / "pyproject.sha256"


@dataclass
class GenerationConfig:
    """What to run: sizes, rounds per size, and sizes fastapi-code-generator skips."""

    sizes: tuple[int, ...] = (10, 100, 500)
    rounds: dict[int, int] = field(default_factory=lambda: {10: 3, 100: 2, 500: 1})
    fcg_sizes: tuple[int, ...] = (10, 100)


@dataclass
class SizeResult:
    """The samples of every case at one size."""

    size: int
    rounds: int
    cases: dict[str, Samples] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    change_summary: str = ""
    peak_mb: dict[str, float] = field(default_factory=dict)  # case → max over rounds

    def samples(self, case: str) -> Samples:
        """The samples of ``case``, created on first use."""
        return self.cases.setdefault(case, Samples())


def ensure_fcg(log: Callable[[str], None]) -> str | None:
    """fastapi-code-generator in its own venv; None, or why it is unavailable."""
    if FCG.exists():
        return None
    # It pins click < 8.2 (via typer), which black 26 does not accept: own venv.
    log(f"  installing {FCG_REQUIREMENT} into {FCG_VENV} (once)")
    try:
        run(["python3", "-m", "venv", FCG_VENV], timeout=120)
        run([FCG_VENV / "bin" / "pip", "install", "-q", FCG_REQUIREMENT], timeout=600)
    except (RuntimeError, OSError) as exc:
        return f"fastapi-code-generator could not be installed: {exc}"
    return None


def ensure_plain(log: Callable[[str], None]) -> Path:
    """panelforge's console script in a venv with ``pip install -e .`` and no extras."""
    pyproject = (ROOT / "pyproject.toml").read_bytes()
    digest = hashlib.sha256(str(ROOT).encode() + b"\0" + pyproject).hexdigest()
    script = PLAIN_VENV / "bin" / "panelforge"
    if script.exists() and PLAIN_STAMP.exists() and PLAIN_STAMP.read_text() == digest:
        return script
    log(f"  installing panelforge (no extras) into {PLAIN_VENV}")
    shutil.rmtree(PLAIN_VENV, ignore_errors=True)
    run(["python3", "-m", "venv", PLAIN_VENV], timeout=120)
    run([PLAIN_VENV / "bin" / "pip", "install", "-q", "-e", ROOT], timeout=900)
    PLAIN_STAMP.write_text(digest)
    return script


def timed_peak(
    argv: Sequence[str | os.PathLike[str]], *, env: dict[str, str], cwd: Path
) -> tuple[float, str, float]:
    """Wall seconds, standard output and peak memory (max RSS, MB) of one run."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(
            [str(a) for a in argv], cwd=cwd, env=env, stdout=out, stderr=err
        )
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        printed = out.read()
        if process.returncode != 0:
            raise RuntimeError(
                f"{' '.join(map(str, argv))} exited {process.returncode}:\n"
                f"{printed[-2000:]}{err.read()[-4000:]}"
            )
    return seconds, printed, usage.ru_maxrss / 1024


def _env(cache: Path) -> dict[str, str]:
    return {**os.environ, "PANELFORGE_CACHE_DIR": str(cache)}


def _timed(case: str, argv: list, cache: Path, work: Path, result: SizeResult) -> str:
    seconds, printed, peak = timed_peak(argv, env=_env(cache), cwd=work)
    result.samples(case).add(seconds)
    result.peak_mb[case] = max(peak, result.peak_mb.get(case, 0.0))
    return printed


def _panelforge(
    size: int, number: int, work: Path, result: SizeResult, panelforge: Path
) -> None:
    manifest = work / "panel.yaml"
    original = manifests.synthetic(size)
    manifests.dump(original, manifest)
    cache, dest = work / f"cache-{number}", work / f"out-{number}"
    for path in (cache, dest):
        shutil.rmtree(path, ignore_errors=True)
    cache.mkdir()
    argv = [panelforge, "generate", manifest, "-o", dest]
    _timed("cold", argv, cache, work, result)
    if not (dest / "app" / "main.py").exists():
        raise RuntimeError("panelforge generate wrote no app/main.py")
    printed = _timed("warm no-op", argv, cache, work, result)
    if "up to date" not in printed:
        result.notes.append(f"a no-op regeneration changed files: {printed[-300:]}")
    manifests.dump(manifests.change_one_field(original), manifest)
    printed = _timed("one-field change", argv, cache, work, result)
    if not list((dest / "migrations" / "versions").glob("0002_*.py")):
        raise RuntimeError("the one-field change wrote no migration")
    result.change_summary = summary(printed)
    shutil.rmtree(dest)
    shutil.rmtree(cache)


def _spec_303(size: int, work: Path) -> Path:
    """panelforge's own OpenAPI document for the manifest, as OpenAPI 3.0.3."""
    manifest = manifests.dump(
        manifests.synthetic(size, openapi_version="3.0.3"), work / "spec303.yaml"
    )
    run([PANELFORGE, "spec", manifest, "-o", work / "spec"], cwd=work)
    return work / "spec" / "oag.yaml"


def _fcg(spec: Path, number: int, work: Path, result: SizeResult) -> None:
    out = work / f"fcg-{number}"
    shutil.rmtree(out, ignore_errors=True)
    argv = [FCG, "-i", spec, "-o", out, "--disable-timestamp"]
    result.samples("fastapi-code-generator").add(timed_run(argv, cwd=work)[0])
    if not (out / "main.py").exists():
        raise RuntimeError("fastapi-code-generator wrote no main.py")
    shutil.rmtree(out)


def _copier(number: int, work: Path, result: SizeResult) -> None:
    dest = work / f"copier-{number}"
    shutil.rmtree(dest, ignore_errors=True)
    argv = [COPIER, "copy", "--trust", "--defaults", "--quiet"]
    argv += ["-d", "project_name=bench_admin", ROOT / "templates" / "project", dest]
    result.samples("copier copy").add(timed_run(argv, cwd=work)[0])
    if not (dest / "app" / "main.py").exists():
        raise RuntimeError("copier copy wrote no app/main.py")
    shutil.rmtree(dest)


def run_generation(
    config: GenerationConfig, work: Path, log: Callable[[str], None]
) -> list[SizeResult]:
    """Measure every size; the samples per case."""
    fcg_missing = ensure_fcg(log) if config.fcg_sizes else "not requested"
    panelforge = ensure_plain(log)
    results = []
    for size in config.sizes:
        rounds = config.rounds.get(size, 1)
        result = SizeResult(size, rounds)
        sized = work / f"n{size}"
        sized.mkdir(parents=True, exist_ok=True)
        tools = ["panelforge", "copier"]
        if size in config.fcg_sizes and not fcg_missing:
            tools.insert(1, "fastapi-code-generator")
            spec = _spec_303(size, sized)
        else:
            result.notes.append(
                "fastapi-code-generator not run at this size: "
                + (fcg_missing or "too slow for the suite's time budget (--fcg-all)")
            )
        for number, tool in interleave(rounds, tools):
            log(f"  {size} resources, round {number + 1}/{rounds}: {tool}")
            if tool == "panelforge":
                _panelforge(size, number, sized, result, panelforge)
            elif tool == "copier":
                _copier(number, sized, result)
            else:
                _fcg(spec, number, sized, result)
        results.append(result)
        shutil.rmtree(sized, ignore_errors=True)
    return results


def summary(stdout: str) -> str:
    """The ``1 added, 4 updated`` summary of a regeneration's output."""
    match = re.search(r": (\d+ [a-z]+(, \d+ [a-z]+)*)\s*$", stdout)
    return match.group(1) if match else ""
