"""Hot reads with SQL compiled once (``panel.prepared``): what the ORM would give.

A record, an unnarrowed list page and its count, a token's user, a session's user and
a session are read with SQL compiled once; these tests hold them to the query sets
they stand for, value and type, and to the same refusals (revoked tokens, inactive
users, expired sessions), with ``PANEL_PREPARED_QUERIES`` on and off. On SQLite they
run on the driver's cursor unless the queries are watched. Session texts decode as
Django's engine decodes them, with retired keys too; one that does not verify is
nobody's session.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends import db
from django.contrib.sessions.models import Session
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from app.resources import RESOURCES
from panel.auth_state import revoke_token
from panel.registry import registry
from panel.session_store import SessionStore
from panel.users import PanelBackend, token_user
from panel_core.query import EXACT
from tests.test_api import ONE_FIELD_KEYS, Samples, create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("resource", RESOURCES, ids=lambda r: r.uri)
def test_a_record_is_what_the_query_set_gives(
    api: Client, samples: Samples, resource: Any
) -> None:
    record = create(api, samples, resource.uri)
    store = registry().get(resource.uri).store
    key = resource.key_of(record)  # a composite key: its parts' values
    prepared = store.fetch(key)
    orm = store._rows.get(**{store._key: key})
    assert prepared == orm and list(prepared) == list(orm)
    assert [type(v) for v in prepared.values()] == [type(v) for v in orm.values()]


@pytest.mark.parametrize("prepared", [True, False], ids=["prepared", "orm"])
@pytest.mark.parametrize("resource", RESOURCES, ids=lambda r: r.uri)
def test_an_unnarrowed_list_page_is_what_the_query_set_gives(
    api: Client, samples: Samples, resource: Any, settings: Any, prepared: bool
) -> None:
    settings.PANEL_PREPARED_QUERIES = prepared
    for _ in range(3):
        create(api, samples, resource.uri)
    panel = registry().get(resource.uri)
    store = panel.store
    key = (resource.key_parts or [resource.key_name()])[0]
    for params in (
        [],
        [("page", "2"), ("per_page", "2")],
        [("sort", f"-{key}"), ("per_page", "2")],
        [("total", "none"), ("per_page", "1")],
        [("page", "9999")],
    ):
        query = panel.list_query(params, paging_modes=True)
        rows, total = store.list_page(query, None)
        ordered = store._rows.order_by(*store._order(query))
        orm = list(ordered[query.offset : query.offset + query.limit])
        assert rows == orm and [list(row) for row in rows] == [list(r) for r in orm]
        assert [[type(v) for v in row.values()] for row in rows] == [
            [type(v) for v in row.values()] for row in orm
        ]
        assert total == (store._rows.count() if query.total == EXACT else None)


def test_a_token_user_is_the_user_unless_revoked_or_inactive(user: Any) -> None:
    found = token_user(user.pk, "some-token")
    assert found == user and found.password == user.password
    assert found.last_login == type(user)._default_manager.get(pk=user.pk).last_login
    revoke_token("some-token", expires_at=2**40, now=0)
    assert token_user(user.pk, "some-token") is None
    assert token_user(user.pk, "other-token") == user
    type(user)._default_manager.filter(pk=user.pk).update(is_active=False)
    assert token_user(user.pk, "other-token") is None


def test_a_session_user_is_what_model_backend_finds(user: Any) -> None:
    found = PanelBackend().get_user(user.pk)
    assert found == ModelBackend().get_user(user.pk) == user
    assert [getattr(found, f.attname) for f in type(user)._meta.concrete_fields] == [
        getattr(user, f.attname) for f in type(user)._meta.concrete_fields
    ]
    assert PanelBackend().get_user(user.pk + 1) is None
    assert PanelBackend().authenticate(None, username=user.username) is None
    type(user)._default_manager.filter(pk=user.pk).update(is_active=False)
    assert PanelBackend().get_user(user.pk) is None


def test_sessions_load_until_they_expire() -> None:
    store = SessionStore()
    store["answer"] = 42
    store.save()
    assert SessionStore(store.session_key).load() == {"answer": 42}
    past = timezone.now() - timedelta(seconds=1)
    Session.objects.filter(session_key=store.session_key).update(expire_date=past)
    expired = SessionStore(store.session_key)
    assert expired.load() == {}
    assert expired.session_key is None
    assert SessionStore("no-such-session-key").load() == {}


# The prepared read takes one key parameter: a composite key is read by the query set.
@pytest.mark.parametrize("resource", ONE_FIELD_KEYS, ids=lambda r: r.uri)
def test_sqlite_reads_skip_django_cursor_unless_watched(
    api: Client, samples: Samples, resource: Any, monkeypatch: Any
) -> None:
    record = create(api, samples, resource.uri)
    store = registry().get(resource.uri).store
    key = resource.key_of(record)  # a composite key: its parts' values
    with CaptureQueriesContext(connection) as watched:
        seen = store.fetch(key)
    assert len(watched.captured_queries) == 1  # counted: through Django's cursor
    if connection.vendor != "sqlite":
        return
    database = connections["default"]

    def no_cursor() -> None:
        raise AssertionError("Django's cursor was used")

    monkeypatch.setattr(database, "cursor", no_cursor)
    assert store.fetch(key) == seen


@pytest.mark.parametrize(
    ("data", "compressed"),
    [({"answer": 42}, False), ({"text": "é" * 300, "n": [1, 2.5, None]}, True)],
    ids=["short", "compressed"],
)
def test_session_texts_decode_as_djangos_engine_decodes_them(
    data: dict[str, Any], compressed: bool
) -> None:
    text = db.SessionStore().encode(data)
    assert text.startswith(".") is compressed
    assert SessionStore().decode(text) == db.SessionStore().decode(text) == data


def test_a_session_signed_with_a_retired_key_still_decodes(settings: Any) -> None:
    text = SessionStore().encode({"answer": 42})
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-newer-secret-key-" + "x" * 40
    assert SessionStore().decode(text) == {"answer": 42}
    settings.SECRET_KEY_FALLBACKS = []
    assert SessionStore().decode(text) == {}


def test_a_tampered_session_text_is_nobodys(caplog: Any) -> None:
    store = SessionStore()
    store["answer"] = 42
    store.save()
    row = Session.objects.get(session_key=store.session_key)
    signed, _, signature = SessionStore().encode({"answer": 43}).rpartition(":")
    # The signature's first character: its last one may carry only padding bits.
    first = "B" if signature[0] == "A" else "A"
    forged = f"{signed}:{first}{signature[1:]}"
    Session.objects.filter(pk=row.pk).update(session_data=forged)
    assert SessionStore(store.session_key).load() == {}
    assert "Session data corrupted" in caplog.text
