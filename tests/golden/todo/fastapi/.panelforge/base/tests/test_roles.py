"""Users' roles: where they are kept, the commands that give them, what a request reads.

Each user's role is in ``panel_users.role`` (migration 0000b), read with the user on
every request. The tests declare the roles of ``tests.customising.ROLES``, as a
manifest would, except where they check a project whose manifest declares none.
"""

from __future__ import annotations

import base64
import io
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.__main__ import main
from app.core.config import get_settings
from app.core.migrations import upgrade
from app.core.users import find_user
from panel_core.abilities import ADMIN, RoleTable
from tests.customising import ROLES, serve
from tests.gadget_parts import CRUD, EXPORT
from tests.gadgets import GadgetResource
from tests.helpers import PASSWORD

SignIn = Callable[..., TestClient]
CHOICES = "admin, editor, nobody, viewer"
UNAUTHORIZED = {"message": "This action is unauthorized."}


@pytest.fixture
def engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[sa.Engine]:
    """DATABASE_URL set to a freshly migrated SQLite file; the commands see ROLES."""
    url = f"sqlite:///{tmp_path / 'roles.db'}"
    upgrade(url)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setattr("app.core.user_command.ROLES", ROLES)
    get_settings.cache_clear()
    engine = sa.create_engine(url)
    yield engine
    engine.dispose()
    get_settings.cache_clear()


def _create(monkeypatch: pytest.MonkeyPatch, email: str, *args: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO("long enough\n"))
    return main(["create-user", email, *args, "--password-stdin"])


def _role(engine: sa.Engine, email: str) -> str | None:
    user = find_user(engine, email)
    return None if user is None else user.role


def test_the_first_user_is_admin_later_ones_need_a_role(
    engine: sa.Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _create(monkeypatch, "ada@example.com") == 0
    ada = find_user(engine, "ada@example.com")
    assert ada is not None and ada.role == ADMIN
    said = f"created user ada@example.com (id {ada.id}, role admin)\n"
    assert capsys.readouterr().out == said
    assert _create(monkeypatch, "grace@example.com") == 1
    assert capsys.readouterr().err == (
        f"error: give the new user a role with --role (one of: {CHOICES})\n"
    )
    assert find_user(engine, "grace@example.com") is None
    assert _create(monkeypatch, "grace@example.com", "--role", "editor") == 0
    assert _role(engine, "grace@example.com") == "editor"


def test_create_user_refuses_an_unknown_role(
    engine: sa.Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _create(monkeypatch, "ada@example.com", "--role", "boss") == 1
    assert capsys.readouterr().err == (
        f"error: unknown role 'boss' (choose one of: {CHOICES})\n"
    )
    assert find_user(engine, "ada@example.com") is None


def test_without_declared_roles_every_new_user_is_admin(
    engine: sa.Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.core.user_command.ROLES", {})
    for email in ("ada@example.com", "grace@example.com"):
        assert _create(monkeypatch, email) == 0
        assert _role(engine, email) == ADMIN


def test_set_role_changes_the_role(
    engine: sa.Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _create(monkeypatch, "ada@example.com", "--role", "viewer")
    capsys.readouterr()
    assert main(["set-role", "ADA@example.com", "editor"]) == 0
    assert capsys.readouterr().out == "user ada@example.com now has role editor\n"
    assert _role(engine, "ada@example.com") == "editor"
    assert main(["set-role", "ada@example.com", ADMIN]) == 0
    assert _role(engine, "ada@example.com") == ADMIN


@pytest.mark.parametrize(
    ("email", "role", "message"),
    [
        ("nobody@example.com", "viewer", "no user has the e-mail address "),
        ("ada@example.com", "boss", f"unknown role 'boss' (choose one of: {CHOICES})"),
    ],
)
def test_set_role_refuses_unknown_users_and_roles(
    engine: sa.Engine,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    email: str,
    role: str,
    message: str,
) -> None:
    _create(monkeypatch, "ada@example.com", "--role", "viewer")
    capsys.readouterr()
    assert main(["set-role", email, role]) == 1
    assert capsys.readouterr().err.startswith(f"error: {message}")
    assert _role(engine, "ada@example.com") == "viewer"


def test_upgrading_keeps_every_user_an_admin(tmp_path: Path) -> None:
    """The roles' migration gives the users there already are the ``admin`` role."""
    url = f"sqlite:///{tmp_path / 'before-roles.db'}"
    upgrade(url, "0000a")
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.text(
                    "INSERT INTO panel_users (email, name, password_hash, is_active)"
                    " VALUES ('ada@example.com', '', 'x', true)"
                )
            )
        upgrade(url)
        assert _role(engine, "ada@example.com") == ADMIN
    finally:
        engine.dispose()


@pytest.fixture
def declared() -> RoleTable:
    """The roles the manifest declares (a test may parametrize others)."""
    return ROLES


@pytest.fixture
def app(app: FastAPI, declared: RoleTable) -> Iterator[FastAPI]:
    """The gadgets under the ``declared`` roles."""
    yield from serve(app, GadgetResource, declared)


@pytest.mark.panel_auth("jwt")
def test_tokens_carry_no_role(anonymous: TestClient, sign_in: SignIn) -> None:
    """The role is read with the user on every request: a change applies at once."""
    sign_in("viewer")
    body = {"username": "viewer@example.com", "password": PASSWORD}
    token = anonymous.post("/admin/authenticate", json=body).json()["token"]
    payload = token.split(".")[1]
    claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert "role" not in claims and "viewer" not in json.dumps(claims)


def test_a_role_the_manifest_does_not_declare_grants_nothing(sign_in: SignIn) -> None:
    assert sign_in("gone").get(CRUD).json() == UNAUTHORIZED


@pytest.mark.parametrize("declared", [{}])
@pytest.mark.parametrize("role", ["viewer", "nobody", "gone"])
def test_without_declared_roles_every_user_is_an_admin(
    sign_in: SignIn, role: str
) -> None:
    client = sign_in(role)
    made = client.post(CRUD, json={"name": "Kite"})
    assert made.status_code == 201, made.text
    assert client.get(EXPORT).status_code == 200
    assert client.delete(f"{CRUD}/{made.json()['data']['id']}").status_code == 200
