"""Generation: ``panelforge generate`` against fastapi-code-generator and copier.

For each size, in interleaved rounds (reverse order on odd rounds), the three tools
run as users run them, each as its own process:

- panelforge: cold (empty ``PANELFORGE_CACHE_DIR``, new destination), then warm
  regeneration onto that project with nothing changed, then regeneration after one
  field of one resource changed (the same manifest file rewritten, as an editor would);
- fastapi-code-generator on the OpenAPI 3.0.3 document panelforge emits for the same
  resources (``resources/oag.yaml`` of the manifest with ``openapi_version: "3.0.3"``);
- ``copier copy`` of the project template alone, no resources (the floor).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import manifests
from .common import COPIER, HOME, PANELFORGE, ROOT, Samples, interleave, run, timed_run

FCG_VENV = HOME / "fcg-venv"
FCG = FCG_VENV / "bin" / "fastapi-codegen"
FCG_REQUIREMENT = "fastapi-code-generator==0.8.1"


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


def _env(cache: Path) -> dict[str, str]:
    return {**os.environ, "PANELFORGE_CACHE_DIR": str(cache)}


def _panelforge(size: int, number: int, work: Path, result: SizeResult) -> None:
    manifest = work / "panel.yaml"
    original = manifests.synthetic(size)
    manifests.dump(original, manifest)
    cache, dest = work / f"cache-{number}", work / f"out-{number}"
    for path in (cache, dest):
        shutil.rmtree(path, ignore_errors=True)
    cache.mkdir()
    argv = [PANELFORGE, "generate", manifest, "-o", dest]
    seconds, _ = timed_run(argv, env=_env(cache), cwd=work)
    result.samples("cold").add(seconds)
    if not (dest / "app" / "main.py").exists():
        raise RuntimeError("panelforge generate wrote no app/main.py")
    seconds, printed = timed_run(argv, env=_env(cache), cwd=work)
    result.samples("warm no-op").add(seconds)
    if "up to date" not in printed:
        result.notes.append(f"a no-op regeneration changed files: {printed[-300:]}")
    manifests.dump(manifests.change_one_field(original), manifest)
    seconds, printed = timed_run(argv, env=_env(cache), cwd=work)
    result.samples("one-field change").add(seconds)
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
                _panelforge(size, number, sized, result)
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
