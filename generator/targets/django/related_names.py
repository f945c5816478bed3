"""Readable ``related_name`` of each foreign key: ``author.books`` for ``Book.author``.

Django keeps ``related_name`` in the migration state only (no SQL). The name is the
plural of the model holding the key (``books``); when that model has several keys to
the same target, or the plain name would clash with a field of the target, a Django
attribute of every model or another reverse name, it is ``books_as_<field>``
(``books_as_editor``). Projects generated before readable names record no
``django_model_style`` (style 1) and had ``"+"`` (no reverse accessor); regenerating
them writes the ``AlterField`` operations Django would (no SQL), and records style 2.
"""

from __future__ import annotations

from ...model import ir, naming

HIDDEN = "+"
# Names every model has: a reverse accessor must not shadow them.
_MODEL_ATTRIBUTES = frozenset(
    {
        "DoesNotExist",
        "MultipleObjectsReturned",
        "objects",
        "pk",
        "check",
        "clean",
        "clean_fields",
        "delete",
        "full_clean",
        "get_deferred_fields",
        "refresh_from_db",
        "save",
        "save_base",
        "serializable_value",
        "validate_constraints",
        "validate_unique",
    }
)


def related_names(project: ir.Project) -> dict[tuple[str, str], str]:
    """``(resource name, field name)`` → ``related_name``, for every foreign key."""
    keys = [
        (resource, field)
        for resource in project.resources
        for field in resource.stored_fields
        if field.relation
    ]
    if project.django_model_style < 2:
        return {(r.name, f.name): HIDDEN for r, f in keys}
    found: dict[tuple[str, str], str] = {}
    taken = {
        r.name: {f.name for f in r.stored_fields} | _MODEL_ATTRIBUTES
        for r in project.resources
    }
    for resource, field in keys:
        target = taken[field.relation or ""]
        plain = naming.table_name(resource.name)
        qualified = f"{plain}_as_{field.name}"
        shared = sum(
            1 for r, f in keys if r is resource and f.relation == field.relation
        )
        name = qualified if shared > 1 or plain in target else plain
        while name in target:  # a field of the target is called so: still unique
            name += "_"
        target.add(name)
        found[(resource.name, field.name)] = name
    return found
