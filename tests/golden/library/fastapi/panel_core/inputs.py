"""Request bodies checked against a resource's fields, with Pydantic 2.

Each resource gets two input models at start-up, with ``extra="forbid"``:
for create (required fields required) and for update (every field optional). JSON is
validated strictly (no "1" for 1, no 1 for true); forms arrive as strings and are
validated in lax mode. Only writable fields exist in the schemas, so keys, read-only
and undeclared fields can never be written. Errors read like MoonShine's (Laravel's).

Blank is not a value, in JSON as in forms (Laravel's ``TrimStrings`` and
``ConvertEmptyStringsToNull`` with its ``required`` rule): strings are trimmed
(passwords excepted; the TRIM_STRINGS setting off keeps them as sent), then a blank
value (empty, or only spaces) of a required field is refused as "required", and of a
field that accepts null is null. Length, pattern and option checks see the trimmed
value.

Framework-neutral: the FastAPI and the Django panels validate with these same models,
so their 422 answers carry the same ``errors`` messages by construction.
"""

from __future__ import annotations

import decimal
import json
import re
import uuid
from collections.abc import Callable, Mapping
from datetime import date, datetime
from functools import partial
from typing import Annotated, Any
from urllib.parse import parse_qsl, urlsplit

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    ValidationError,
    create_model,
)
from pydantic import Field as Constraint
from pydantic_core import ErrorDetails, PydanticCustomError

from . import decimals
from . import fields as kernel
from .errors import InvalidInput, UnsupportedMediaType
from .files import StoredFile, to_column
from .passwords import MAX_PASSWORD_BYTES, is_too_long
from .query import INT64_MAX, INT64_MIN, parse_key, to_utc
from .resource import ManyToMany, Resource
from .translation import gettext, gettext_noop

# The address syntax browsers accept in <input type="email"> (WHATWG HTML).
_EMAIL = re.compile(
    r"[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?"
    r"(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*"
)
_CONFIG = ConfigDict(extra="forbid")
# How an ISO 8601 date or date-time begins (a Unix time does not).
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

TextField = kernel.Text | kernel.Textarea | kernel.Email | kernel.Url | kernel.Password
_TEXT_FIELDS = (kernel.Text, kernel.Textarea, kernel.Email, kernel.Url, kernel.Password)


def _no_nul(value: str) -> str:
    if "\x00" in value:
        raise PydanticCustomError("nul_character", "contains a NUL character")
    return value


def _url_segment(value: str) -> str:
    # A record's key is one segment of its URLs: servers decode %2F before routing,
    # and clients resolve "." and "..".
    if "/" in value or value in {".", ".."}:
        raise PydanticCustomError("key_segment", "cannot name a record in a URL")
    return value


def _email(value: str) -> str:
    if not _EMAIL.fullmatch(value):
        raise PydanticCustomError("email", "not an e-mail address")
    return value


def _url(value: str) -> str:
    try:
        parts = urlsplit(value)
    except ValueError:
        parts = None
    valid = (
        parts is not None
        and parts.scheme in {"http", "https"}
        and bool(parts.hostname)
        and not any(c.isspace() or ord(c) < 32 for c in value)
    )
    if not valid:
        raise PydanticCustomError("url", "not an http(s) URL")
    return value


def _hashable(value: str) -> str:
    if is_too_long(value):
        raise PydanticCustomError(
            "password_too_long", f"longer than {MAX_PASSWORD_BYTES} bytes"
        )
    return value


def _uploaded(value: Any) -> Any:
    # A file arrives as a multipart part, checked and stored before validation
    # (panel_core.uploads); JSON and form text can only clear it (null).
    if not isinstance(value, StoredFile):
        raise PydanticCustomError("file_upload", "must be uploaded as a file")
    return value


def _in_utc(value: datetime) -> datetime:
    try:
        to_utc(value)
    except ValueError:
        raise PydanticCustomError(
            "datetime_range", "outside years 1 to 9999 in UTC"
        ) from None
    return value


def _digits(field: kernel.Decimal) -> AfterValidator:
    """Refuse more decimals than the scale, then more whole digits than fit: a
    value is never rounded."""
    whole = field.precision - field.scale

    def check(value: decimal.Decimal) -> decimal.Decimal:
        places, digits = decimals.digits(value)
        if places > field.scale:
            context = {"decimal_places": field.scale}
            raise PydanticCustomError(
                "decimal_max_places", "too many decimals", context
            )
        if digits > whole:
            context = {"whole_digits": whole}
            raise PydanticCustomError("decimal_whole_digits", "too large", context)
        return value

    return AfterValidator(check)


def _one_of(options: tuple[Any, ...]) -> AfterValidator:
    allowed = frozenset(options)

    def check(value: Any) -> Any:
        if value not in allowed:
            raise PydanticCustomError("enum", "not one of the options")
        return value

    return AfterValidator(check)


def _string_type(field: TextField) -> Any:
    limits = Constraint(
        min_length=field.min_length, max_length=field.max_length, pattern=field.pattern
    )
    checks = [AfterValidator(_no_nul)]
    if isinstance(field, kernel.Email):
        checks.append(AfterValidator(_email))
    elif isinstance(field, kernel.Url):
        checks.append(AfterValidator(_url))
    elif isinstance(field, kernel.Password):
        checks.append(AfterValidator(_hashable))
    if field.client_key and not field.key_part:  # the codec encodes a part's "/"
        checks.append(AfterValidator(_url_segment))
    return Annotated[str, limits, *checks]


def value_type(field: kernel.Field) -> Any:
    """The Python type (with constraints) a field's input must validate as."""
    if isinstance(field, kernel.File):
        return Annotated[Any, AfterValidator(_uploaded)]
    if isinstance(field, kernel.Select):
        base = int if kernel.json_type(field) == "integer" else str
        return Annotated[base, _one_of(field.options)]
    if field.json_format == "uuid":  # a Uuid, or a relation to UUID keys
        return uuid.UUID
    if isinstance(field, kernel.BelongsTo) and field.key_type == "string":
        return Annotated[str, AfterValidator(_no_nul)]
    if isinstance(field, _TEXT_FIELDS):
        return _string_type(field)
    if isinstance(field, kernel.Integer | kernel.Number | kernel.Decimal):
        return _number_type(field)
    if isinstance(field, kernel.Boolean):
        return bool
    if isinstance(field, kernel.Date):
        return date
    if isinstance(field, kernel.DateTime):
        return Annotated[datetime, AfterValidator(_in_utc)]
    return Annotated[str, AfterValidator(_no_nul)]


def _number_type(field: kernel.Integer | kernel.Number | kernel.Decimal) -> Any:
    """A 64-bit integer, a finite double or an exact decimal, within the limits."""
    if isinstance(field, kernel.Integer):
        low = INT64_MIN if field.minimum is None else max(field.minimum, INT64_MIN)
        high = INT64_MAX if field.maximum is None else min(field.maximum, INT64_MAX)
        return Annotated[int, Constraint(ge=low, le=high)]
    limits = Constraint(ge=field.minimum, le=field.maximum, allow_inf_nan=False)
    if isinstance(field, kernel.Number):
        return Annotated[float, limits]
    return Annotated[decimal.Decimal, limits, _digits(field)]


class Blank(Exception):
    """A required field's value is blank."""


def blank_rule(field: kernel.Field, *, trim: bool) -> Callable[[Any], Any]:
    """What a field makes of a value before its type is checked: a string trimmed
    (unless ``trim`` is off, or a password), and when blank, :class:`Blank` for a
    required field, null for a field that accepts null, else left to the type's
    checks; an integral number (``48.0``) of an integer field, that integer."""
    strip = trim and not isinstance(field, kernel.Password)
    integral = kernel.json_type(field) == "integer"

    def coerce(value: Any) -> Any:
        if integral and isinstance(value, float) and value.is_integer():
            return int(value)  # 48.0 is an integer (JSON Schema 2020-12)
        if not isinstance(value, str):
            return value
        if strip:
            value = value.strip()
        if not value.strip():  # blank: empty, or spaces only (Laravel's ``required``)
            if field.required:
                raise Blank(field.name)
            if field.accepts_null:
                return None
        return value

    return coerce


def input_model(
    name: str,
    fields: tuple[kernel.Field, ...],
    *,
    create: bool,
    links: tuple[ManyToMany, ...] = (),
) -> type[BaseModel]:
    """A model of writable ``fields``; ``create`` makes required fields required.
    Each of the many-to-many ``links`` takes a list of the linked resource's keys."""
    definitions: dict[str, Any] = {}
    for position, link in enumerate(links):
        definitions[f"link_{position}"] = (
            list[value_type(link.item_field)],  # type: ignore[misc]
            Constraint(None, alias=link.name),
        )
    for position, field in enumerate(fields):
        annotation = value_type(field)
        if field.accepts_null:
            annotation = annotation | None
        required = create and field.needed_on_create
        default = ... if required else None
        # Positional attribute names, so no field can shadow a BaseModel attribute.
        definitions[f"field_{position}"] = (
            annotation,
            Constraint(default, alias=field.name),
        )
    return create_model(name, __config__=_CONFIG, **definitions)


Body = bytes | list[tuple[str, str]]
"""A request body: raw JSON, or the pairs of a urlencoded form."""


FORM = "application/x-www-form-urlencoded"


def has_body(content_length: str | None, transfer_encoding: str | None) -> bool:
    """Whether a request carries a body: chunked, or a ``Content-Length`` above 0.

    Both frameworks ask this before they read, so a body is read the same way
    whatever its framing, and a request without one is body-less whatever its
    ``Content-Type`` says (wsgiref sends ``text/plain`` with a body-less DELETE).
    """
    if transfer_encoding and "chunked" in transfer_encoding.lower():
        return True
    return (content_length or "").strip() not in {"", "0"}


# The charsets a body may name: UTF-8 (and ASCII, a part of it).
_UTF8 = frozenset({"utf-8", "utf8", "us-ascii", "ascii"})


def body_kind(content_type: str | None, *, has_body: bool) -> str:
    """``"none"``, ``"form"`` or ``"json"``; 415 for a body of another type, or in
    a charset other than UTF-8."""
    if not has_body:
        return "none"
    media_type, *parameters = (content_type or "").split(";")
    media_type = media_type.strip().lower()
    if media_type == FORM:
        kind = "form"
    elif media_type in {"", "application/json"} or media_type.endswith("+json"):
        kind = "json"
    else:
        raise UnsupportedMediaType(
            gettext(
                "Send the body as application/json or "
                "application/x-www-form-urlencoded."
            )
        )
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        charset = value.strip().strip('"').lower()
        if name.strip().lower() == "charset" and charset not in _UTF8:
            message = gettext("Send forms and JSON in UTF-8 (charset=utf-8).")
            raise UnsupportedMediaType(message)
    return kind


def form_pairs(raw: bytes) -> list[tuple[str, str]]:
    """The fields of an urlencoded body, without the form's own (``_token``…).

    Every byte must be UTF-8, escaped (``%FF``) or not: nothing is replaced.
    """
    try:
        pairs = parse_qsl(raw.decode(), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        message = gettext("The form is not valid UTF-8.")
        raise InvalidInput({"body": [message]}) from None
    # "_token", "_method", "_redirect": the form's own fields, never a record's.
    return [(name, value) for name, value in pairs if not name.startswith("_")]


def stored_forms(
    fields: tuple[kernel.Field, ...], hash_password: Callable[[str], str]
) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """What turns a valid value into its stored form: hashes, UTC date-times."""
    converters: list[tuple[str, Callable[[Any], Any]]] = []
    for field in fields:
        if isinstance(field, kernel.Password):
            converters.append((field.name, hash_password))
        elif isinstance(field, kernel.DateTime):
            converters.append((field.name, to_utc))
        elif isinstance(field, kernel.Decimal):
            exact = partial(decimals.exact, scale=field.scale)
            converters.append((field.name, exact))
        elif isinstance(field, kernel.File):
            converters.append((field.name, to_column))
    return tuple(converters)


def without_blank_secrets(resource: type[Resource], body: Body) -> Body:
    """A form's blank password fields mean "unchanged" (browsers never refill them)."""
    if isinstance(body, bytes):
        return body
    secrets = {f.name for f in resource.writable_fields if f.write_only}
    return [(name, value) for name, value in body if value or name not in secrets]


class Inputs:
    """The create and update models of one resource, and their error messages."""

    def __init__(
        self, resource: type[Resource], *, max_ids: int, trim_strings: bool = True
    ) -> None:
        name = resource.__name__
        writable = resource.creatable_fields
        links = resource.many_to_many
        self._create = input_model(f"{name}Create", writable, create=True, links=links)
        self._update = input_model(
            f"{name}Update", resource.writable_fields, create=False, links=links
        )
        self._links = frozenset(link.name for link in links)
        self._rules = {f.name: blank_rule(f, trim=trim_strings) for f in writable}
        # The key a client gives on create (a string key), else None.
        self.client_key = next((f.name for f in resource.fields if f.client_key), None)
        self.key_name = resource.key_name()
        self.key_parts = resource.key_parts  # a composite key's fields, else ()
        self._resource = resource
        self._max_ids = max_ids
        # A composite key is written as in its URL ("3,17"), in JSON as in a query.
        key_type = str if resource.key_parts else value_type(resource.key_field)
        self._ids_body = create_model(
            f"{name}MassDelete", ids=(list[key_type] | None, None)
        )
        self._labels = {f.name: f.label for f in resource.fields}
        self._labels.update((link.name, link.label) for link in links)
        self._date_times = tuple(
            f.name for f in writable if isinstance(f, kernel.DateTime)
        )
        self._decimals = frozenset(
            f.name for f in writable if isinstance(f, kernel.Decimal)
        )
        self._read_only = frozenset(f.name for f in resource.fields if not f.writable)
        self._filled_by_database = frozenset(
            f.name for f in writable if f.db_default is not None
        )
        # In a form, an empty non-text input of an optional field means "no value";
        # so does an empty e-mail address or URL, which can never be valid. (Blank
        # values of required fields are refused by the blank rule.)
        self._blank_is_null = frozenset(
            f.name
            for f in writable
            if not f.required
            and (not _is_text(f) or isinstance(f, kernel.Email | kernel.Url))
        )

    def for_create(self, body: Body) -> dict[str, Any]:
        """The values of a new record: declared, writable and valid."""
        return self._validate(self._create, body)

    def for_update(self, body: Body) -> dict[str, Any]:
        """The values to change: only the fields the body names."""
        return self._validate(self._update, body)

    def from_text(self, values: Mapping[str, Any], *, create: bool) -> dict[str, Any]:
        """A record's values from text cells (a CSV import row), checked as forms are."""
        model = self._create if create else self._update
        values, errors = self._not_blank(dict(values))
        try:
            parsed = model.model_validate(values)
        except ValidationError as exc:
            errors = {**self.messages(exc.errors()), **errors}
        errors.update(self._unix_times(values))
        if errors:
            raise InvalidInput(errors)
        return parsed.model_dump(by_alias=True, exclude_unset=True)

    def ids(self, body: Body, query: list[tuple[str, str]]) -> list[Any]:
        """The keys to delete: ``{"ids": [...]}``, else ``ids[]`` (form or query)."""
        keys = (
            self._json_ids(body) if isinstance(body, bytes) and body.strip() else None
        )
        if keys is None:
            pairs = body if isinstance(body, list) and body else query
            keys = self._text_ids([value for name, value in pairs if name in _IDS])
        elif self._resource.key_parts:
            keys = self._text_ids(keys)
        if not keys:
            raise InvalidInput({"ids": [gettext("The ids field is required.")]})
        if len(keys) > self._max_ids:
            message = gettext(
                "The ids field must not have more than %(count)s items."
            ) % {"count": self._max_ids}
            raise InvalidInput({"ids": [message]})
        return list(dict.fromkeys(keys))

    def _json_ids(self, body: bytes) -> list[Any] | None:
        try:
            return self._ids_body.model_validate_json(body, strict=True).ids
        except ValidationError as exc:
            error = exc.errors()[0]
        if not error["loc"]:
            raise InvalidInput(
                {"body": [gettext(_BODY_MESSAGES.get(error["type"], _NOT_OBJECT))]}
            )
        raise InvalidInput({"ids": [gettext(_NOT_KEYS)]})

    def _text_ids(self, texts: list[str]) -> list[Any]:
        keys = [parse_key(self._resource, text) for text in texts]
        if any(key is None for key in keys):
            raise InvalidInput({"ids": [gettext(_NOT_KEYS)]})
        return keys

    def _validate(self, model: type[BaseModel], body: Body) -> dict[str, Any]:
        if isinstance(body, bytes):
            if self._decimals:
                body = decimals.exact_numbers(body, self._decimals)
            body, errors = self._json_not_blank(body)
            values = None
        else:
            create = model is self._create
            values, errors = self._not_blank(self._form_values(body, create=create))
        try:
            if values is None:
                # No body at all names no field, as an empty form does.
                parsed = model.model_validate_json(body or b"{}", strict=True)
            else:
                parsed = model.model_validate(values)
        except ValidationError as exc:
            errors = {**self.messages(exc.errors()), **errors}
        errors.update(self._unix_times(body if values is None else values))
        if errors:
            raise InvalidInput(errors)
        return parsed.model_dump(by_alias=True, exclude_unset=True)

    def _not_blank(
        self, values: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, list[str]]]:
        """``values`` trimmed, blanks null; required fields left blank are taken out
        and answered "required" (:func:`blank_rule`)."""
        kept: dict[str, Any] = {}
        errors: dict[str, list[str]] = {}
        for name, value in values.items():
            rule = self._rules.get(name)
            try:
                kept[name] = value if rule is None else rule(value)
            except Blank:
                label = self._labels[name]
                errors[name] = [gettext(_MESSAGES["missing"]).format(label=label)]
        return kept, errors

    def _json_not_blank(self, body: bytes) -> tuple[bytes, dict[str, list[str]]]:
        """A JSON body with the blank rule applied; unchanged when it changes nothing
        (or is no JSON object: Pydantic says what is wrong with it)."""
        try:
            values = orjson.loads(body) if body.strip() else None
        except orjson.JSONDecodeError:
            return body, {}
        if not isinstance(values, dict):
            return body, {}
        kept, errors = self._not_blank(values)
        same = all(
            type(kept.get(k)) is type(v) and kept[k] == v for k, v in values.items()
        )
        if same and not errors:
            return body, {}
        try:
            return orjson.dumps(kept), errors
        except TypeError:  # an integer beyond 64 bits: Pydantic refuses it
            return json.dumps(kept).encode(), errors

    def _unix_times(self, body: bytes | Mapping[str, Any]) -> dict[str, list[str]]:
        """Date-times written as Unix times ("1704103200"), which Pydantic accepts
        even in strict mode: only ISO 8601 is a date-time here."""
        if not self._date_times:
            return {}
        values: Any = body
        if isinstance(body, bytes):
            try:
                values = orjson.loads(body or b"{}")
            except orjson.JSONDecodeError:
                return {}  # Pydantic said so already
        if not isinstance(values, dict):
            return {}
        return {
            name: [_MESSAGES["datetime"].format(label=self._labels[name])]
            for name in self._date_times
            if isinstance(values.get(name), str) and not _ISO_DATE.match(values[name])
        }

    def _form_values(
        self, pairs: list[tuple[str, str]], *, create: bool
    ) -> dict[str, Any]:
        values: dict[str, Any] = dict(pairs)
        for name in self._links.intersection(values):
            values[name] = link_keys(value for key, value in pairs if key == name)
        for name, value in list(values.items()):
            if value == "" and create and name in self._filled_by_database:
                del values[name]  # left out: the database fills it in
            elif value == "" and name in self._blank_is_null:
                values[name] = None
        return values

    def messages(self, errors: list[ErrorDetails]) -> dict[str, list[str]]:
        """Pydantic's errors as ``{"field": ["The Title field is required."]}``."""
        found: dict[str, list[str]] = {}
        for error in errors:
            key = str(error["loc"][0]) if error["loc"] else "body"
            messages = found.setdefault(key, [])
            message = self._message(key, error)
            if message not in messages:
                messages.append(message)
        return found

    def _message(self, key: str, error: ErrorDetails) -> str:
        kind = error["type"]
        label = self._labels.get(key, key)
        if key == "body":
            return gettext(_BODY_MESSAGES.get(kind, _NOT_OBJECT))
        if kind == "extra_forbidden":
            if key in self._read_only:
                return gettext("The {label} field is read-only.").format(label=label)
            return gettext("The {key} field is not allowed.").format(key=key)
        if error["input"] is None and kind.endswith("_type"):
            return gettext("The {label} field must not be null.").format(label=label)
        template = _MESSAGES.get(kind) or _MESSAGES.get(kind.split("_")[0])
        if template is None:
            invalid = gettext("The {label} field is invalid: {problem}.")
            return invalid.format(label=label, problem=error["msg"])
        return gettext(template).format(label=label, **error.get("ctx", {}))


def link_keys(texts: Any) -> list[str]:
    """A form's keys of a many-to-many field: from a multiple select (one value
    each) or a text input (several, separated by commas or spaces); blanks ignored."""
    return [key for text in texts for key in _LINK_SEPARATORS.split(text) if key]


_LINK_SEPARATORS = re.compile(r"[\s,]+")
_IDS = frozenset({"ids[]", "ids"})
_NOT_KEYS = gettext_noop("The ids field must be a list of record keys.")
_NOT_OBJECT = gettext_noop("The request body must be a JSON object.")
_BODY_MESSAGES = {"json_invalid": gettext_noop("The request body is not valid JSON.")}
# By Pydantic error type, or by its first word ("int_parsing" -> "int").
_MESSAGES = {
    "missing": gettext_noop("The {label} field is required."),
    "string": gettext_noop("The {label} field must be a string."),
    "string_too_short": gettext_noop(
        "The {label} field must be at least {min_length} characters."
    ),
    "string_too_long": gettext_noop(
        "The {label} field must not be greater than {max_length} characters."
    ),
    "string_pattern_mismatch": gettext_noop("The {label} field format is invalid."),
    "int": gettext_noop("The {label} field must be an integer."),
    "float": gettext_noop("The {label} field must be a number."),
    "finite_number": gettext_noop("The {label} field must be a finite number."),
    "decimal": gettext_noop("The {label} field must be a decimal number."),
    "decimal_max_places": gettext_noop(
        "The {label} field must have at most {decimal_places} decimal places."
    ),
    "decimal_whole_digits": gettext_noop(
        "The {label} field must have at most {whole_digits} digits before the "
        "decimal point."
    ),
    "greater_than_equal": gettext_noop("The {label} field must be at least {ge}."),
    "less_than_equal": gettext_noop("The {label} field must not be greater than {le}."),
    "bool": gettext_noop("The {label} field must be true or false."),
    "date": gettext_noop("The {label} field must be a valid date (YYYY-MM-DD)."),
    "datetime": gettext_noop("The {label} field must be a valid date-time (ISO 8601)."),
    "datetime_range": gettext_noop(
        "The {label} field must be a date-time between 0001-01-01 and 9999-12-31 "
        "in UTC."
    ),
    "uuid": gettext_noop("The {label} field must be a valid UUID."),
    "list": gettext_noop("The {label} field must be a list of keys."),
    "email": gettext_noop("The {label} field must be a valid email address."),
    "url": gettext_noop("The {label} field must be a valid URL."),
    "enum": gettext_noop("The selected {label} is invalid."),
    "nul_character": gettext_noop("The {label} field must not contain NUL characters."),
    "key_segment": gettext_noop(
        'The {label} field must not contain "/" nor be "." or "..".'
    ),
    "file_upload": gettext_noop(
        "The {label} field must be uploaded as a file (multipart/form-data), "
        "or null to clear it."
    ),
}


def _is_text(field: kernel.Field) -> bool:
    if isinstance(field, kernel.Select):
        return kernel.json_type(field) == "string"
    return isinstance(field, _TEXT_FIELDS)
