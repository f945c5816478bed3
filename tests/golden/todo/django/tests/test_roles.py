"""Users' roles: where they are kept, the commands that give them, what a request reads.

Superusers are ``admin``; other users carry the role of their ``PanelRole`` row. The
tests declare the roles of ``tests.customising.ROLES``, as a manifest would, except
where they check a project whose manifest declares none.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from panel.models import PanelRole
from panel.roles import with_role
from panel.users import find_user
from panel_core.abilities import ADMIN, role_of
from tests.customising import serve
from tests.gadget_parts import CRUD
from tests.gadgets import GadgetResource, json_client, serve_gadgets
from tests.sessions import use_sessions
from tests.tokens import use_jwt

pytestmark = pytest.mark.django_db

CHOICES = "admin, editor, nobody, viewer"


@pytest.fixture
def roles(monkeypatch: pytest.MonkeyPatch, part_db_table: None) -> Iterator[None]:
    """The tests' roles declared."""
    yield from serve(monkeypatch, GadgetResource)


def _create_user(monkeypatch: pytest.MonkeyPatch, email: str, *args: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("long enough\n"))
    output = io.StringIO()
    call_command("create_user", email, *args, "--password-stdin", stdout=output)
    return output.getvalue()


def _role(email: str) -> str | None:
    user = find_user(email)
    assert user is not None
    return role_of(with_role(user))


@pytest.mark.usefixtures("roles")
def test_the_first_user_is_admin_later_ones_need_a_role(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said = _create_user(monkeypatch, "ada@example.com")
    ada = find_user("ada@example.com")
    assert ada is not None and ada.is_superuser and ada.is_staff
    assert said == f"created user ada@example.com (id {ada.pk}, role admin)\n"
    with pytest.raises(CommandError) as refused:
        _create_user(monkeypatch, "grace@example.com")
    assert str(refused.value) == (
        f"give the new user a role with --role (one of: {CHOICES})"
    )
    _create_user(monkeypatch, "grace@example.com", "--role", "editor")
    grace = find_user("grace@example.com")
    assert grace is not None and not grace.is_superuser
    assert PanelRole.objects.get(user=grace.pk).role == "editor"
    assert _role("grace@example.com") == "editor"


@pytest.mark.usefixtures("roles")
def test_create_user_refuses_an_unknown_role(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(CommandError) as refused:
        _create_user(monkeypatch, "ada@example.com", "--role", "boss")
    assert str(refused.value) == f"unknown role 'boss' (choose one of: {CHOICES})"
    assert not get_user_model()._default_manager.exists()


@pytest.mark.usefixtures("roles")
def test_set_role_changes_the_role_and_superuser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _create_user(monkeypatch, "ada@example.com", "--role", "viewer")
    output = io.StringIO()
    call_command("set_role", "ADA@example.com", "admin", stdout=output)
    assert output.getvalue() == "user ada@example.com now has role admin\n"
    ada = find_user("ada@example.com")
    assert ada is not None and ada.is_superuser and ada.is_staff
    assert not PanelRole.objects.exists()
    call_command("set_role", "ada@example.com", "editor", stdout=io.StringIO())
    ada.refresh_from_db()
    assert not ada.is_superuser and not ada.is_staff
    assert _role("ada@example.com") == "editor"


@pytest.mark.usefixtures("roles")
@pytest.mark.parametrize(
    ("email", "role", "message"),
    [
        (
            "Nobody@example.com",
            "viewer",
            "no user has the e-mail address nobody@example.com",
        ),
        ("ada@example.com", "boss", f"unknown role 'boss' (choose one of: {CHOICES})"),
    ],
)
def test_set_role_refuses_unknown_users_and_roles(
    monkeypatch: pytest.MonkeyPatch, email: str, role: str, message: str
) -> None:
    _create_user(monkeypatch, "ada@example.com", "--role", "viewer")
    with pytest.raises(CommandError) as refused:
        call_command("set_role", email, role)
    assert str(refused.value) == message
    assert _role("ada@example.com") == "viewer"


@pytest.mark.usefixtures("roles")
def test_superusers_are_admins_and_users_without_a_role_may_do_nothing() -> None:
    users: Any = get_user_model()._default_manager
    users.create_superuser("root@example.com", "root@example.com", "long enough")
    users.create_user("plain@example.com", "plain@example.com", "long enough")
    assert _role("root@example.com") == ADMIN
    assert _role("plain@example.com") is None


def _role_queries(client: Client) -> list[str]:
    """The SQL of a list request that reads the roles' table."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(CRUD).status_code == 200
    return [query["sql"] for query in queries if "panel_user_roles" in query["sql"]]


@pytest.mark.usefixtures("roles")
@pytest.mark.parametrize("mode", ["sessions", "jwt"])
def test_the_role_is_read_with_the_user(settings: Any, mode: str) -> None:
    (use_sessions if mode == "sessions" else use_jwt)(settings)
    (query,) = _role_queries(json_client(role="viewer"))
    assert get_user_model()._meta.db_table in query  # one query: the user, joined


@pytest.fixture
def without_roles(
    monkeypatch: pytest.MonkeyPatch, gadget_db_table: None
) -> Iterator[None]:
    """A project whose manifest declares no role."""
    monkeypatch.setattr("app.roles.ROLES", {})
    yield from serve_gadgets(monkeypatch)


@pytest.mark.usefixtures("without_roles")
@pytest.mark.parametrize("mode", ["sessions", "jwt"])
def test_without_declared_roles_nothing_is_read_and_all_are_admins(
    settings: Any, mode: str
) -> None:
    (use_sessions if mode == "sessions" else use_jwt)(settings)
    client = json_client()
    users: Any = get_user_model()._default_manager
    users.update(is_superuser=False)
    assert _role_queries(client) == []
    assert client.post(CRUD, {"name": "Kite"}, "application/json").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_upgrading_keeps_every_user_an_admin() -> None:
    """The roles' migration gives the users there already are the ``admin`` role."""
    call_command("migrate", "panel", "0001", verbosity=0)
    try:
        users: Any = get_user_model()._default_manager
        users.create_user("ada@example.com", "ada@example.com", "long enough")
        users.create_superuser("root@example.com", "root@example.com", "long enough")
    finally:
        call_command("migrate", verbosity=0)
    ada = find_user("ada@example.com")
    assert ada is not None
    assert list(PanelRole.objects.values_list("user", "role")) == [(ada.pk, ADMIN)]
