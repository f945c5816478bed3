"""What files a project consists of: (output path, template, context) triples. Pure.

A target (:class:`generator.targets.base.Target`) decides which files exist for a
project; this module holds the shape of that decision and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Owner = Literal["generated", "user"]


@dataclass(frozen=True)
class FilePlan:
    """One file to render from ``templates/resource/``.

    ``owner="user"`` marks an extension point: written when absent, never overwritten,
    never merged, never deleted by regeneration.
    """

    path: str  # POSIX path relative to the project root, e.g. "app/resources/book.py"
    template: str  # relative to templates/resource/, e.g. "fastapi/resource.py.jinja"
    context: Mapping[str, Any] = field(default_factory=dict)
    owner: Owner = "generated"
