"""The people who may log into the panel: Django's users (``django.contrib.auth``).

A login names the user by username or by e-mail address, in any case, so users made
by ``create_user`` (the address as both, in lower case) and by Django's
``createsuperuser`` (a username and an address) log in either way. A username wins
over an address; an address two users share names nobody. The user of a request is
read with its role in one query (``panel.roles``): it is the ``role`` attribute
``panel_core.abilities`` reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, router, transaction
from django.db.models import Case, Exists, F, IntegerField, Q, Value, When

from panel_core.abilities import ADMIN
from panel_core.accounts import normalize_email

from .models import RevokedToken
from .passwords import verify_password
from .prepared import PreparedQuery
from .roles import ROLE_ATTRIBUTE, roles_declared, set_role

# The column of the user queries holding the role (``PanelRole.role``, joined in).
_ROLE = F("panel_role__role")


class UserExists(ValueError):
    """Another user already has this e-mail address."""


def _users() -> Any:
    return get_user_model()._default_manager


def _answering_to(name: str) -> Any:
    """The users whose username or e-mail address is ``name``, in any case."""
    model = get_user_model()
    username = model.USERNAME_FIELD
    email = model.get_email_field_name()
    matches = Q(**{f"{username}__iexact": name}) | Q(**{f"{email}__iexact": name})
    return _users().filter(matches)


# How a user matches a login name, best first (``find_user``).
_SAME_USERNAME, _USERNAME, _EMAIL = 0, 1, 2


def find_user(login: str) -> AbstractBaseUser | None:
    """The user a login name names: by username, else by e-mail address, in any case.

    One query. A username spelled exactly so wins, then one spelled in another case;
    an address counts only when no username matches and a single user has it, so two
    users can never be mistaken for each other.
    """
    model = get_user_model()
    typed = login.strip()
    name = normalize_email(login)
    username = model.USERNAME_FIELD
    rank = Case(
        When(Q(**{username: typed}), then=Value(_SAME_USERNAME)),
        When(Q(**{f"{username}__iexact": name}), then=Value(_USERNAME)),
        default=Value(_EMAIL),
        output_field=IntegerField(),
    )
    ranked = _answering_to(name).annotate(login_rank=rank)
    found = list(ranked.order_by("login_rank", "pk")[:2])
    if not found:
        return None
    ranks = [user.login_rank for user in found]
    if len(found) > 1 and ranks[0] == ranks[1] != _SAME_USERNAME:
        return None  # two users answer to this name equally: neither logs in
    best: AbstractBaseUser = found[0]
    return best


def create_user(
    *, email: str, password: str, role: str, name: str = ""
) -> AbstractBaseUser:
    """Add an active user with ``role``; the password is stored hashed.

    An ``admin`` is a Django superuser; ``role`` must be one users may carry. The
    address is the username too, and no other user may answer to it already.
    """
    address = normalize_email(email)
    if _answering_to(address).exists():
        raise UserExists(f"a user with e-mail {address} exists")
    try:
        with transaction.atomic():
            user: AbstractBaseUser = _users().create_user(
                username=address,
                email=address,
                password=password,
                first_name=name.strip(),
            )
            set_role(user, role)
    except IntegrityError:
        raise UserExists(f"a user with e-mail {address} exists") from None
    return user


def has_users() -> bool:
    """Whether anybody may log in yet (the first user is ``admin`` by default)."""
    exists: bool = _users().exists()
    return exists


def check_credentials(login: str, password: str) -> AbstractBaseUser | None:
    """The active user with these credentials (a username or an address), else ``None``.

    Exactly one hash verification runs whether the user exists or not, so the answer
    takes as long either way; a hash made with weaker parameters is replaced.
    """
    user = find_user(login)
    stored = None if user is None else user.password
    setter = None if user is None else _rehash(user)
    valid = verify_password(password, stored, setter)
    if user is None or not valid or not user.is_active:
        return None
    return user


def _rehash(user: AbstractBaseUser) -> Any:
    def setter(password: str) -> None:
        user.set_password(password)
        user.save(update_fields=["password"])

    return setter


def _with_role(users: Any, with_role: bool) -> Any:
    """The users' query, reading each one's role too (its last column)."""
    return users.annotate(panel_role_name=_ROLE) if with_role else users


@cache
def _token_user_query(with_role: bool) -> PreparedQuery:
    model = get_user_model()

    def token_users(values: Mapping[str, Any]) -> Any:
        revoked = RevokedToken.objects.filter(jti=values["jti"])
        users = _users().filter(pk=values["user_id"], is_active=True)
        return _with_role(users.filter(~Exists(revoked)), with_role)

    fields = {"user_id": model._meta.pk, "jti": RevokedToken._meta.get_field("jti")}
    return PreparedQuery(model, token_users, fields)


def token_user(user_id: int, jti: str) -> AbstractBaseUser | None:
    """The active user ``user_id``, unless the token ``jti`` was revoked (one query)."""
    with_role = roles_declared()
    query = _token_user_query(with_role)
    return _one_user(query, {"user_id": user_id, "jti": jti}, with_role)


@cache
def _user_query(with_role: bool) -> PreparedQuery:
    model = get_user_model()

    def users(values: Mapping[str, Any]) -> Any:
        return _with_role(_users().filter(pk=values["user_id"]), with_role)

    return PreparedQuery(model, users, {"user_id": model._meta.pk})


class PanelBackend(ModelBackend):
    """Django's ``ModelBackend`` reading a session's user with SQL compiled once.

    Logins go through ``check_credentials``, never through this backend: it only
    finds the users of sessions (``AUTHENTICATION_BACKENDS``), as active as
    ``ModelBackend`` requires.
    """

    def authenticate(self, request: Any, *args: Any, **kwargs: Any) -> None:
        """Nobody: panel logins check credentials themselves."""
        del request, args, kwargs

    def get_user(self, user_id: Any) -> Any:
        """The user ``user_id`` if it may log in, else ``None``."""
        with_role = roles_declared()
        user = _one_user(_user_query(with_role), {"user_id": user_id}, with_role)
        return user if user is not None and self.user_can_authenticate(user) else None


def _one_user(query: PreparedQuery, values: Mapping[str, Any], with_role: bool) -> Any:
    """The user ``query`` finds, made as Django makes model instances (``from_db``),
    with its role: the query's last column, or ``admin`` while no role is declared.
    """
    model = get_user_model()
    names = _attnames(model)
    for row in query.rows(values):
        user = model.from_db(router.db_for_read(model), names, row[: len(names)])
        setattr(user, ROLE_ATTRIBUTE, row[len(names)] if with_role else ADMIN)
        return user
    return None


@cache
def _attnames(model: type[AbstractBaseUser]) -> list[str]:
    """The columns of ``model``'s rows, in the order its queries select them."""
    return [field.attname for field in model._meta.concrete_fields]
