"""Hypothesis strategies of manifests meant to be valid (issue 18's invariant).

Every field type and format, keys of every kind, relations to self, in chains and in
cycles (optional links on cycles; required ones only to resources declared before),
names drawn from Python keywords, builtins, SQL reserved words and the runtime's own
names, titles and labels with emoji, quotes and markup, patterns from a safe corpus
and, now and then, one the panel cannot run. Names the generator's own rules refuse
are left out where that is cheap; what still fails ``validate`` must fail it cleanly.

Sample values (``generator.model.samples``) must exist for every field, so lengths
go only where a sample fits them and patterns only where a sample matches them.
"""

from __future__ import annotations

from typing import Any

import yaml
from hypothesis import strategies as st

from generator.manifest import identifiers

# Resource names: Python keywords as PascalCase (their modules get a trailing "_"),
# builtins, SQL reserved words, the runtime's own words, plain ones.
RESOURCE_NAMES = [
    name
    for name in (
        "Class Import Return Global Lambda Yield Async Await Pass Raise With While Try"
        " Del Assert Nonlocal Break Continue Elif Else Except Finally For From If In"
        " Is Not And Or As Def List Dict Str Int Type Object Property Super Print Open"
        " Id Hash Format Range Set Match Case Order Group User Table Index Check Limit"
        " Offset Where Column Constraint Primary References Grant Transaction Panel"
        " Site Registry Store Config Migration App Admin Page Login Role Token Hook"
        " Form Menu Static Docs Query Record Book Author Tag Note Person"
    ).split()
    if identifiers.resource_problem(name) is None
]
# Field names: builtins, SQL reserved words, the runtime's words, plain ones.
FIELD_NAMES = [
    name
    for name in (
        "str int float list set object format hash range print input open max min sum"
        " len vars next iter filter map zip all any property super bytes order group"
        " select from_ where table user limit offset desc asc index key check default"
        " primary references column constraint unique null true false date time"
        " timestamp interval value values current_date current_user session_user"
        " name label title uri model fields search page request response session"
        " settings app panel store record query resource hooks scope can roles meta"
        " pk_value key_field field_map writable_fields form errors csrf_token password"
        " email owner body amount count price active due_on code"
    ).split()
    if identifiers.field_problem(name) is None and name != "id"
]
# Project names, some of them folders or modules of the emitted projects.
PROJECT_NAMES = ["shop_admin", "desk", "x1_panel", "oag", "manage", "resources", "core"]
# Table names SQL reserves: quoted by both frameworks.
TABLES = ["order", "user", "group", "select", "table", "check", "limit", "offset"]
_TEXT_PIECES = [
    "Café",
    "😀",
    '"quoted"',
    "'single'",
    "<b>bold</b>",
    "&amp;",
    "back\\slash",
    "tab\there",
    "ünïcødé",
    "日本語",
    "👩‍💻",
    "{{ not_jinja }}",
    "{% raw %}",
    "%s %d",
    "$HOME",
    "`tick`",
    "# hash",
    "line\u2028sep",
    "Books",
]
# Patterns the panel compiles, each matched by a sample value (``_pattern_sample``).
SAFE_PATTERNS = [
    "^[0-9]+$",
    "^[0-9]{13}$",
    "^sample",
    "\\d",
    "(?i)SAMPLE",
    "^[a-z]+[0-9]+$",
    "^\\w+$",
    "[A-Z][0-9]",
    "^.{1,40}$",
]
# Valid Python patterns the panel's engine cannot compile: validate refuses them.
UNSAFE_PATTERNS = ["^(?!x)[0-9]+$", "(a)\\1", "(?<=s)ample"]
_FORMATS = [None, None, "text", "date", "date-time", "email", "uri", "uuid", "password"]
_STRING_ENUMS = ["a", "é", "😀", "x y", "<b>", "'q'", "0755", "no"]

Manifest = dict[str, Any]


def text() -> st.SearchStrategy[str]:
    """Titles, labels and descriptions with emoji, quotes, markup and tabs."""
    return st.lists(st.sampled_from(_TEXT_PIECES), min_size=1, max_size=3).map(" ".join)


@st.composite
def _key(draw: st.DrawFn, names: list[str]) -> tuple[str, dict[str, Any]] | None:
    """The declared key field (name, spec), or None for the implicit ``id``."""
    kind = draw(st.sampled_from(["implicit"] * 3 + ["integer", "string", "uuid"]))
    if kind == "implicit":
        return None
    name = draw(st.sampled_from(names))
    if kind == "integer":
        return name, {"type": "integer"}
    if kind == "uuid":
        return name, {"type": "string", "format": "uuid"}
    low = draw(st.integers(1, 3))
    return name, {"type": "string", "minLength": low, "maxLength": low + 8}


@st.composite
def _string_field(draw: st.DrawFn) -> dict[str, Any]:
    fmt = draw(st.sampled_from(_FORMATS))
    spec: dict[str, Any] = {"type": "string"}
    if fmt is not None:
        spec["format"] = fmt
    choice = draw(st.sampled_from(["plain", "plain", "enum", "pattern", "lengths"]))
    if fmt in (None, "text") and choice == "enum":
        spec["enum"] = draw(
            st.lists(
                st.sampled_from(_STRING_ENUMS), min_size=1, max_size=4, unique=True
            )
        )
    elif fmt in (None, "text") and choice == "pattern":
        unsafe = draw(st.integers(0, 9)) == 0
        spec["pattern"] = draw(
            st.sampled_from(UNSAFE_PATTERNS if unsafe else SAFE_PATTERNS)
        )
    elif fmt in (None, "text", "password") and choice == "lengths":
        low = draw(st.integers(0, 4))
        spec["minLength"] = low
        spec["maxLength"] = draw(st.sampled_from([max(low, 1), 12, 255, 10485760]))
    if fmt in (None, "text") and "pattern" not in spec and draw(st.booleans()):
        spec["default"] = _string_default(spec)
    elif fmt == "date" and draw(st.booleans()):
        spec["default"] = "2024-01-31"
    elif fmt == "date-time" and draw(st.booleans()):
        spec["default"] = "2024-01-31T12:00:00Z"
    return spec


def _string_default(spec: dict[str, Any]) -> str:
    if "enum" in spec:
        return str(spec["enum"][-1])
    value = "dflt 😀"
    value = value.ljust(spec.get("minLength", 0), "x")
    return value[: spec.get("maxLength", len(value))]


@st.composite
def _number_field(draw: st.DrawFn, kind: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"type": kind}
    bounds = draw(
        st.sampled_from(
            [(None, None), (0, None), (None, 10), (1, 100), (-(2**63), 2**63 - 1)]
        )
    )
    low, high = bounds
    if kind == "integer" and draw(st.integers(0, 4)) == 0:
        spec["enum"] = draw(
            st.lists(
                st.sampled_from([1, 2, 7, 2**40, -(2**63), 2**63 - 1]),
                min_size=1,
                max_size=3,
                unique=True,
            )
        )
    else:
        if low is not None:
            spec["minimum"] = low
        if high is not None:
            spec["maximum"] = high
    if draw(st.booleans()):
        if "enum" in spec:
            spec["default"] = spec["enum"][0]
        else:
            value = 7 if kind == "integer" else 2.5
            value = max(value, low) if low is not None else value
            spec["default"] = min(value, high) if high is not None else value
    return spec


@st.composite
def _field(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["string", "string", "integer", "number", "boolean"]))
    if kind == "string":
        spec = draw(_string_field())
    elif kind == "boolean":
        spec = {"type": "boolean"}
        if draw(st.booleans()):
            spec["default"] = draw(st.booleans())
    else:
        spec = draw(_number_field(kind))
    options = draw(
        st.sets(
            st.sampled_from(["nullable", "label", "description", "unique", "nosort"])
        )
    )
    if "nullable" in options:
        spec["nullable"] = True
    if "label" in options:
        spec["label"] = draw(text())
    if "description" in options:
        spec["description"] = draw(text())
    password = spec.get("format") == "password"
    if "unique" in options and kind != "boolean" and not password:
        spec["unique"] = True
    if "nosort" in options and not password:
        spec["sortable"] = False
        spec["filterable"] = False
    if "default" in spec and draw(st.integers(0, 3)) == 0:
        spec["readOnly"] = True
    return spec


@st.composite
def _resource(
    draw: st.DrawFn, index: int, names: list[str], keys: dict[str, str]
) -> dict[str, Any]:
    """Resource ``names[index]``; ``keys`` maps every resource to its key's type."""
    field_names = draw(
        st.lists(st.sampled_from(FIELD_NAMES), min_size=2, max_size=6, unique=True)
    )
    key = draw(_key(field_names))
    fields: dict[str, Any] = {}
    if key is not None:
        fields[key[0]] = key[1]
    plain = [n for n in field_names if n not in fields]
    relation_names = plain[: draw(st.integers(0, min(2, len(plain) - 1)))]
    required: list[str] = []
    for name in plain:
        if name in relation_names:
            target = draw(st.integers(0, len(names) - 1))
            fields[name] = {"type": keys[names[target]], "relation": names[target]}
            if target < index and draw(st.booleans()):
                required.append(name)  # chains: to resources declared before
            elif draw(st.booleans()):
                fields[name]["nullable"] = True
            continue
        fields[name] = draw(_field())
        settable = not fields[name].get("readOnly")
        if settable and draw(st.integers(0, 2)) == 0:
            required.append(name)
    spec: dict[str, Any] = {"fields": fields}
    if key is not None:
        spec["key"] = key[0]
    if required:
        spec["required"] = required
    _options(draw, spec, index)
    return spec


def _options(draw: st.DrawFn, spec: dict[str, Any], index: int) -> None:
    """Title, table, search, list, readonly, query tags, per page, methods."""
    fields = spec["fields"]
    if draw(st.booleans()):
        spec["title"] = draw(text())
    if draw(st.integers(0, 2)) == 0:
        spec["table"] = TABLES[index]
    searchable = [
        n
        for n, f in fields.items()
        if f["type"] == "string"
        and "relation" not in f
        and f.get("format") in (None, "text", "email", "uri")
    ]
    if searchable and draw(st.booleans()):
        spec["search"] = searchable[:2]
    shown = [n for n, f in fields.items() if f.get("format") != "password"]
    if shown and draw(st.integers(0, 2)) == 0:
        spec["list"] = shown[:2]
    optional = [
        n
        for n, f in fields.items()
        if n != spec.get("key") and n not in spec.get("required", ())
    ]
    if optional and draw(st.integers(0, 3)) == 0:
        spec["readonly"] = optional[:1]
    flags = [
        n
        for n, f in fields.items()
        if f["type"] == "boolean" and f.get("filterable", True)
    ]
    if flags and draw(st.booleans()):
        spec["query_tags"] = {"on": {"label": draw(text()), "filter": {flags[0]: True}}}
    spec["per_page"] = draw(st.sampled_from([1, 25, 100]))
    if draw(st.integers(0, 3)) == 0:
        spec["methods"] = ["publish"]


@st.composite
def manifests(draw: st.DrawFn) -> Manifest:
    """A manifest that should validate (most do), as a dict."""
    names = draw(
        st.lists(
            st.sampled_from(RESOURCE_NAMES),
            min_size=1,
            max_size=3,
            unique_by=str.lower,
        )
    )
    kinds = {
        name: draw(st.sampled_from(["integer"] * 3 + ["string"])) for name in names
    }
    resources: dict[str, Any] = {}
    for index, name in enumerate(names):
        spec = draw(_resource(index, names, kinds))
        resources[name] = spec
        kinds[name] = _key_type(spec)
    _fix_relation_types(resources)
    manifest: Manifest = {
        "project": {"name": draw(st.sampled_from(PROJECT_NAMES))},
        "resources": resources,
    }
    if draw(st.booleans()):
        manifest["project"]["title"] = draw(text())
    if draw(st.booleans()):
        manifest["auth"] = {"jwt": True}
    if draw(st.integers(0, 3)) == 0:
        manifest["docs"] = {
            "title": draw(text()),
            "route": draw(st.sampled_from(["api/spec.json", "openapi.json", "v1/oag"])),
            "view": draw(st.sampled_from(["oag::docs", "templates/docs.html"])),
        }
    if draw(st.integers(0, 3)) == 0:
        manifest["roles"] = {"viewer": {"*": ["view_any", "view"]}}
    return manifest


def _key_type(spec: dict[str, Any]) -> str:
    key = spec.get("key")
    return "integer" if key is None else spec["fields"][key]["type"]


def _fix_relation_types(resources: dict[str, Any]) -> None:
    """Each relation's type is its target's key type (known once all are drawn)."""
    for spec in resources.values():
        for field in spec["fields"].values():
            if "relation" in field:
                field["type"] = _key_type(resources[field["relation"]])


def dump(manifest: Manifest) -> str:
    """The manifest as YAML, emoji and all."""
    return yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True, width=1000)
