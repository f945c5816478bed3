"""What to tell about the CI workflow's way of installing panelforge.

The workflow (``.github/workflows/panel.yml``) is the user's: written once, with the
install line of the recorded install source (:mod:`generator.regen.install`). These
notes point at the line to change when CI cannot install panelforge that way.
"""

from __future__ import annotations

from pathlib import Path

from .install import LOCAL_INSTALL_LINE, WORKFLOW, install_source
from .state import State


def _workflow(dest: Path) -> str:
    try:
        return (dest / WORKFLOW).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def workflow_notes(dest: Path) -> list[str]:
    """A note while the workflow still has the line of a local install."""
    if LOCAL_INSTALL_LINE not in _workflow(dest):
        return []
    return [
        f"{WORKFLOW} cannot install panelforge in CI: it was installed from a local "
        "path when this project was generated. Replace the line\n"
        f"    {LOCAL_INSTALL_LINE}\n"
        "  in its Install step with one that installs the same panelforge, e.g.\n"
        '    python -m pip install "panelforge @ git+https://github.com/OWNER/'
        'panelforge@COMMIT"'
    ]


def install_changed(state: State) -> list[str]:
    """A warning when this panelforge is installed otherwise than the recorded one."""
    before, now = state.install, install_source()
    if before is None or before == now:
        return []
    line = (
        f'python -m pip install "{now.requirement}"'
        if now.reachable
        else "a line that installs it (it comes from a local path now)"
    )
    return [
        f"panelforge is now installed as {now.requirement or 'a local path'} "
        f"(recorded before: {before.requirement or 'a local path'}); the Install "
        f"step of {WORKFLOW} (yours, never rewritten) installs the old one: change "
        f"its panelforge line to {line}"
    ]
