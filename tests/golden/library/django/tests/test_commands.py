"""The panel's management commands, run as a user runs them: ``python manage.py …``.

Commands that need no secret (``jwt_secret``, ``create_user``, ``oag_generate``) work
while the secrets are missing; the others stop at the panel's system checks.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from config.settings import JWT_PANEL

MANAGE = Path(settings.BASE_DIR) / "manage.py"


def _manage(
    *args: str, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MANAGE), *args],
        input=stdin,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def without_secrets() -> dict[str, str]:
    """The environment of a JWT panel without JWT_SECRET nor SECRET_KEY."""
    return {
        "PANEL": json.dumps(JWT_PANEL),
        "JWT_SECRET": "",
        "SECRET_KEY": "",
        "DEBUG": "0",
    }


def test_check_lists_every_missing_secret(without_secrets: dict[str, str]) -> None:
    checked = _manage("check", **without_secrets)
    assert checked.returncode == 1
    assert "(panel.E001) SECRET_KEY is not set." in checked.stderr
    assert "(panel.E004) JWT_SECRET is not set." in checked.stderr
    assert "python manage.py jwt_secret" in checked.stderr


def test_jwt_secret_works_without_a_secret(without_secrets: dict[str, str]) -> None:
    made = _manage("jwt_secret", **without_secrets)
    assert made.returncode == 0, made.stderr
    assert len(base64.b64decode(made.stdout.strip(), validate=True)) == 32


def test_oag_generate_help_names_oag_path() -> None:
    shown = _manage("oag_generate", "--help")
    assert shown.returncode == 0
    assert "OAG_PATH" in shown.stdout


def test_create_user_without_a_database_says_migrate(
    tmp_path: Path, without_secrets: dict[str, str]
) -> None:
    created = _manage(
        "create_user",
        "a@example.com",
        "--password-stdin",
        stdin="long enough\n",
        DATABASE_URL=f"sqlite:///{tmp_path / 'empty.db'}",
        **without_secrets,
    )
    assert created.returncode == 1
    assert "(run python manage.py migrate first?)" in created.stderr
    assert "Traceback" not in created.stderr
