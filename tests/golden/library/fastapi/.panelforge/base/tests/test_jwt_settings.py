"""JWT_SECRET: the panel refuses to start without a usable one, and never shows it."""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr

from app.__main__ import main
from app.core.config import JWT_PANEL, ConfigurationError, get_settings
from app.core.users import User
from app.resources import RESOURCES
from panel_core.tokens import make_secret
from tests.cases import BAD_JWT_SECRETS
from tests.helpers import PASSWORD, app_with
from tests.token_parts import JSON, bearer
from tests.tokens import token_login

pytestmark = pytest.mark.panel_auth("jwt")

CRUD = f"/admin/resource/{RESOURCES[0].uri}/crud"


@pytest.mark.parametrize(
    ("secret", "problem"),
    [pytest.param(None, "JWT_SECRET is not set", id="missing"), *BAD_JWT_SECRETS],
)
def test_the_panel_refuses_to_start_with_a_bad_secret(
    app: FastAPI, secret: str | None, problem: str
) -> None:
    bad = app_with(app, jwt_secret=None if secret is None else SecretStr(secret))
    with pytest.raises(ConfigurationError) as refused, TestClient(bad):
        pass
    bad.state.engine.dispose()
    message = str(refused.value)
    assert message.startswith(problem)
    assert message.endswith("Make one with: python -m app jwt:secret")
    if secret and secret.strip():
        assert secret not in message


def test_a_bad_previous_secret_is_refused_too(app: FastAPI) -> None:
    bad = app_with(app, jwt_secret_previous=SecretStr("changeme"))
    refused = pytest.raises(ConfigurationError, match="^JWT_SECRET_PREVIOUS is 6")
    with refused, TestClient(bad):
        pass
    bad.state.engine.dispose()


def test_tokens_need_no_secret_key(app: FastAPI) -> None:
    padded = SecretStr(f"  {make_secret()}\n")
    without = app_with(app, secret_key=None, debug=False, jwt_secret=padded)
    with TestClient(without, headers=JSON) as client:
        assert client.post("/admin/authenticate", json={}).status_code == 422
    without.state.engine.dispose()


def test_neither_token_nor_secret_reaches_the_logs(
    app: FastAPI, anonymous: TestClient, user: User, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    token = token_login(anonymous, user.email, PASSWORD).json()["token"]
    anonymous.get(CRUD, headers=bearer(token))
    anonymous.get(CRUD, headers=bearer(token + "x"))
    secret = app.state.settings.jwt_secret.get_secret_value()
    assert token not in caplog.text
    assert secret not in caplog.text


@pytest.fixture
def jwt_environment(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[Any]]:
    """The environment of a JWT panel (no JWT_SECRET yet); lists uvicorn's starts."""
    started: list[Any] = []
    monkeypatch.setenv("PANEL", JWT_PANEL.model_dump_json())
    monkeypatch.setenv("DATABASE_URL", database_url)
    monkeypatch.delenv("JWT_SECRET", raising=False)
    monkeypatch.delenv("JWT_SECRET_PREVIOUS", raising=False)
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: started.append(args))
    get_settings.cache_clear()
    yield started
    get_settings.cache_clear()


def test_serve_refuses_a_bad_secret_and_says_how_to_make_one(
    jwt_environment: list[Any],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve"]) == 1
    assert "JWT_SECRET is not set" in capsys.readouterr().err
    monkeypatch.setenv("JWT_SECRET", "changeme")
    get_settings.cache_clear()
    assert main(["serve"]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: JWT_SECRET is 6 bytes once decoded")
    assert "python -m app jwt:secret" in error and "changeme" not in error
    assert jwt_environment == []
    monkeypatch.setenv("JWT_SECRET", make_secret())
    get_settings.cache_clear()
    assert main(["serve"]) == 0
    assert jwt_environment == [("app.main:app",)]


def test_jwt_secret_prints_a_new_secret(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["jwt:secret"]) == 0
    assert main(["jwt:secret"]) == 0
    first, second = capsys.readouterr().out.split()
    assert first != second
    assert len(base64.b64decode(first, validate=True)) == 32
