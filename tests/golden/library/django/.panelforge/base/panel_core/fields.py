"""Field declarations: what a resource's records hold and how each value is checked.

A field knows its JSON type and constraints; the storage layer, input validation, pages
and the OpenAPI builder all read them from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from . import decimals


class _Missing:
    """Marks a field without a default (``None`` is a legitimate default)."""

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()

_WORD_BOUNDARY = re.compile(r"_+")


def humanize(name: str) -> str:
    """``published_on`` → ``Published on``."""
    text = _WORD_BOUNDARY.sub(" ", name).strip()
    return text[:1].upper() + text[1:]


@dataclass(frozen=True, kw_only=True)
class Field:
    """Base declaration; use one of the typed subclasses below."""

    json_type: ClassVar[str] = "string"
    json_format: ClassVar[str | None] = None
    input_type: ClassVar[str] = "text"

    name: str = field(kw_only=False)
    label: str = ""
    required: bool = False
    nullable: bool = False
    read_only: bool = False
    key: bool = False
    # A part of a composite key (``Resource.key_parts``): given on create, never
    # empty, never changed.
    key_part: bool = False
    default: Any = MISSING
    description: str | None = None
    sortable: bool = True
    filterable: bool = True
    unique: bool = False  # no two records share a value: 422 "already been taken"
    # The database fills it in on create when no value is given ("now()",
    # "current_date"); the create then answers the value it chose.
    db_default: str | None = None

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", humanize(self.name))

    @property
    def has_default(self) -> bool:
        """Whether a value is filled in on create when the client sends none."""
        return self.default is not MISSING

    @property
    def needed_on_create(self) -> bool:
        """Whether a create must give a value: required, and nothing fills it in."""
        return self.required and not self.has_default and self.db_default is None

    @property
    def accepts_null(self) -> bool:
        """Whether null is valid: optional without a default, or declared nullable."""
        if self.key or self.key_part:
            return False
        return self.nullable or (
            not self.required and not self.has_default and self.db_default is None
        )

    @property
    def writable(self) -> bool:
        """Whether clients may set this field (never keys nor read-only fields)."""
        return not (self.read_only or self.key or self.key_part)

    @property
    def client_key(self) -> bool:
        """Whether this is a key the client gives when it creates a record: a string
        key, or a part of a composite key. The database makes integer and UUID keys;
        no key ever changes."""
        return self.key_part or (
            self.key
            and not self.read_only
            and json_type(self) == "string"
            and self.json_format is None
        )

    @property
    def write_only(self) -> bool:
        """Whether the value is accepted but never returned (passwords)."""
        return False

    def constraints(self) -> dict[str, Any]:
        """JSON-Schema keywords restricting the value, beyond its type."""
        return {}


@dataclass(frozen=True, kw_only=True)
class _StringField(Field):
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None

    def constraints(self) -> dict[str, Any]:
        """Length and pattern limits."""
        found = {
            "minLength": self.min_length,
            "maxLength": self.max_length,
            "pattern": self.pattern,
        }
        return {k: v for k, v in found.items() if v is not None}


@dataclass(frozen=True, kw_only=True)
class Text(_StringField):
    """A short string."""


@dataclass(frozen=True, kw_only=True)
class Textarea(_StringField):
    """A long string, edited in a textarea; not sortable by default."""

    input_type: ClassVar[str] = "textarea"
    sortable: bool = False


@dataclass(frozen=True, kw_only=True)
class Email(_StringField):
    """An e-mail address."""

    json_format: ClassVar[str | None] = "email"
    input_type: ClassVar[str] = "email"


@dataclass(frozen=True, kw_only=True)
class Url(_StringField):
    """An absolute http(s) URL."""

    json_format: ClassVar[str | None] = "uri"
    input_type: ClassVar[str] = "url"


@dataclass(frozen=True, kw_only=True)
class Uuid(_StringField):
    """A UUID in its canonical text form."""

    json_format: ClassVar[str | None] = "uuid"


@dataclass(frozen=True, kw_only=True)
class Password(_StringField):
    """A secret: stored hashed, written but never returned, sorted or filtered."""

    json_format: ClassVar[str | None] = "password"
    input_type: ClassVar[str] = "password"
    sortable: bool = False
    filterable: bool = False

    @property
    def write_only(self) -> bool:
        """Passwords never leave the server."""
        return True


@dataclass(frozen=True, kw_only=True)
class File(Field):
    """An uploaded file (multipart): stored by a key the server makes, answered as
    ``{url, name, size, media_type}`` (:mod:`panel_core.files`).

    ``accept``: the media types allowed (sniffed from the content); ``max_bytes``:
    the largest upload. Never sorted, filtered, searched nor unique.
    """

    json_type: ClassVar[str] = "object"
    input_type: ClassVar[str] = "file"
    accept: tuple[str, ...] | None = None
    max_bytes: int | None = None
    sortable: bool = False
    filterable: bool = False


@dataclass(frozen=True, kw_only=True)
class Image(File):
    """An uploaded image: decoded to be verified, shown inline and as a thumbnail."""


def file_fields(fields: tuple[Field, ...]) -> tuple[File, ...]:
    """The file and image fields among ``fields``."""
    return tuple(f for f in fields if isinstance(f, File))


@dataclass(frozen=True, kw_only=True)
class Date(Field):
    """A calendar date, ``YYYY-MM-DD``."""

    json_format: ClassVar[str | None] = "date"
    input_type: ClassVar[str] = "date"


@dataclass(frozen=True, kw_only=True)
class DateTime(Field):
    """A date and time, RFC 3339."""

    json_format: ClassVar[str | None] = "date-time"
    input_type: ClassVar[str] = "datetime-local"


@dataclass(frozen=True, kw_only=True)
class _NumericField(Field):
    minimum: int | float | None = None
    maximum: int | float | None = None

    def constraints(self) -> dict[str, Any]:
        """Range limits."""
        found = {"minimum": self.minimum, "maximum": self.maximum}
        return {k: v for k, v in found.items() if v is not None}


@dataclass(frozen=True, kw_only=True)
class Integer(_NumericField):
    """A whole number (64-bit)."""

    json_type: ClassVar[str] = "integer"
    input_type: ClassVar[str] = "number"


@dataclass(frozen=True, kw_only=True)
class Number(_NumericField):
    """A decimal number (double precision)."""

    json_type: ClassVar[str] = "number"
    input_type: ClassVar[str] = "number"


@dataclass(frozen=True, kw_only=True)
class Decimal(Field):
    """An exact decimal, NUMERIC(precision, scale): never a float; in JSON, text
    with ``scale`` decimals (``"12.30"``, see :mod:`panel_core.decimals`).

    The default and the limits may be given as text (``default="9.90"``).
    """

    json_format: ClassVar[str | None] = "decimal"
    input_type: ClassVar[str] = "number"

    precision: int = 15
    scale: int = 2
    minimum: Any = None
    maximum: Any = None

    def __post_init__(self) -> None:
        super().__post_init__()
        for name in ("minimum", "maximum", "default"):
            value = getattr(self, name)
            if value is not None and value is not MISSING:
                object.__setattr__(self, name, decimals.to_decimal(value, self.scale))

    @property
    def example(self) -> str:
        """A value to show in the spec (``12.30``), within the limits."""
        shown = decimals.example(self.precision, self.scale)
        value = decimals.to_decimal(shown, self.scale)
        if self.minimum is not None and value < self.minimum:
            value = self.minimum
        if self.maximum is not None and value > self.maximum:
            value = self.maximum
        return decimals.text(value)

    def constraints(self) -> dict[str, Any]:
        """The shape of the value's text."""
        signed = self.minimum is None or self.minimum < 0
        return {"pattern": decimals.pattern(self.precision, self.scale, signed=signed)}


@dataclass(frozen=True, kw_only=True)
class ID(Integer):
    """The integer key the database allocates; read-only."""

    name: str = field(default="id", kw_only=False)
    label: str = "ID"
    key: bool = True
    read_only: bool = True
    filterable: bool = True


@dataclass(frozen=True, kw_only=True)
class Boolean(Field):
    """True or false; a checkbox in forms."""

    json_type: ClassVar[str] = "boolean"
    input_type: ClassVar[str] = "checkbox"


@dataclass(frozen=True, kw_only=True)
class Select(Field):
    """One of a fixed list of options (strings or integers)."""

    input_type: ClassVar[str] = "select"
    options: tuple[Any, ...] = ()
    # What pages show for options (``enum_labels``): (value, label) pairs; an option
    # without one is shown as it is. JSON, CSV and record names keep the values.
    option_labels: tuple[tuple[Any, str], ...] = ()

    def label_of(self, value: Any) -> str:
        """The label pages show for the option ``value``, else the value as text."""
        return dict(self.option_labels).get(value, str(value))

    @property
    def option_type(self) -> str:
        """JSON type of the options: ``integer`` when all are ints, else ``string``."""
        if self.options and all(
            isinstance(o, int) and not isinstance(o, bool) for o in self.options
        ):
            return "integer"
        return "string"

    def constraints(self) -> dict[str, Any]:
        """The allowed values."""
        return {"enum": list(self.options)}


@dataclass(frozen=True, kw_only=True)
class BelongsTo(Integer):
    """The key of a record of another resource (its URI key in ``resource``).

    ``key_type`` is the type of that key: ``"integer"``, ``"string"`` or ``"uuid"``;
    ``on_delete`` what deleting that record does to this one: ``"restrict"``,
    ``"cascade"`` or ``"set_null"`` (``panel_core.delete_rules``).
    """

    input_type: ClassVar[str] = "select"
    resource: str = ""
    key_type: str = "integer"
    on_delete: str = "restrict"

    @property  # type: ignore[override]
    def json_type(self) -> str:  # type: ignore[override]
        """``integer`` for an integer key, else ``string``."""
        return "integer" if self.key_type == "integer" else "string"

    @property  # type: ignore[override]
    def json_format(self) -> str | None:  # type: ignore[override]
        """``uuid`` for a UUID key."""
        return "uuid" if self.key_type == "uuid" else None


def json_type(field_: Field) -> str:
    """The JSON type of a field's values."""
    if isinstance(field_, Select):
        return field_.option_type
    return field_.json_type
