"""Checked manifest values → the intermediate model, with every default filled in.

Runs only on a manifest that passed the schema and the semantic checks, so it trusts
the shapes and names it is given.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model import ir, naming
from .adoption import adopted_fields
from .decimals import digits, is_decimal
from .enumlabels import enum_labels
from .manytomanychecks import link_table

_FILES = ir.FILE_FORMATS

IMPLICIT_KEY = ir.Field(
    name="id", type="integer", label="ID", read_only=True, is_key=True
)


def build_project(manifest: dict[str, Any], manifest_name: str) -> ir.Project:
    """The Project a checked manifest means (``manifest_name``: a bare file name)."""
    project = manifest["project"]
    resources = manifest["resources"]
    return ir.Project(
        name=project["name"],
        title=project.get("title", naming.humanize(project["name"])),
        framework=project.get("framework", "fastapi"),
        resources=tuple(
            build_resource(name, spec, resources) for name, spec in resources.items()
        ),
        auth=ir.Auth(**manifest.get("auth", {})),
        docs=ir.Docs(**manifest.get("docs", {})),
        roles=tuple(
            build_role(name, grants) for name, grants in _items(manifest, "roles")
        ),
        manifest_name=manifest_name,
        database=project.get("database", f"{project['name']}.db"),
        jwt_issuer=project.get("jwt_issuer", project["name"]),
        explicit=frozenset(k for k in ("database", "jwt_issuer") if k in project),
    )


def build_resource(
    name: str, spec: dict[str, Any], resources: dict[str, Any] | None = None
) -> ir.Resource:
    """One resource: the key field first, then the fields in declared order
    (``resources``: every resource's spec, for the keys many-to-many fields link)."""
    declared_key = spec.get("key", IMPLICIT_KEY.name)
    parts = tuple(declared_key) if isinstance(declared_key, list) else ()
    key = "" if parts else declared_key
    required = set(spec.get("required", ())) | set(parts)
    declared = [
        build_field(field, options, required=field in required, is_key=field == key)
        for field, options in spec["fields"].items()
        if options["type"] != "array"
    ]
    if parts:
        by_name = {f.name: replace(f, key_part=True) for f in declared}
        key_fields = [by_name[part] for part in parts]
    else:
        key_fields = [f for f in declared if f.is_key] or [IMPLICIT_KEY]
    chosen = {f.name for f in key_fields}
    fields, table_indexes = adopted_fields(
        spec, key_fields + [f for f in declared if f.name not in chosen]
    )
    return ir.Resource(
        name=name,
        uri=spec.get("uri", naming.resource_uri(name)),
        title=spec.get("title", naming.humanize(naming.plural(naming.snake(name)))),
        module=naming.module_name(name),
        table=spec.get("table", naming.table_name(name)),
        class_name=name + "Resource",
        model_name=name,
        key=key,
        fields=tuple(fields),
        search=tuple(spec.get("search", ())),
        query_tags=tuple(
            build_query_tag(uri, tag) for uri, tag in _items(spec, "query_tags")
        ),
        methods=tuple(spec.get("methods", ())),
        per_page=spec.get("per_page", 25),
        # A composite key lists in its parts' order (the query adds the others).
        default_sort=spec.get("default_sort", "-" + key if key else parts[0]),
        renamed_from=spec.get("renamed_from"),
        index_fields=tuple(spec.get("list", ())),
        readonly_fields=tuple(spec.get("readonly", ())),
        display=spec.get("display", ""),
        soft_delete=spec.get("soft_delete", False),
        unique_together=tuple(tuple(group) for group in spec.get("unique", ())),
        has_many=tuple(
            build_has_many(field, options)
            for field, options in spec["fields"].items()
            if options["type"] == "array" and "inverse" in options
        ),
        many_to_many=tuple(
            build_many_to_many(name, spec, field, options, resources or {})
            for field, options in spec["fields"].items()
            if options["type"] == "array" and "inverse" not in options
        ),
        actions=tuple(
            build_action(action, options) for action, options in _items(spec, "actions")
        ),
        bulk_update=tuple(spec.get("bulk_update", ())),
        key_parts=parts,
        adopted=bool(spec.get("adopted")),
        table_indexes=table_indexes,
        metrics=tuple(
            build_metric(metric, options) for metric, options in _items(spec, "metrics")
        ),
    )


def build_metric(name: str, spec: dict[str, Any]) -> ir.Metric:
    """A dashboard metric; its label defaults to the humanized name."""
    return ir.Metric(
        name=name,
        label=spec.get("label", naming.humanize(name)),
        aggregate=spec["aggregate"],
        field=spec.get("field"),
        filter=tuple(spec.get("filter", {}).items()),
    )


def build_has_many(name: str, spec: dict[str, Any]) -> ir.HasMany:
    """A has-many field: the children of ``items.relation`` whose ``inverse`` is
    the record."""
    return ir.HasMany(
        name=name,
        label=spec.get("label", naming.humanize(name)),
        target=spec["items"]["relation"],
        inverse=spec["inverse"],
        description=spec.get("description"),
    )


def build_many_to_many(
    owner: str,
    spec: dict[str, Any],
    name: str,
    options: dict[str, Any],
    resources: dict[str, Any],
) -> ir.ManyToMany:
    """A many-to-many field: its link table and the table's two columns."""
    target = options["items"]["relation"]
    target_spec = resources.get(target, {})
    owner_column = link_column(owner, spec.get("key", IMPLICIT_KEY.name))
    target_column = link_column(target, target_spec.get("key", IMPLICIT_KEY.name))
    if target_column == owner_column:  # a resource linked to its own records
        target_column = f"related_{target_column}"
    return ir.ManyToMany(
        name=name,
        label=options.get("label", naming.humanize(name)),
        target=target,
        through=link_table(owner, spec, name, options),
        owner_column=owner_column,
        target_column=target_column,
        description=options.get("description"),
    )


def link_column(resource: str, key: str) -> str:
    """A link table's column for ``resource``'s key: ``playlist_id`` for ``id``,
    the key itself when it already starts with the resource (``track_id``)."""
    prefix = naming.snake(resource)
    return key if key.startswith(prefix + "_") else f"{prefix}_{key}"


def build_action(name: str, spec: dict[str, Any]) -> ir.Action:
    """An action; its label defaults to the humanized name."""
    required = set(spec.get("required", ()))
    return ir.Action(
        name=name,
        label=spec.get("label", naming.humanize(name)),
        bulk=spec.get("bulk", True),
        confirm=spec.get("confirm", ""),
        fields=tuple(
            build_field(field, options, required=field in required, is_key=False)
            for field, options in spec.get("fields", {}).items()
        ),
    )


def build_role(name: str, grants: dict[str, list[str]]) -> ir.Role:
    """A declared role: its grants as written (``"*"`` or a resource, abilities)."""
    return ir.Role(
        name=name,
        grants=tuple((where, tuple(abilities)) for where, abilities in grants.items()),
    )


def _items(spec: dict[str, Any], key: str) -> list[tuple[str, Any]]:
    return list(spec.get(key, {}).items())


def build_field(
    name: str, spec: dict[str, Any], *, required: bool, is_key: bool
) -> ir.Field:
    """One field; a key the database fills in (integer or uuid) is read-only."""
    fmt = spec.get("format")
    generated = is_key and (spec["type"] == "integer" or fmt == "uuid")
    enum = spec.get("enum")
    precision, scale = digits(spec) if is_decimal(spec) else (None, None)
    return ir.Field(
        name=name,
        type=spec["type"],
        label=spec.get("label", "ID" if name == "id" else naming.humanize(name)),
        format=fmt,
        enum=tuple(enum) if enum is not None else None,
        enum_labels=enum_labels(enum, spec.get("enum_labels")),
        min_length=spec.get("minLength"),
        max_length=spec.get("maxLength"),
        minimum=spec.get("minimum"),
        maximum=spec.get("maximum"),
        precision=precision,
        scale=scale,
        pattern=spec.get("pattern"),
        default=spec.get("default", ir.MISSING),
        nullable=spec.get("nullable", False),
        read_only=spec.get("readOnly", False) or generated,
        required=(required or is_key) and not generated,
        description=spec.get("description"),
        relation=spec.get("relation"),
        on_delete=spec.get("on_delete", "restrict" if spec.get("relation") else None),
        sortable=spec.get("sortable", fmt not in ("text", "password", *_FILES)),
        filterable=spec.get("filterable", fmt not in ("password", *_FILES)),
        renamed_from=spec.get("renamed_from"),
        renamed_values=tuple(spec.get("renamed_values", {}).items()),
        unique=spec.get("unique", False),
        is_key=is_key,
        default_sql=spec.get("default_sql"),
        # a column named like the field is the default one: nothing to record
        column=spec.get("column") if spec.get("column") != name else None,
        accept=tuple(spec["accept"]) if "accept" in spec else None,
        max_bytes=spec.get("maxBytes"),
    )


def build_query_tag(uri: str, tag: dict[str, Any]) -> ir.QueryTag:
    """A query tag; its label defaults to the humanized URI."""
    label = tag.get("label", naming.humanize(uri))
    return ir.QueryTag(uri=uri, label=label, filter=tuple(tag["filter"].items()))
