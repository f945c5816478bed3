"""Who may do what: the abilities a route needs, and the roles the manifest declares.

Every user carries one role. ``admin`` is built in and may do everything; the other
roles come from the manifest (``app/roles.py``), each granting abilities on every
resource (``"*"``) and on named ones, the two lists added together::

    ROLES = {"editor": {"*": ("view_any", "view"), "Patient": ("create", "update")}}

A resource's ``can(ability, user, record=None)`` asks these roles unless the resource
overrides it. Abilities are the CRUD ones below plus each async method's and each
action's name (a ``bulk_update`` action, ``set_<field>``, needs ``update``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

ADMIN = "admin"
ANY_RESOURCE = "*"

VIEW_ANY = "view_any"
VIEW = "view"
CREATE = "create"
UPDATE = "update"
DELETE = "delete"
MASS_DELETE = "mass_delete"
EXPORT = "export"
IMPORT = "import"
ABILITIES = (VIEW_ANY, VIEW, CREATE, UPDATE, DELETE, MASS_DELETE, EXPORT, IMPORT)
# A resource with ``soft_delete`` has a trash: taking records out, deleting for good.
RESTORE = "restore"
FORCE_DELETE = "force_delete"
TRASH_ABILITIES = (RESTORE, FORCE_DELETE)

# The page and button abilities templates ask about, by name.
PAGE_ABILITIES = (
    CREATE,
    UPDATE,
    DELETE,
    MASS_DELETE,
    EXPORT,
    IMPORT,
    VIEW,
    RESTORE,
    FORCE_DELETE,
)

# The built-in actions of ``bulk_update`` are named ``set_<field>``.
SET_PREFIX = "set_"

RoleTable = Mapping[str, Mapping[str, Sequence[str]]]


class UnknownRole(ValueError):
    """A role that is neither ``admin`` nor declared in the manifest."""


class Roles:
    """The declared roles, as sets of abilities by resource name."""

    def __init__(self, table: RoleTable | None = None) -> None:
        self._grants = {
            role: {resource: frozenset(found) for resource, found in grants.items()}
            for role, grants in (table or {}).items()
        }

    @property
    def names(self) -> tuple[str, ...]:
        """Every role a user may carry, ``admin`` first."""
        return (ADMIN, *sorted(self._grants))

    def check(self, role: str) -> str:
        """``role`` if users may carry it, else ``UnknownRole`` naming the choices."""
        if role not in self.names:
            choices = ", ".join(self.names)
            raise UnknownRole(f"unknown role {role!r} (choose one of: {choices})")
        return role

    @property
    def declared(self) -> bool:
        """Whether the manifest declares roles; without any, every user is an admin."""
        return bool(self._grants)

    def allows(self, role: str | None, resource: str, ability: str) -> bool:
        """Whether ``role`` grants ``ability`` on the resource named ``resource``.

        A role the manifest does not declare grants nothing, unless it declares none:
        then ``admin`` is the only role there is, and everyone has it.
        """
        if role == ADMIN or not self._grants:
            return True
        grants = self._grants.get(role or "")
        if grants is None:
            return False
        return ability in grants.get(resource, ()) or ability in grants.get(
            ANY_RESOURCE, ()
        )


def role_of(user: Any) -> str | None:
    """The role of a panel user: Django superusers are admins, others carry one."""
    if getattr(user, "is_superuser", False):
        return ADMIN
    role: str | None = getattr(user, "role", None)
    return role


class UnguardedRoute(LookupError):
    """A resource route that no ability covers: refused rather than left open."""


_BY_ROUTE = {
    "crud.index": VIEW_ANY,
    "crud.show": VIEW,
    "crud.file": VIEW,
    "crud.store": CREATE,
    "crud.update": UPDATE,
    "crud.destroy": DELETE,
    "crud.massDelete": MASS_DELETE,
    "crud.trash": VIEW_ANY,
    "crud.restore": RESTORE,
    "crud.forceDelete": FORCE_DELETE,
    "component": VIEW_ANY,
}
# ``resource.page`` by page and whether a record is named.
_BY_PAGE = {
    ("form-page", False): CREATE,
    ("form-page", True): UPDATE,
    ("detail-page", True): VIEW,
    ("import-page", False): IMPORT,
}
_BY_HANDLER = {"export": EXPORT, "import": IMPORT}


def required_ability(
    route: str, params: Mapping[str, Any], query: Mapping[str, str]
) -> str | None:
    """The ability a request of ``route`` needs on its resource (``None``: no resource).

    Every route naming a resource (``{resourceUri}``) needs one; a route this table
    does not know is ``UnguardedRoute``, so a new route cannot skip ``can()``.
    """
    if not params.get("resourceUri"):
        return None
    if route in _BY_ROUTE:
        return _BY_ROUTE[route]
    if route == "resource.page":
        page = (params.get("pageUri", ""), "resourceItem" in params)
        return _BY_PAGE.get(page, VIEW_ANY)
    if route == "handler":
        name = params.get("handlerUri") or query.get("handlerUri", "")
        return _BY_HANDLER.get(name, VIEW_ANY)
    if route == "method":
        return query.get("method", "") or VIEW_ANY
    if route == "crud.action":
        return action_ability(str(params.get("actionUri", "")))
    raise UnguardedRoute(f"route {route!r} names a resource but needs no ability")


def action_ability(action: str) -> str:
    """The ability running ``action`` needs: its name; a ``bulk_update``'s: update."""
    return UPDATE if action.startswith(SET_PREFIX) else action
