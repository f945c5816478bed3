"""JWT_SECRET and SECRET_KEY: the panel refuses to start without usable ones.

The refusals are Django system checks (``manage.py check``, ``migrate``,
``runserver``…) and the WSGI/ASGI entry points run them before serving: one
``error:`` line each, never a traceback, never the secret itself.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import subprocess
import sys
from typing import Any

import pytest
from django.core.checks import run_checks
from django.core.management import call_command
from django.test import Client

from app.resources import RESOURCES
from config.settings import JWT_PANEL
from panel.checks import TAG, application_or_exit
from panel.users import create_user
from panel_core.abilities import ADMIN
from tests.cases import BAD_JWT_SECRETS
from tests.token_parts import JSON, bearer
from tests.tokens import EMAIL, JWT_SECRET, PASSWORD, token_login, use_jwt

CRUD = f"/admin/resource/{RESOURCES[0].uri}/crud"
HOW = "Make one with: python manage.py jwt_secret"


@pytest.fixture(autouse=True)
def _jwt(settings: Any) -> None:
    use_jwt(settings)


def _refusals() -> list[tuple[str, str]]:
    return [(error.id or "", error.msg) for error in run_checks(tags=[TAG])]


@pytest.mark.parametrize(
    ("secret", "problem"),
    [pytest.param("", "JWT_SECRET is not set", id="missing"), *BAD_JWT_SECRETS],
)
def test_the_checks_refuse_a_bad_secret(
    settings: Any, secret: str, problem: str
) -> None:
    settings.JWT_SECRET = secret
    [(check_id, message)] = _refusals()
    assert check_id == "panel.E004"
    assert message.startswith(problem)
    assert message.endswith(HOW)
    if secret.strip():
        assert secret not in message


def test_a_bad_previous_secret_is_refused_too(settings: Any) -> None:
    settings.JWT_SECRET_PREVIOUS = "changeme"
    [(_, message)] = _refusals()
    assert message.startswith("JWT_SECRET_PREVIOUS is 6 bytes once decoded")


def test_a_good_secret_passes(settings: Any) -> None:
    settings.JWT_SECRET = f"  {JWT_SECRET}\n"
    assert _refusals() == []


@pytest.mark.parametrize(
    ("key", "debug", "refusal"),
    [
        ("", False, "panel.E001"),
        ("short", False, "panel.E002"),
        ("short", True, "panel.E002"),
        ("k" * 32, False, None),
    ],
)
def test_the_checks_refuse_a_missing_or_short_secret_key(
    settings: Any, key: str, debug: bool, refusal: str | None
) -> None:
    settings.SECRET_KEY, settings.DEBUG = key, debug
    assert [check_id for check_id, _ in _refusals()] == ([refusal] if refusal else [])


@pytest.mark.django_db
def test_neither_token_nor_secret_reaches_the_logs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    create_user(email=EMAIL, password=PASSWORD, role=ADMIN)
    client = Client(headers=JSON)
    token = token_login(client, EMAIL, PASSWORD).json()["token"]
    assert client.get(CRUD, headers=bearer(token)).status_code == 200
    assert client.get(CRUD, headers=bearer(token + "x")).status_code == 401
    assert token not in caplog.text
    assert JWT_SECRET not in caplog.text


def test_application_or_exit_says_why_and_exits(
    settings: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.JWT_SECRET = "changeme"
    built: list[str] = []
    with pytest.raises(SystemExit) as exited:
        application_or_exit(lambda: built.append("app"))
    assert exited.value.code == 4  # gunicorn: "App failed to load.", no restarts
    error = capsys.readouterr().err
    assert error == (
        "error: JWT_SECRET is 6 bytes once decoded; it must be at least 32. " f"{HOW}\n"
    )
    assert built == []


@pytest.mark.parametrize("entry", ["config.wsgi", "config.asgi"])
def test_the_server_entry_points_refuse_to_start(entry: str) -> None:
    environment = {
        **os.environ,
        "SECRET_KEY": "k" * 40,
        "JWT_SECRET": "changeme",
        "PANEL": json.dumps(JWT_PANEL),
    }
    environment.pop("DJANGO_SETTINGS_MODULE", None)
    loaded = subprocess.run(
        [sys.executable, "-c", f"import {entry}"],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert loaded.returncode == 4
    assert loaded.stderr.startswith("error: JWT_SECRET is 6 bytes once decoded")
    assert "Traceback" not in loaded.stderr and "changeme" not in loaded.stderr


def test_jwt_secret_prints_a_new_secret(capsys: pytest.CaptureFixture[str]) -> None:
    call_command("jwt_secret")
    call_command("jwt_secret")
    first, second = capsys.readouterr().out.split()
    assert first != second
    assert len(base64.b64decode(first, validate=True)) == 32
