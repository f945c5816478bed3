"""IR → OpenAPI document, by running the emitted project's own spec builder.

The builder lives in the panel kernel (``templates/project/_shared/panel_core/``), so
the project's ``oag:generate`` and panelforge at generation time share one
implementation.
This module loads that package by path under a private name, turns each IR resource
into a kernel resource declaration, and calls ``build_openapi``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from ..errors import SpecError
from ..model import ir
from ..model.kernel_fields import kernel_field, kernel_fields, link_key_type
from ..paths import kernel_dir
from .kernel_bytecode import kernel_finder

KERNEL_PACKAGE = "_panelforge_kernel"
_MODULES = ("fields", "labels", "resource", "record_actions", "openapi", "oag")


@contextmanager
def _no_bytecode() -> Iterator[None]:
    # The kernel sits in the template tree: no __pycache__ may appear there.
    previous = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        yield
    finally:
        sys.dont_write_bytecode = previous


@cache
def load_kernel() -> SimpleNamespace:
    """The kernel's ``fields``, ``labels``, ``resource``, ``openapi`` and ``oag``
    modules, once."""
    directory = kernel_dir()
    finder = kernel_finder(KERNEL_PACKAGE, directory)
    if finder is not None:
        sys.meta_path.insert(0, finder)
    with _no_bytecode():
        try:
            if finder is None:
                _exec_package(directory)
            modules = {
                name: importlib.import_module(f"{KERNEL_PACKAGE}.{name}")
                for name in _MODULES
            }
        except BaseException:
            _forget_kernel()
            if finder is not None:
                sys.meta_path.remove(finder)
            raise
    return SimpleNamespace(**modules)


def _exec_package(directory: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        KERNEL_PACKAGE,
        directory / "__init__.py",
        submodule_search_locations=[str(directory)],
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[KERNEL_PACKAGE] = package
    spec.loader.exec_module(package)


def _forget_kernel() -> None:
    for name in [n for n in sys.modules if n.partition(".")[0] == KERNEL_PACKAGE]:
        del sys.modules[name]


def _field(fields: ModuleType, kernel_field: Any) -> Any:
    return getattr(fields, kernel_field.class_name)(
        kernel_field.name, **dict(kernel_field.kwargs)
    )


def _action(kernel: Any, action: ir.Action, project: ir.Project) -> Any:
    fields = tuple(
        _field(kernel.fields, kernel_field(f, project)) for f in action.fields
    )
    return kernel.record_actions.Action(
        action.name,
        label=action.label,
        bulk=action.bulk,
        confirm=action.confirm,
        fields=fields,
    )


def _declared(resource: ir.Resource) -> dict[str, Any]:
    """The optional plain attributes the declaration sets, when declared."""
    names = ("key_parts", "index_fields", "readonly_fields", "display")
    found = {name: getattr(resource, name) for name in names if getattr(resource, name)}
    if resource.soft_delete:
        found["soft_delete"] = True
    if resource.unique_together:
        found["unique_together"] = resource.unique_together
    return found


def resource_class(resource: ir.Resource, project: ir.Project) -> type[Any]:
    """The kernel ``Resource`` subclass the emitted ``app/resources/*.py`` declares."""
    kernel = load_kernel()
    tags = tuple(
        kernel.resource.QueryTag(t.uri, t.label, dict(t.filter))
        for t in resource.query_tags
    )
    body_module = f"{KERNEL_PACKAGE}.generated"
    # What the generated declaration says, attribute for attribute, so the kernel
    # derives the rest (``readonly_fields``: fields no request sets) as it does in
    # the project.
    body: dict[str, Any] = {
        "__module__": body_module,
        "uri": resource.uri,
        "name": resource.name,
        "title": resource.title,
        # Only its name is read: it names the record schemas, as the ORM class does.
        "model": type(resource.model_name, (), {"__module__": body_module}),
        "fields": tuple(
            _field(kernel.fields, f) for f in kernel_fields(resource, project)
        ),
        "search": resource.search,
        "query_tags": tags,
        "methods": resource.methods,
        "per_page": resource.per_page,
        "default_sort": resource.default_sort,
    }
    body.update(_declared(resource))
    if resource.has_many:
        body["has_many"] = tuple(
            kernel.resource.HasMany(
                many.name,
                resource=project.resource(many.target).uri,
                inverse=many.inverse,
                label=many.label,
                description=many.description,
            )
            for many in resource.has_many
        )
    if resource.many_to_many:
        body["many_to_many"] = tuple(
            kernel.resource.ManyToMany(
                link.name,
                resource=project.resource(link.target).uri,
                through=link.through,
                owner_column=link.owner_column,
                target_column=link.target_column,
                key_type=link_key_type(project.resource(link.target)),
                label=link.label,
                description=link.description,
            )
            for link in resource.many_to_many
        )
    if resource.actions:
        body["actions"] = tuple(
            _action(kernel, action, project) for action in resource.actions
        )
    if resource.bulk_update:
        body["bulk_update"] = resource.bulk_update
    return type(resource.class_name, (kernel.resource.Resource,), body)


def build_spec(project: ir.Project) -> dict[str, Any]:
    """The OpenAPI document of ``project``'s JSON API."""
    kernel = load_kernel()
    try:
        resources = [resource_class(r, project) for r in project.resources]
        # The same call as the project's ``python -m app oag:generate``, under the
        # settings' defaults, so both write the same bytes.
        options = kernel.oag.SpecOptions(
            title=project.title,
            openapi_version=project.docs.openapi_version,
            jwt=project.auth.jwt,
        )
        return kernel.oag.build_document(  # type: ignore[no-any-return]
            resources, options
        )
    except kernel.resource.DeclarationError as exc:
        raise SpecError(f"{project.manifest_name}: {exc}") from exc


def dump_spec(
    doc: dict[str, Any], cache_dir: Path | None = None, name: str = ""
) -> tuple[bytes, bytes]:
    """The document as (YAML, JSON) in UTF-8, as ``oag:generate`` writes them.

    With ``cache_dir``, the texts of the parts that did not change since the last spec
    written under ``name`` are reused (:mod:`generator.spec.text`): same bytes.
    """
    from .text import SpecTextCache, dump_texts, exact_json_writer, writers_fingerprint

    kernel = load_kernel()
    dump_json = exact_json_writer(kernel.openapi.dump_json)
    if cache_dir is None:
        return kernel.openapi.dump_yaml(doc).encode(), dump_json(doc).encode()
    cache = SpecTextCache(cache_dir, name, writers_fingerprint(kernel_dir()))
    return dump_texts(doc, kernel.openapi.dump_yaml, dump_json, cache)


def render_spec(project: ir.Project) -> tuple[str, str]:
    """``project``'s spec as (YAML text, JSON text)."""
    yaml_data, json_data = dump_spec(build_spec(project))
    return yaml_data.decode("utf-8"), json_data.decode("utf-8")
