"""Settings for the project's own tests: the real settings, with test-only secrets.

``pytest`` uses this module (``DJANGO_SETTINGS_MODULE`` in pyproject.toml), so the
tests run without a configured environment; secrets already set in the environment
(say, by CI) are kept. These values sign nothing outside a test run.
"""

from __future__ import annotations

import os

os.environ.setdefault(
    "SECRET_KEY", "tests-only-secret-key-never-used-to-sign-real-data"
)
os.environ.setdefault("JWT_SECRET", "dGVzdHMgb25seTogbmV2ZXIgc2lnbiByZWFsIGp3dHM=")

from config.settings import *  # noqa: E402, F403
