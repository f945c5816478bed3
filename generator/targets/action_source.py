"""The source of a resource's ``actions`` and ``bulk_update`` declarations.

``actions = (Action("archive", confirm=..., fields=(Text("reason"),)),)``, laid out
as black lays it out, with the kernel field declarations of each action's input.
"""

from __future__ import annotations

from ..model import ir, naming
from ..model.kernel_fields import KernelField, kernel_field
from .pysource import LINE_LENGTH, call, exploded, literal, tuple_assignment


def action_fields(resource: ir.Resource, project: ir.Project) -> list[KernelField]:
    """The kernel declarations of every action's input fields."""
    return [
        kernel_field(field, project)
        for action in resource.actions
        for field in action.fields
    ]


def field_call(kernel: KernelField, indent: int) -> str:
    """``Text("title", max_length=200)``: one kernel field declaration."""
    args = [literal(value) for value in kernel.positional()]
    args += [f"{key}={literal(value)}" for key, value in kernel.kwargs]
    return call(kernel.class_name, args, indent=indent, suffix=",")


def _fields_argument(fields: list[str]) -> str:
    """``fields=(...)`` as an argument of ``Action(...)``, laid out as black would:
    a single field on one line when it fits (its comma is no "magic" comma)."""
    single = f"fields=({fields[0].removesuffix(',')},),"
    if len(fields) == 1 and "\n" not in single and len(single) + 12 <= LINE_LENGTH:
        return single.removesuffix(",")
    return exploded("fields=(", fields, ")", indent=3)


def actions_block(resource: ir.Resource, project: ir.Project) -> str:
    """``actions = (Action(...), ...)``: each action, its input fields declared."""
    items = []
    for action in resource.actions:
        args = [literal(action.name)]
        if action.label != naming.humanize(action.name):
            args.append(f"label={literal(action.label)}")
        if not action.bulk:
            args.append("bulk=False")
        if action.confirm:
            args.append(f"confirm={literal(action.confirm)}")
        if action.fields:
            fields = [field_call(kernel_field(f, project), 4) for f in action.fields]
            args.append(_fields_argument(fields))
        items.append(call("Action", args, indent=2, suffix=","))
    return tuple_assignment("actions", items, indent=1)


def action_lines(resource: ir.Resource, project: ir.Project) -> list[str]:
    """``actions`` and ``bulk_update``, when declared."""
    lines = []
    if resource.actions:
        lines.append(actions_block(resource, project))
    if resource.bulk_update:
        line = f"bulk_update = {literal(resource.bulk_update)}"
        if len(line) + 4 > LINE_LENGTH:
            items = [literal(name) for name in resource.bulk_update]
            line = tuple_assignment("bulk_update", items, indent=1)
        lines.append(line)
    return lines
