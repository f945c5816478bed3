"""Users' roles: what each panel user may do (``panel_core.abilities``).

Django superusers are ``admin`` and may do everything (``manage.py createsuperuser``
makes administrators); every other user carries the role its ``PanelRole`` row holds,
and without one may do nothing. Users may carry ``admin`` or a role of
``app/roles.py`` (the manifest's ``roles``). The role is read with the user on every
request (``panel.users`` joins it in), so a changed role applies at the next one;
while the manifest declares no role, every user is ``admin`` and nothing is read.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from panel_core.abilities import ADMIN, Roles

from .models import PanelRole
from .registry import registry

# Where the request's user carries its role (``panel_core.abilities.role_of``).
ROLE_ATTRIBUTE = "role"


def declared_roles() -> Roles:
    """The roles users may carry: ``admin`` and the manifest's."""
    return registry().roles


def roles_declared() -> bool:
    """Whether the manifest declares roles (else every user is ``admin``)."""
    return declared_roles().declared


def stored_role(user: Any) -> str | None:
    """The role kept for ``user`` (``None``: none, so no ability but an admin's)."""
    if user.is_superuser or not roles_declared():
        return ADMIN
    found: str | None = (
        PanelRole.objects.filter(user=user.pk).values_list("role", flat=True).first()
    )
    return found


def with_role(user: Any) -> Any:
    """``user`` carrying its role: read with it already, else read now."""
    if not hasattr(user, ROLE_ATTRIBUTE):
        setattr(user, ROLE_ATTRIBUTE, stored_role(user))
    return user


def set_role(user: Any, role: str) -> None:
    """Give ``user`` the role ``role``: an ``admin`` is a superuser, others are not.

    A role users may not carry is ``UnknownRole``, naming those they may.
    """
    admin = declared_roles().check(role) == ADMIN
    with transaction.atomic():
        user.is_superuser = user.is_staff = admin
        user.save(update_fields=["is_superuser", "is_staff"])
        if admin:
            PanelRole.objects.filter(user=user.pk).delete()
        else:
            PanelRole.objects.update_or_create(user=user, defaults={"role": role})
    setattr(user, ROLE_ATTRIBUTE, role)
