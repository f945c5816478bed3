"""What logins leave in the database, so every worker and machine sees the same.

``LoginAttempt`` counts the logins of one username from one address within a window
(the key is a hash: no username or address is stored); ``RevokedToken`` lists the ids
of bearer tokens logged out before they expire. Rows are removed once they no longer
matter. Times are Unix seconds. The tables are named as in panelforge's FastAPI
projects. The panel's users are Django's own (``django.contrib.auth``), the username
being the e-mail address; ``PanelRole`` holds the role of each user who is not a
superuser (superusers are ``admin``, see ``panel.roles``); ``HistoryRow`` is one
change of one record (the history of changes, ``panel_core.history``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class LoginAttempt(models.Model):
    """Logins of one username from one address, in the current window."""

    key = models.CharField(max_length=64, primary_key=True)
    attempts = models.IntegerField()
    expires_at = models.BigIntegerField(db_index=True)

    class Meta:
        db_table = "panel_login_attempts"

    def __str__(self) -> str:
        return f"{self.attempts} login(s) until {self.expires_at}"


class RevokedToken(models.Model):
    """A bearer token logged out before it expired."""

    jti = models.CharField(max_length=64, primary_key=True)
    expires_at = models.BigIntegerField(db_index=True)

    class Meta:
        db_table = "panel_revoked_tokens"

    def __str__(self) -> str:
        return f"token {self.jti} (revoked until {self.expires_at})"


class PanelRole(models.Model):
    """The role of a panel user who is not a superuser: what they may do."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="panel_role",
    )
    role = models.CharField(max_length=64)

    class Meta:
        db_table = "panel_user_roles"

    def __str__(self) -> str:
        return f"user {self.pk}: {self.role}"


class HistoryRow(models.Model):
    """One change of one record (``panel_core.history``)."""

    at = models.DateTimeField(db_index=True)
    user_id = models.CharField(max_length=64, null=True)
    user_login = models.CharField(max_length=254)
    resource = models.CharField(max_length=100)
    record_key = models.CharField(max_length=200)
    record_label = models.CharField(max_length=200)
    action = models.CharField(max_length=20)
    changes = models.TextField()  # JSON: {field: [old, new]}

    class Meta:
        db_table = "panel_history"
        indexes = [
            models.Index(
                fields=["resource", "record_key", "at"], name="panel_history_record"
            )
        ]

    def __str__(self) -> str:
        return f"{self.resource} {self.record_key} {self.action}"
