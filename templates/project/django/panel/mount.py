"""Where ``config/urls.py`` mounts the panel: the prefix of its links and spec paths.

Django developers move an app by editing its ``include()``; the panel follows. At
start-up (``PanelConfig.ready``) the mount is read back from the URLconf with
``reverse("panel:index")`` and handed to the kernel (``panel_core.routes.mount_panel``),
which builds every link, redirect and OpenAPI path from it. A mount the panel cannot
serve (none, one with parameters, at the site's root, with a trailing slash) is
``panel.E005`` (``panel.checks``).
"""

from __future__ import annotations

from contextlib import suppress

from django.urls import NoReverseMatch, get_script_prefix, reverse

from panel_core.routes import mount_panel, prefix_from

_EXAMPLE = 'path("admin", include("panel.urls")) in config/urls.py'


class MountError(Exception):
    """The panel's URLs are mounted where the panel cannot be served; says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.hint = f"Mount it like {_EXAMPLE} (any prefix, no trailing slash)."


def mounted_prefix() -> str:
    """The path ``config/urls.py`` mounts ``panel.urls`` at: ``/admin``, ``/office/panel``."""
    try:
        found = reverse("panel:index")
    except NoReverseMatch:
        raise MountError(
            "The panel's URLs (panel.urls) are not in ROOT_URLCONF, or are mounted "
            "under a pattern with parameters."
        ) from None
    # reverse() starts with the script prefix (SCRIPT_NAME), which is not the mount.
    mount = "/" + found.removeprefix(get_script_prefix())
    if mount == "/" or mount.endswith("/"):
        raise MountError(
            f"The panel is mounted at {mount!r}; its URLs have no trailing slash, "
            "so its mount needs a prefix without one."
        )
    try:
        return prefix_from(mount)
    except ValueError as exc:
        raise MountError(str(exc)) from None


def mount_from_urls() -> None:
    """Give the kernel the panel's mount, if it is one the panel can serve.

    Otherwise the kernel keeps ``/admin`` and ``panel.E005`` stops the server.
    """
    with suppress(MountError):
        mount_panel(mounted_prefix())
