"""``manage.py create_user`` and ``createsuperuser``, the hashes they store, logins.

A login names the user by username or by e-mail address, in any case.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.core.management import CommandError, call_command
from django.test import Client

from panel.passwords import verify_password
from panel.users import check_credentials, create_user, find_user
from panel_core.abilities import ADMIN
from panel_core.accounts import MIN_PASSWORD_LENGTH

pytestmark = pytest.mark.django_db

OWASP_ARGON2 = "argon2$argon2id$v=19$m=19456,t=2,p=1$"


def _create(monkeypatch: pytest.MonkeyPatch, stdin: str, *args: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    call_command("create_user", *args, "--password-stdin")


def test_create_user_reads_the_password_from_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _create(monkeypatch, "s3cret password\n", "Grace@Example.com", "--name", "G")
    assert "created user grace@example.com" in capsys.readouterr().out
    user = check_credentials("GRACE@example.com", "s3cret password")
    assert user is not None and user.first_name == "G"
    assert user.email == user.get_username() == "grace@example.com"
    assert check_credentials("grace@example.com", "s3cret") is None
    stored = find_user("grace@example.com")
    assert stored is not None and stored.password.startswith(OWASP_ARGON2)


def test_create_user_asks_twice_without_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["long enough", "long enough", "long enough", "other one"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    call_command("create_user", "ada@example.com")
    assert check_credentials("ada@example.com", "long enough") is not None
    with pytest.raises(CommandError, match="^the passwords differ$"):
        call_command("create_user", "grace@example.com", "--role", ADMIN)


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("not-an-address", "long enough", "'not-an-address' is not an e-mail address"),
        ("ada@example.com", "short", "the password must be at least 8 characters"),
        ("ada@example.com", "x" * 4097, "the password must be at most 4096 bytes"),
    ],
)
def test_create_user_refuses_bad_input(
    monkeypatch: pytest.MonkeyPatch, email: str, password: str, message: str
) -> None:
    with pytest.raises(CommandError) as refused:
        _create(monkeypatch, password + "\n", email)
    assert str(refused.value) == message
    assert not get_user_model()._default_manager.exists()


def test_create_user_refuses_a_second_account(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _create(monkeypatch, "long enough\n", "ada@example.com")
    with pytest.raises(CommandError, match="exists"):
        _create(monkeypatch, "long enough\n", "ADA@example.com", "--role", ADMIN)


def test_the_password_is_never_an_argument() -> None:
    with pytest.raises(CommandError, match="unrecognized arguments"):
        call_command("create_user", "ada@example.com", "--password", "x")


def test_hashes_are_argon2id_at_owasp_cost() -> None:
    stored = make_password("pass phrase")
    assert stored.startswith(OWASP_ARGON2)
    assert verify_password("pass phrase", stored)
    assert not verify_password("pass phrase", "not a hash")
    assert not verify_password("pass phrase", None)
    assert not verify_password("x" * 4097, stored)


def test_a_weaker_hash_is_replaced_at_login(settings: Any) -> None:
    user = create_user(email="ada@example.com", password="long enough", role=ADMIN)
    weaker = "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    user.password = make_password("long enough", hasher="pbkdf2_sha256")
    user.save()
    assert weaker in settings.PASSWORD_HASHERS
    assert check_credentials("ada@example.com", "long enough") is not None
    user.refresh_from_db()
    assert user.password.startswith(OWASP_ARGON2)


def test_inactive_users_cannot_log_in() -> None:
    user = create_user(email="ada@example.com", password="long enough", role=ADMIN)
    user.is_active = False
    user.save()
    assert check_credentials("ada@example.com", "long enough") is None


class _Terminal(io.StringIO):
    """Standard input as a person at a terminal gives it (``createsuperuser`` asks)."""

    def isatty(self) -> bool:
        return True


def test_createsuperuser_noinput_makes_an_admin_who_logs_in_either_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DJANGO_SUPERUSER_USERNAME", "Root")
    monkeypatch.setenv("DJANGO_SUPERUSER_EMAIL", "Root.Admin@Example.com")
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "long enough")
    call_command("createsuperuser", "--noinput", stdout=io.StringIO())
    for login in ["Root", "root", "root.admin@example.com", "ROOT.ADMIN@example.com"]:
        user = check_credentials(login, "long enough")
        assert user is not None and user.get_username() == "Root", login
        assert user.is_superuser
    assert check_credentials("root", "wrong password") is None
    # The panel's own command then refuses the address as a login name taken.
    with pytest.raises(CommandError, match="exists"):
        _create(monkeypatch, "long enough\n", "root.admin@example.com", "--role", ADMIN)


def test_createsuperuser_asks_at_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = iter(["grace", "Grace@Example.com"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "long enough")
    call_command(
        "createsuperuser", interactive=True, stdin=_Terminal(), stdout=io.StringIO()
    )
    assert check_credentials("GRACE", "long enough") is not None
    assert check_credentials("grace@example.com", "long enough") is not None


def test_createsuperuser_refuses_a_password_create_user_would(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = iter(["grace", "grace@example.com", "N"])
    passwords = iter(["short", "short", "long enough", "long enough"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(passwords))
    errors = io.StringIO()
    call_command(
        "createsuperuser",
        interactive=True,
        stdin=_Terminal(),
        stdout=io.StringIO(),
        stderr=errors,
    )
    assert f"at least {MIN_PASSWORD_LENGTH} characters" in errors.getvalue()
    assert check_credentials("grace", "short") is None
    assert check_credentials("grace", "long enough") is not None


def test_changepassword_changes_the_login(monkeypatch: pytest.MonkeyPatch) -> None:
    create_user(email="ada@example.com", password="long enough", role=ADMIN)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "another long one")
    call_command("changepassword", "ada@example.com", stdout=io.StringIO())
    assert check_credentials("ada@example.com", "long enough") is None
    assert check_credentials("ADA@example.com", "another long one") is not None


def test_a_username_wins_and_a_shared_address_names_nobody() -> None:
    users = get_user_model()._default_manager
    users.create_user("ann", "shared@example.com", "ann's password")
    users.create_user("bob", "Shared@example.com", "bob's password")
    users.create_user("shared@example.com", "carl@example.com", "carl's password")
    # The address is carl's username: the username wins.
    assert check_credentials("shared@example.com", "carl's password") is not None
    assert check_credentials("shared@example.com", "ann's password") is None
    users.filter(username="shared@example.com").delete()
    # Now two users share it: neither logs in with it, each with the username.
    assert check_credentials("shared@example.com", "ann's password") is None
    assert check_credentials("SHARED@example.com", "bob's password") is None
    assert check_credentials("Ann", "ann's password") is not None
    assert check_credentials("bob", "bob's password") is not None


def test_usernames_differing_only_in_case_need_the_exact_one() -> None:
    users = get_user_model()._default_manager
    users.create_user("Eve", "eve@example.com", "eve's password")
    users.create_user("EVE", "other@example.com", "other password")
    assert check_credentials("Eve", "eve's password") is not None
    assert check_credentials("EVE", "other password") is not None
    assert check_credentials("eve", "eve's password") is None


def test_the_login_route_takes_the_username_and_the_address() -> None:
    get_user_model()._default_manager.create_superuser(
        "root", "root@example.com", "long enough"
    )
    for login in ["root", "ROOT@example.com"]:
        client = Client(headers={"Accept": "application/json"})
        body = {"username": login, "password": "long enough"}
        response = client.post(
            "/admin/authenticate", body, content_type="application/json"
        )
        assert response.status_code == 200, (login, response.content)


@pytest.mark.parametrize(
    "login", ["ann", "ANN@example.com", "nobody", "nobody@example.com", "shared"]
)
def test_every_login_costs_one_hash_check(
    monkeypatch: pytest.MonkeyPatch, login: str
) -> None:
    users = get_user_model()._default_manager
    users.create_user("ann", "ann@example.com", "ann's password")
    users.create_user("bob", "shared", "bob's password")
    users.create_user("carl", "SHARED", "carl's password")
    checks: list[str] = []
    real = verify_password.__globals__["check_password"]

    def counted(password: str, encoded: str, setter: Any = None) -> bool:
        checks.append(encoded)
        return bool(real(password, encoded, setter))

    monkeypatch.setattr("panel.passwords.check_password", counted)
    assert check_credentials(login, "a wrong password") is None
    assert len(checks) == 1
