"""The environment every baseline reads (see the package docstring)."""

from __future__ import annotations

import json
import os

DB_PATH = os.environ.get("BENCH_DB", "bench.db")
PRAGMAS: list[str] = json.loads(os.environ.get("BENCH_PRAGMAS", "[]"))
JWT_SECRET = os.environ.get("BENCH_JWT_SECRET", "")
PER_PAGE = 25
