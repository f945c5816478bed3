"""Time building, dumping and validating the spec of synthetic projects.

Run: ``.venv/bin/python tests/benchmarks/bench_openapi.py [COUNT ...]``; set
``OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND=jsonschema`` (or ``jsonschema-rs``)
to pick the validator backend.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "unit")]

import openapi_projects  # noqa: E402

from generator.spec.openapi import build_spec, dump_spec, load_kernel  # noqa: E402
from generator.spec.validate import validate_spec  # noqa: E402


def _timed(label: str, func, *args, **kwargs):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = func(*args, **kwargs)
    print(f"  {label:<10} {time.perf_counter() - start:6.2f} s")
    return result


def main(counts: list[int]) -> None:
    """Print the timings for each project size and OpenAPI version."""
    from openapi_spec_validator.schemas import get_validator_backend

    start = time.perf_counter()
    load_kernel()
    loaded = time.perf_counter() - start
    print(f"kernel load {loaded:.3f} s; backend {get_validator_backend()}")
    for count in counts:
        for version in ("3.1.0", "3.0.3"):
            project = openapi_projects.synthetic(count, jwt=True, version=version)
            print(f"{count} resources, OpenAPI {version}")
            doc = _timed("build", build_spec, project)
            _timed("dump", dump_spec, doc)
            _timed("validate", validate_spec, doc, source="bench")
            with tempfile.TemporaryDirectory() as cache:
                for run in ("cold", "warm"):
                    _timed(
                        f"cache {run}",
                        validate_spec,
                        doc,
                        source="b",
                        cache_dir=Path(cache),
                    )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 500])
