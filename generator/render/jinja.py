"""The code-rendering Jinja environment and the rendering of file plans."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

import jinja2

from ..errors import TemplateError
from ..paths import resource_templates
from .plan import FilePlan


class _CompiledTemplates(jinja2.FileSystemBytecodeCache):
    """Jinja's compiled templates on disk (keyed by their source); never fails a run."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            Path(self.directory).mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            return  # a cache that cannot be written only costs time


@cache
def code_environment(
    root: Path | None = None, compiled: Path | None = None
) -> jinja2.Environment:
    """Jinja for source code: strict, no autoescape, trailing newlines kept.

    ``compiled`` is a folder for Jinja's compiled templates (``None``: compile them
    on every run); it may only change speed, never bytes.
    """
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root or resource_templates())),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=_CompiledTemplates(str(compiled)) if compiled else None,
    )


def render_plans(
    plans: Iterable[FilePlan], compiled: Path | None = None
) -> dict[str, str]:
    """Render every plan; a failure names the template and the output file."""
    env = code_environment(None, compiled)
    rendered: dict[str, str] = {}
    for plan in plans:
        try:
            template = env.get_template(plan.template)
            rendered[plan.path] = template.render(**plan.context)
        except jinja2.TemplateError as exc:
            raise TemplateError(
                f"template {plan.template} failed for {plan.path}: {exc}\n"
                "This is a bug in panelforge; please report it with your manifest."
            ) from exc
    return rendered
