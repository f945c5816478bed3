"""Where ``config/urls.py`` mounts the panel: the prefix of its links and spec paths.

Django developers move an app by editing its ``include()``; the panel follows. The
mount is read back from the URLconf with ``reverse("panel:index")`` when the first
URL is built (``mount_panel_later``; not in ``ready()``, where importing the URLconf
would run before other apps, the admin's registry among them, are ready), and the
kernel (``panel_core.routes``) builds every link, redirect and OpenAPI path from it.
A mount the panel cannot serve (none, one with parameters, at the site's root, with a
trailing slash) is ``panel.E005`` (``panel.checks``).
"""

from __future__ import annotations

from django.urls import NoReverseMatch, get_script_prefix, reverse

from panel_core.routes import DEFAULT_PREFIX, mount_panel_later, prefix_from

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


def mounted_or_default() -> str:
    """The panel's mount, or ``/admin`` when it is one the panel cannot serve (then
    ``panel.E005`` stops the server)."""
    try:
        return mounted_prefix()
    except MountError:
        return DEFAULT_PREFIX


def mount_from_urls() -> None:
    """Have the kernel read the mount from the URLconf when it first builds a URL."""
    mount_panel_later(mounted_or_default)
