"""Django's database sessions, read with SQL compiled once (``SESSION_ENGINE``).

Every request of a logged-in session reads its row: Django would build and compile
that query each time, which costs more than running it. Everything else is Django's
``db`` engine: sessions live in the database, so logging out ends one at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from django.contrib.sessions.backends import db
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models, router
from django.utils import timezone

from .prepared import PreparedQuery


@cache
def _by_key(model: type[AbstractBaseSession]) -> PreparedQuery:
    def sessions(values: Mapping[str, Any]) -> models.QuerySet[Any]:
        return model._default_manager.filter(session_key=values["session_key"])

    fields = {"session_key": model._meta.get_field("session_key")}
    return PreparedQuery(model, sessions, fields)


class SessionStore(db.SessionStore):
    """A session kept in the ``django_session`` table."""

    def _get_session_from_db(self) -> Any:
        model = self.model
        names = [field.attname for field in model._meta.concrete_fields]
        for row in _by_key(model).rows({"session_key": self.session_key}):
            session = model.from_db(router.db_for_read(model), names, row)
            if session.expire_date > timezone.now():
                return session
        self._session_key = None
        return None
