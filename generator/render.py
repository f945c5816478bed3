"""The code-rendering Jinja environment and the rendering of file plans."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

import jinja2

from .errors import TemplateError
from .paths import resource_templates
from .plan import FilePlan


@cache
def code_environment(root: Path | None = None) -> jinja2.Environment:
    """Jinja for source code: strict, no autoescape, trailing newlines kept."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(root or resource_templates())),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        autoescape=False,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_plans(plans: Iterable[FilePlan]) -> dict[str, str]:
    """Render every plan; a failure names the template and the output file."""
    env = code_environment()
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
