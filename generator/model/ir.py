"""The intermediate model: what a manifest means, free of YAML and of any framework.

Templates never see the raw manifest; targets build their context from these frozen
dataclasses. Every derived name (URI key, module, table, class names) is computed once,
in :mod:`generator.model.naming`, when the model is built.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from .ir_parts import HasMany, ManyToMany, Metric, QueryTag, Stored, TableIndex

FieldType = Literal["string", "integer", "number", "boolean"]
Framework = Literal["fastapi", "django"]

# Formats a string field may carry. "text" is a long string (a textarea in forms).
STRING_FORMATS = (
    "date",
    "date-time",
    "email",
    "uri",
    "uuid",
    "password",
    "text",
    "file",
    "image",
)
# The formats of uploaded files: the column holds the stored file's key and metadata.
FILE_FORMATS = ("file", "image")

# What a role may be granted on a resource, besides the names of its async methods.
ABILITIES = (
    "view_any",
    "view",
    "create",
    "update",
    "delete",
    "mass_delete",
    "export",
    "import",
)
# What a role may be granted on a resource that keeps a trash (``soft_delete``).
TRASH_ABILITIES = ("restore", "force_delete")
ADMIN_ROLE = "admin"  # built in: may do everything; never declared
ALL_RESOURCES = "*"  # a role's grants on every resource


class _Missing:
    """Marks a field without a default (``None`` is a legitimate default)."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


@dataclass(frozen=True)
class Field:
    """One declared property of a resource."""

    name: str
    type: FieldType
    label: str
    format: str | None = None
    enum: tuple[Any, ...] | None = None
    # what pages show for enum values (``enum_labels``): (value, label) pairs
    enum_labels: tuple[tuple[Any, str], ...] = ()
    min_length: int | None = None
    max_length: int | None = None
    minimum: int | float | Decimal | None = None
    maximum: int | float | Decimal | None = None
    precision: int | None = None  # a decimal's digits in all (format: decimal)
    scale: int | None = None  # of them after the point
    pattern: str | None = None
    default: Any = MISSING
    nullable: bool = False
    read_only: bool = False
    required: bool = False
    description: str | None = None
    relation: str | None = None  # name of the resource this field belongs to
    # what deleting the related record does (relations only): "restrict" (the
    # manifest's default), "cascade" or "set_null"; None for other fields
    on_delete: str | None = None
    sortable: bool = True
    filterable: bool = True
    renamed_from: str | None = None
    renamed_values: tuple[tuple[Any, Any], ...] = ()  # enum (old, new) pairs
    unique: bool = False  # no two records share a value
    is_key: bool = False
    # one of the fields of a composite key (``key: [a, b]``): given on create, never
    # empty, never changed; ``is_key`` stays for the key of one field
    key_part: bool = False
    # what the database fills in on create when no value is given: "now()" (a
    # date-time), "current_date" (a date), or None
    default_sql: str | None = None
    # the database column, when it is not named like the field (``column:``)
    column: str | None = None
    stored: Stored | None = None  # a column of an adopted table: how it really is
    # a file or image field's media types (``accept:``) and size limit (``maxBytes:``)
    accept: tuple[str, ...] | None = None
    max_bytes: int | None = None

    @property
    def is_file(self) -> bool:
        """Whether values are uploaded files (``format: file`` or ``image``)."""
        return self.type == "string" and self.format in FILE_FORMATS

    @property
    def column_name(self) -> str:
        """The name of the field's database column: ``column:``, else its name."""
        return self.column or self.name

    @property
    def is_decimal(self) -> bool:
        """Whether values are exact decimals (``format: decimal``), not doubles."""
        return self.type == "number" and self.format == "decimal"

    @property
    def has_default(self) -> bool:
        """Whether the manifest gave this field a default value."""
        return self.default is not MISSING

    @property
    def delete_rule(self) -> str:
        """What deleting the related record does: ``restrict`` unless declared."""
        return self.on_delete or "restrict"

    @property
    def column_nullable(self) -> bool:
        """Whether storage accepts NULL: optional without a default, or nullable."""
        if self.is_key or self.key_part:
            return False
        return self.nullable or (
            not self.required and not self.has_default and self.default_sql is None
        )


# The column a soft-deleting resource's trash is made of: when each record was
# deleted (UTC), NULL while it is live. Stored, never a field of the panel's.
TRASH_COLUMN = Field(
    name="deleted_at",
    type="string",
    label="Deleted at",
    format="date-time",
    nullable=True,
    read_only=True,
)


@dataclass(frozen=True)
class Action:
    """Something users do to the records they select (``actions`` of a resource),
    run by the function of the same name in the resource's hooks module."""

    name: str
    label: str
    bulk: bool = True  # offered on the list's selection too, not only per record
    confirm: str = ""
    fields: tuple[Field, ...] = ()


@dataclass(frozen=True)
class Resource:
    """A resource: one table, one set of CRUD routes, one group of pages."""

    name: str  # as declared: "Book"
    uri: str  # URI key: "book-resource"
    title: str  # "Books"
    module: str  # Python module name: "book"
    table: str  # database table: "books"
    class_name: str  # "BookResource"
    model_name: str  # "Book"
    key: str  # name of the key field, "id" unless declared; "" for a composite key
    fields: tuple[Field, ...]  # the key field(s) first, then declared order
    search: tuple[str, ...] = ()
    query_tags: tuple[QueryTag, ...] = ()
    methods: tuple[str, ...] = ()
    per_page: int = 25
    default_sort: str = "-id"
    renamed_from: str | None = None  # the resource's name before a rename
    index_fields: tuple[str, ...] = ()  # the list's columns (manifest ``list``)
    readonly_fields: tuple[str, ...] = ()  # never set by a request (``readonly``)
    display: str = (
        ""  # how a record is named: "last_name", "{first} {last}"; "": default
    )
    soft_delete: bool = False  # a delete moves the record to the trash
    has_many: tuple[HasMany, ...] = ()  # children listed on the record (no columns)
    many_to_many: tuple[ManyToMany, ...] = ()  # keys linked through link tables
    # the fields of a composite key, in the key's order (``key: [a, b]``); () else
    key_parts: tuple[str, ...] = ()

    @property
    def stored_fields(self) -> tuple[Field, ...]:
        """The table's columns: the fields, then the trash's ``deleted_at``."""
        return (*self.fields, TRASH_COLUMN) if self.soft_delete else self.fields

    # groups of fields no two records share values of (``unique`` of the resource)
    unique_together: tuple[tuple[str, ...], ...] = ()
    actions: tuple[Action, ...] = ()
    bulk_update: tuple[str, ...] = ()  # fields a built-in "set" action sets
    metrics: tuple[Metric, ...] = ()  # the dashboard's value cards
    # the table exists already (``adopted``): never created nor dropped; its fields'
    # ``stored`` and these multi-column indexes say how it really is
    adopted: bool = False
    table_indexes: tuple[TableIndex, ...] = ()

    @property
    def is_composite(self) -> bool:
        """Whether the key is several fields (``key: [a, b]``)."""
        return bool(self.key_parts)

    @property
    def key_field(self) -> Field:
        """The field holding the record key."""
        return next(f for f in self.fields if f.is_key)

    @property
    def key_column(self) -> str:
        """The database column of the record key."""
        return self.key_field.column_name

    def column_of(self, name: str) -> str:
        """The database column of the field called ``name``."""
        return self.field(name).column_name

    def field(self, name: str) -> Field:
        """Return the field called ``name``."""
        return next(f for f in self.fields if f.name == name)

    def is_read_only(self, field: Field) -> bool:
        """Whether no request sets ``field`` (keys aside): read-only itself, or
        listed in the resource's ``readonly``."""
        return field.read_only or field.name in self.readonly_fields


@dataclass(frozen=True)
class Role:
    """A role users may carry: its abilities on every resource and on named ones."""

    name: str  # "editor"
    # (ALL_RESOURCES or a resource name, abilities), in manifest order
    grants: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class Auth:
    """Authentication settings (``auth:`` block)."""

    jwt: bool = False
    token_ttl: int = 3600


@dataclass(frozen=True)
class Docs:
    """OpenAPI generator settings (``docs:`` block); defaults mirror MoonShine's oag."""

    title: str = "Docs"
    path: str = "resources/oag.yaml"
    route: str = "oag.json"
    view: str = "oag::docs"
    openapi_version: str = "3.1.0"


@dataclass(frozen=True)
class Project:
    """The whole manifest, resolved."""

    name: str  # Python package-safe project name, e.g. "library_admin"
    title: str
    framework: Framework
    resources: tuple[Resource, ...]
    auth: Auth = field(default_factory=Auth)
    docs: Docs = field(default_factory=Docs)
    roles: tuple[Role, ...] = ()  # declared roles (``admin`` is built in, never here)
    manifest_name: str = "manifest.yaml"  # file name only, for headers; never a path
    # Identity: where the data lives and who signs tokens. Resolved when the manifest
    # is loaded (``project.database``, ``project.jwt_issuer``, or derived from the
    # name), then kept as recorded on regeneration unless the manifest names them
    # (:mod:`generator.regen.identity`).
    database: str = ""  # the default SQLite file, relative to the project
    jwt_issuer: str = ""
    # How Django model fields are declared beyond their columns (migration state
    # only, no SQL): 2 = readable ``related_name`` and ``blank=True`` where NULL is
    # the empty value; 1 = ``related_name="+"``, no ``blank`` (what projects generated
    # before recorded; regenerating them moves them to 2:
    # :mod:`generator.targets.django.related_names`).
    django_model_style: int = 2
    explicit: frozenset[str] = field(default=frozenset(), compare=False)  # not recorded

    def __post_init__(self) -> None:
        # Derived from the name when not given (the first generation's values).
        if not self.database:
            object.__setattr__(self, "database", f"{self.name}.db")
        if not self.jwt_issuer:
            object.__setattr__(self, "jwt_issuer", self.name)

    def resource(self, name: str) -> Resource:
        """Return the resource declared as ``name``."""
        return next(r for r in self.resources if r.name == name)

    def replace_framework(self, framework: Framework) -> Project:
        """A copy targeting another framework (``--framework`` beats the manifest)."""
        from dataclasses import replace

        return replace(self, framework=framework)
