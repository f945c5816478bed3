"""Panel users, as both frameworks see them: login names, new users' rules, logins.

E-mail addresses are the login names, stored and looked up in one normal form
(``normalize_email``), so logins match them whatever their case. The rules and
messages of the user-creating command live here, so ``python -m app create-user``
and ``manage.py create_user`` refuse the same things with the same words.
"""

from __future__ import annotations

import getpass
import hashlib
import sys
from argparse import ArgumentParser

from .abilities import ADMIN, Roles, UnknownRole
from .passwords import MAX_PASSWORD_BYTES, is_too_long
from .translation import gettext_noop

# The one answer to a failed login, whether or not the user exists.
# (Translated where shown: ``gettext(FAILED)``.)
FAILED = gettext_noop("These credentials do not match our records.")
MIN_PASSWORD_LENGTH = 8


class NewUserError(ValueError):
    """A new user's address or password is refused; the message says why."""


def normalize_email(email: str) -> str:
    """The form an address is stored and looked up in."""
    return " ".join(email.split()).lower()


def attempt_key(username: str, address: str) -> str:
    """The login throttle's key for ``username`` from ``address`` (a hash of both)."""
    text = f"{normalize_email(username)}\0{address}"
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def add_new_user_arguments(parser: ArgumentParser) -> None:
    """The user-creating command's arguments: the address, a name, where the password is."""
    parser.add_argument("email", help="the login name")
    parser.add_argument("--name", default="", help="shown in the panel")
    parser.add_argument(
        "--role",
        default=None,
        help="what the user may do: admin, or a role the manifest declares "
        "(default: admin for the first user)",
    )
    parser.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from standard input instead of asking",
    )


def read_password(from_stdin: bool) -> str:
    """The new password: stdin's first line, or typed twice at a prompt.

    The password is never a command-line argument: those show in ``ps`` and shell
    histories.
    """
    if from_stdin:
        return sys.stdin.readline().removesuffix("\n").removesuffix("\r")
    password = getpass.getpass("Password: ")
    if getpass.getpass("Password (again): ") != password:
        raise NewUserError("the passwords differ")
    return password


def check_new_user(email: str, password: str) -> None:
    """Refuse an address that is not one, and a password too short or too long."""
    address = normalize_email(email)
    if address.count("@") != 1 or address.startswith("@") or address.endswith("@"):
        raise NewUserError(f"'{email}' is not an e-mail address")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise NewUserError(
            f"the password must be at least {MIN_PASSWORD_LENGTH} characters"
        )
    if is_too_long(password):
        raise NewUserError(f"the password must be at most {MAX_PASSWORD_BYTES} bytes")


def new_user_role(requested: str | None, roles: Roles, *, first: bool) -> str:
    """The role of a new user: the one asked for, else ``admin`` for the first user.

    Later users need ``--role`` once the manifest declares roles: nobody becomes an
    administrator by leaving an option out.
    """
    if requested is not None:
        return checked_role(requested, roles)
    if first or roles.names == (ADMIN,):
        return ADMIN
    choices = ", ".join(roles.names)
    raise NewUserError(f"give the new user a role with --role (one of: {choices})")


def checked_role(role: str, roles: Roles) -> str:
    """``role`` if users may carry it, else ``NewUserError`` naming the choices."""
    try:
        return roles.check(role)
    except UnknownRole as exc:
        raise NewUserError(str(exc)) from None
