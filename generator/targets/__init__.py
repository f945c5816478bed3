"""The registry of framework targets: name → :class:`~generator.targets.base.Target`.

Adding a framework means writing one package against :mod:`generator.targets.base`
and listing it here.
"""

from __future__ import annotations

from ..errors import OutputError
from .base import Target
from .django import DjangoTarget
from .fastapi import FastAPITarget

TARGETS: dict[str, Target] = {
    target.name: target for target in (FastAPITarget(), DjangoTarget())
}
SUPPORTED_FRAMEWORKS = tuple(TARGETS)


def target_for(framework: str) -> Target:
    """The target that emits ``framework`` projects."""
    try:
        return TARGETS[framework]
    except KeyError:
        raise OutputError(
            f"framework '{framework}' is not yet supported "
            f"(supported: {', '.join(SUPPORTED_FRAMEWORKS)})"
        ) from None
