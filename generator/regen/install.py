"""Where the running panelforge was installed from, as pip can install it again.

Recorded in ``.panelforge/state.json`` (``"install"``) and written into the emitted CI
workflow, so CI runs ``panelforge check`` with the panelforge that generated the
project:

- ``index``: a release from a package index → ``panelforge==<version>``;
- ``vcs``: a VCS checkout (PEP 610 ``vcs_info``, or the git template of ``copier
  copy``) → ``panelforge @ git+<url>@<commit>``;
- ``url``: an archive downloaded from a URL → ``panelforge @ <url>``;
- ``local``: a source checkout, an editable install or a file on this machine, which
  CI cannot reach. Recorded as ``local`` only, never with the path, so the output does
  not depend on where panelforge lives.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from .dists import distribution

Kind = Literal["index", "vcs", "url", "local"]


@dataclass(frozen=True)
class InstallSource:
    """How pip installs the same panelforge again (``requirement``: "" when local)."""

    kind: Kind
    requirement: str = ""

    @property
    def reachable(self) -> bool:
        """Whether CI can install it from the recorded requirement."""
        return self.kind != "local"

    def to_data(self) -> dict[str, str]:
        """The ``"install"`` entry of ``state.json``."""
        return {"kind": self.kind, "requirement": self.requirement}

    @classmethod
    def from_data(cls, data: Any) -> InstallSource | None:
        """The recorded entry (``None``: recorded before panelforge kept it)."""
        if not isinstance(data, dict) or data.get("kind") not in _KINDS:
            return None
        return cls(data["kind"], str(data.get("requirement", "")))


_KINDS = ("index", "vcs", "url", "local")
WORKFLOW = ".github/workflows/panel.yml"
# The Install step's panelforge line when panelforge came from a local path: it fails
# with this message until the user replaces it (``panelforge check`` says so too).
LOCAL_INSTALL_LINE = (
    f'echo "Install panelforge: edit the Install step of {WORKFLOW}" >&2 && exit 1'
)
LOCAL = InstallSource("local")
_override: list[InstallSource] = []


def use_install_source(source: InstallSource) -> None:
    """Record ``source`` instead of the running panelforge's (``copier copy``)."""
    _override[:] = [source]


def install_source() -> InstallSource:
    """Where the running panelforge comes from (or what ``copier copy`` said)."""
    return _override[0] if _override else _detected()


@cache
def _detected() -> InstallSource:
    package = Path(__file__).resolve().parents[1]
    if (package.parent / "pyproject.toml").is_file():
        return LOCAL  # a source checkout (editable installs run from it too)
    dist = distribution("panelforge")
    if dist is None:  # pragma: no cover - bare copy of the package
        return LOCAL
    return from_direct_url(dist.read_text("direct_url.json"), dist.version)


def from_direct_url(text: str | None, version: str) -> InstallSource:
    """The source a PEP 610 ``direct_url.json`` names (none: an index release)."""
    if not text:
        return InstallSource("index", f"panelforge=={version}")
    try:
        data = json.loads(text)
        url = str(data["url"])
    except (ValueError, KeyError, TypeError):
        return LOCAL
    vcs = data.get("vcs_info")
    if isinstance(vcs, dict) and vcs.get("vcs") and not url.startswith("file:"):
        commit = vcs.get("commit_id") or vcs.get("requested_revision")
        ref = f"@{commit}" if commit else ""
        return InstallSource("vcs", f"panelforge @ {vcs['vcs']}+{url}{ref}")
    if url.startswith("file:") or data.get("dir_info", {}).get("editable"):
        return LOCAL
    return InstallSource("url", f"panelforge @ {url}")


_SHORTCUTS = {"gh:": "https://github.com/", "gl:": "https://gitlab.com/"}
_SCP_LIKE = re.compile(r"^(?P<user>[\w.-]+)@(?P<host>[\w.-]+):(?P<path>[^/].*)$")


def from_copier_template(src: str, commit: str, *, cwd: Path) -> InstallSource:
    """The source of the template ``copier copy`` used (its ``_src_path``, ``_commit``).

    A folder on this machine is ``local``; a git URL (``gh:owner/repo``,
    ``https://…``, ``git@host:path``, ``git+…``) is installed at that commit.
    """
    src = src.strip()
    if not src or (cwd / Path(src).expanduser()).exists():
        return LOCAL
    for short, base in _SHORTCUTS.items():
        if src.startswith(short):
            src = base + src[len(short) :]
    scp = _SCP_LIKE.match(src)
    if scp:
        src = f"ssh://{scp['user']}@{scp['host']}/{scp['path']}"
    if src.startswith("file:") or "://" not in src:
        return LOCAL
    if not src.startswith("git+"):
        src = f"git+{src}"
    ref = f"@{commit}" if commit else ""
    return InstallSource("vcs", f"panelforge @ {src}{ref}")
