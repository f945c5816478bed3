"""Which names a manifest may use: identifier shapes, keywords and reserved words.

Each check returns ``(message, hint)`` for a bad name, or None. Names are checked the
way Django's ``startapp`` checks them: identifiers, not keywords, not shadowing what the
emitted project defines or imports.
"""

from __future__ import annotations

import keyword
import re
import sys

from ..model import naming
from ..model.ir import ABILITIES, TRASH_ABILITIES
from .hints import shown

Problem = tuple[str, str | None]

SNAKE = re.compile(r"[a-z][a-z0-9_]*")
PASCAL = re.compile(r"[A-Z][A-Za-z0-9]*")
KEBAB = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")
# PostgreSQL truncates longer identifiers, which would make distinct names collide.
MAX_LENGTH = 63
# Fixed rather than keyword.softkwlist, so the answer does not depend on the Python that
# runs panelforge ("type" became a soft keyword in 3.12).
SOFT_KEYWORDS = frozenset({"_", "case", "match", "type"})
KEYWORDS = frozenset(keyword.kwlist) | SOFT_KEYWORDS

_DJANGO_MODEL = (
    "pk objects save delete clean clean_fields full_clean validate_unique"
    " validate_constraints refresh_from_db serializable_value check from_db"
    " get_deferred_fields get_constraints prepare_database_save save_base"
    " unique_error_message date_error_message asave adelete arefresh_from_db"
)
_PYDANTIC_MODEL = (
    "construct copy dict from_orm json parse_file parse_obj parse_raw schema"
    " schema_json update_forward_refs validate"
)
_SQLALCHEMY_MODEL = "metadata registry query"
# Modules and names the generated model classes use in their bodies (SQLAlchemy
# resolves ``Mapped[str | None]`` in the class too): a field of that name would hide
# them from the fields declared after it.
_MODEL_BODIES = "sa mapped_column models datetime uuid str int float bool"
# Columns every PostgreSQL table has already.
_POSTGRESQL_COLUMNS = "tableoid xmin cmin xmax cmax ctid"
RESERVED_FIELDS = {
    **dict.fromkeys(_DJANGO_MODEL.split(), "Django models"),
    **dict.fromkeys(_PYDANTIC_MODEL.split(), "Pydantic models"),
    **dict.fromkeys(_SQLALCHEMY_MODEL.split(), "SQLAlchemy models"),
    **dict.fromkeys(_MODEL_BODIES.split(), "the generated models' code"),
    **dict.fromkeys(_POSTGRESQL_COLUMNS.split(), "PostgreSQL (a system column)"),
}
# What a generated resource module defines or imports beside the model and its resource.
RESERVED_RESOURCES = frozenset(
    "ID Text Textarea Email Url Uuid Password Date DateTime Select BelongsTo Integer"
    " Number Boolean QueryTag Resource Base BaseModel Field Mapped Model ForeignKey"
    " String Float Numeric Decimal Enum Any Annotated Optional Session Request Response"
    " Settings".split()
)
# The emitted project's own packages and the ones it imports.
RESERVED_PROJECTS = frozenset(
    "app tests fastapi django config panel panel_core generator alembic migrations"
    " sqlalchemy pydantic pydantic_settings starlette uvicorn jinja2 httpx pytest"
    " jwt".split()
)
# What customises a resource, in the hook class or from the manifest: its name,
# fields per context, authorization, query scope and lifecycle hooks. The runtime
# gives them to every resource.
CUSTOMISATION_NAMES = frozenset(
    (
        "name index_fields form_fields detail_fields readonly_fields can scope roles"
        " index_field_list form_field_list detail_field_list"
        " before_creating after_created before_updating after_updated"
        " before_deleting after_deleted before_mass_deleting after_mass_deleted"
    ).split()
)
# What every resource class has from the panel kernel (``Resource`` and its URL
# helpers) and the customisation names: an async method of that name would replace it.
RESERVED_METHODS = CUSTOMISATION_NAMES | frozenset(
    (
        "uri title model fields search query_tags metrics methods per_page max_per_page"
        " default_sort key_field key_fields key_parts key_of field_map"
        " writable_fields creatable_fields"
        " readable_fields display display_parts display_fields soft_delete"
        " unique_together has_many has_many_map many_to_many many_to_many_map"
        " index_link_list"
        " actions bulk_update all_actions"
        " sortable_fields filterable_fields query_tag_map key_name pages get_pages"
        " first_page find_page current_page url route page_url index_page_url"
        " form_page_url detail_page_url async_method_url component_url"
        " fragment_load_url is_now_on_index is_now_on_detail is_now_on_form"
        " is_now_on_create_form is_now_on_update_form"
    ).split()
)
# The migrations' own table, the panel's tables (users, logins, tokens, roles and any
# to come) and the frameworks' and SQLite's.
_RESERVED_TABLE = re.compile(r"alembic_version|(panel|django|auth|sqlite)_.*")
RESERVED_TABLE_WORDS = "a table name the panel, the frameworks or SQLite use"


def snake_problem(name: str) -> Problem | None:
    """Why ``name`` is not a usable snake_case identifier."""
    if not SNAKE.fullmatch(name):
        fixed = naming.snake(name)
        hint = f"did you mean '{fixed}'?" if SNAKE.fullmatch(fixed) else None
        return f"{shown(name)} is not a snake_case name, like 'published_on'", hint
    if "__" in name or name.endswith("_"):
        fixed = re.sub("_+", "_", name).strip("_")
        return f"{shown(name)} has a double or trailing underscore", f"use '{fixed}'"
    if name in KEYWORDS:
        return f"{shown(name)} is a Python keyword; please choose another name", None
    if len(name) > MAX_LENGTH:
        return f"{shown(name)} is longer than {MAX_LENGTH} characters", None
    return None


def field_problem(name: str) -> Problem | None:
    """Why ``name`` cannot name a field (``id`` is checked with the key)."""
    problem = snake_problem(name)
    if problem:
        return problem
    reason = RESERVED_FIELDS.get(name)
    if reason is None and name.startswith("model_"):
        reason = "Pydantic models"
    if reason:
        message = f"{shown(name)} is used by {reason}; please choose another name"
        return message, "rename it; 'label' keeps what the panel shows"
    return None


def method_problem(name: str) -> Problem | None:
    """Why ``name`` cannot name an async method of a resource."""
    problem = snake_problem(name)
    if problem:
        return problem
    if name in RESERVED_METHODS:
        message = f"{shown(name)} is a name every resource already has"
        return message + "; please choose another name", None
    if name in ABILITIES or name in TRASH_ABILITIES:
        message = f"{shown(name)} is an ability every resource has (roles grant it)"
        return message + "; please choose another name", None
    return None


def resource_problem(name: str) -> Problem | None:
    """Why ``name`` cannot name a resource."""
    if not PASCAL.fullmatch(name):
        fixed = naming.pascal(name)
        hint = f"did you mean '{fixed}'?" if PASCAL.fullmatch(fixed) else None
        return f"{shown(name)} is not a PascalCase name, like 'BookAuthor'", hint
    if name in KEYWORDS:
        return f"{shown(name)} is a Python keyword; please choose another name", None
    if name in RESERVED_RESOURCES:
        message = f"{shown(name)} is a name generated code imports"
        return message + "; please choose another name", None
    return None


def project_problem(name: str) -> Problem | None:
    """Why ``name`` cannot name the project (a Python package)."""
    problem = snake_problem(name)
    if problem:
        return problem
    if name in RESERVED_PROJECTS:
        message = f"{shown(name)} is a module generated projects use"
        return message + "; please choose another name", None
    if name in sys.stdlib_module_names:
        return (
            f"{shown(name)} is a standard library module; please choose another name",
            None,
        )
    return None


def tag_problem(uri: str) -> Problem | None:
    """Why ``uri`` cannot be a query tag's URI."""
    if KEBAB.fullmatch(uri):
        return None
    fixed = naming.kebab(uri)
    hint = f"did you mean '{fixed}'?" if KEBAB.fullmatch(fixed) else None
    return f"{shown(uri)} is not a kebab-case URI, like 'in-stock'", hint


def table_problem(table: str) -> Problem | None:
    """Why ``table`` cannot name a resource's table (the schema checked its shape)."""
    if _RESERVED_TABLE.fullmatch(table.lower()):  # SQLite and MySQL ignore case
        hint = "tables starting 'panel_', 'django_', 'auth_' or 'sqlite_' are theirs"
        return f"{shown(table)} is {RESERVED_TABLE_WORDS}; please choose another", hint
    if len(table) > MAX_LENGTH:
        return f"{shown(table)} is longer than {MAX_LENGTH} characters", None
    return None
