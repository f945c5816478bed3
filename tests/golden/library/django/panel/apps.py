"""The panel app's configuration."""

from __future__ import annotations

from django.apps import AppConfig


class PanelConfig(AppConfig):
    """The admin panel: routes under /admin, its users' logins and throttle."""

    name = "panel"
    verbose_name = "Admin panel"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the system checks that keep a misconfigured panel from starting."""
        from .checks import register
        from .registry import registry

        register()
        registry()  # built at start-up: a bad declaration fails here
