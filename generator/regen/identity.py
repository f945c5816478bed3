"""Identity-bearing values stay as first generated unless the manifest names them.

The default SQLite file (``project.database``) and the JWT issuer
(``project.jwt_issuer``) derive from the project's name at the first generation and are
recorded in ``.panelforge/state.json`` (``project.database``, ``project.jwt_issuer``).
A regeneration keeps the recorded values, whatever the name has become, so the app
keeps opening the same database and accepting the tokens it issued; only a manifest
that sets them changes them, and the change is reported (:func:`pin_identity`). The
recorded Django model style is not kept but moved forward, and that is reported too.
"""

from __future__ import annotations

from dataclasses import replace

from ..model import ir
from .state import State

_WHAT = {
    "database": (
        "the default database file",
        "the app opens {new} from now on: move {old} to {new} first, or it starts "
        "empty",
    ),
    "jwt_issuer": (
        "the JWT issuer",
        "tokens issued as {old!r} stop being accepted: users must log in again",
    ),
}


def pin_identity(project: ir.Project, state: State) -> tuple[ir.Project, list[str]]:
    """``project`` with the recorded identity kept where the manifest is silent.

    Returns the project to generate and the warnings about what changes (explicit
    settings only) or is kept although the name changed.
    """
    recorded = state.project
    warnings = []
    kept = {}
    for key, (what, consequence) in _WHAT.items():
        old, new = getattr(recorded, key), getattr(project, key)
        if key not in project.explicit:
            kept[key] = old
        elif old != new:
            detail = consequence.format(old=old, new=new)
            warnings.append(f"{what} changes from {old!r} to {new!r}: {detail}")
    warnings += _model_style_note(recorded, project)
    pinned = replace(project, **kept)
    renamed = [k for k, v in kept.items() if v != getattr(project, k)]
    if renamed and recorded.name != project.name:
        settings = " and ".join(f"project.{k}" for k in renamed)
        values = ", ".join(f"{_WHAT[k][0]} {kept[k]!r}" for k in renamed)
        warnings.append(
            f"the project is renamed from {recorded.name!r} to {project.name!r}; "
            f"kept {values} (set {settings} in the manifest to change them)"
        )
    return pinned, warnings


def _model_style_note(recorded: ir.Project, project: ir.Project) -> list[str]:
    """What a project generated before the current Django model style gets."""
    if project.framework != "django":
        return []
    if recorded.django_model_style >= project.django_model_style:
        return []
    return [
        "the Django models get readable related_name on foreign keys and "
        "blank=True where NULL is the empty value: the new migration's AlterField "
        "operations change no table"
    ]
