"""The database layer's shortcuts: event-loop reads and SQLite's writer turns.

Records, list pages nobody narrowed and users are read on the event loop
(``app.core.readers``) when the database is an SQLite file or PostgreSQL; these tests
hold those reads to what the thread-pool path (SQLAlchemy) gives, value and type. On
SQLite the writers of a process take turns on a lock (``app.core.db.transaction``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
import threading
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core import db
from app.core.auth_state import NOT_REVOKED, revoke_token
from app.core.readers import READER_CONNECTIONS, LoopReader
from app.core.users import User, create_user, get_user, read_user, user_query
from panel_core.query import parse_key
from tests.helpers import post_create, record_key

SAMPLES = Path(__file__).with_name("samples.json")


def _reader(app: FastAPI) -> LoopReader:
    reader: LoopReader | None = app.state.reader
    if reader is None:
        pytest.skip("the event-loop reads serve SQLite files and PostgreSQL only")
    return reader


@pytest.fixture
def on_loop() -> Iterator[Callable[[Coroutine[Any, Any, Any]], Any]]:
    """Runs a read to its end on one event loop for the test, as a server's is."""
    with asyncio.Runner() as runner:
        yield runner.run


def _created_samples(client: TestClient) -> Iterator[tuple[dict[str, Any], Any, Any]]:
    """Create one record of each sample, related ones first: each sample, the record
    answered and its key."""
    keys: dict[str, Any] = {}
    for sample in json.loads(SAMPLES.read_text(encoding="utf-8")):
        body = dict(sample["body"])
        for name, target in sample["relations"].items():
            if target in keys:
                body[name] = keys[target]
        response = post_create(client, sample["resource"], body)
        assert response.status_code == 201, response.text
        record = response.json()["data"]
        keys[sample["resource"]] = record_key(sample["key"], record)
        yield sample, record, keys[sample["resource"]]


def test_records_read_on_the_loop_are_what_sqlalchemy_reads(
    app: FastAPI, client: TestClient, on_loop: Callable[..., Any]
) -> None:
    reader, engine = _reader(app), app.state.engine
    for sample, record, key in _created_samples(client):
        url = f"/admin/resource/{sample['resource']}/crud"
        served = app.state.registry.get(sample["resource"])
        stored = parse_key(type(served.resource), str(key))  # as the routes parse it
        store = served.store
        read = on_loop(store.read(reader, stored))
        in_pool = store.fetch(engine, stored)
        assert read == in_pool
        assert [type(v) for v in read.values()] == [type(v) for v in in_pool.values()]
        assert client.get(f"{url}/{quote(str(key), safe='')}").json() == record


def test_users_read_on_the_loop_are_what_sqlalchemy_reads(
    app: FastAPI, user: User, on_loop: Callable[..., Any]
) -> None:
    reader, engine = _reader(app), app.state.engine
    assert on_loop(read_user(reader, user.id)) == get_user(engine, user.id) == user
    assert on_loop(read_user(reader, user.id + 1)) is None
    token_user = user_query(NOT_REVOKED)
    assert on_loop(read_user(reader, user.id, token_user, jti="a")) == user
    revoke_token(engine, "a", expires_at=2**40, now=0)
    assert on_loop(read_user(reader, user.id, token_user, jti="a")) is None
    assert get_user(engine, user.id, token_user, jti="a") is None


def test_the_loop_connections_close_with_the_engine_and_reopen(
    app: FastAPI, user: User, on_loop: Callable[..., Any]
) -> None:
    reader, engine = _reader(app), app.state.engine
    assert on_loop(read_user(reader, user.id)) == user
    engine.dispose()
    assert not reader._opened
    assert on_loop(read_user(reader, user.id)) == user  # a new connection, when needed
    if engine.dialect.name == "postgresql":  # a server ends connections too
        with engine.connect() as connection:  # as a restart or an idle timeout would
            connection.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        assert on_loop(read_user(reader, user.id)) == user  # on a new connection


def _list_params(resource: Any) -> list[list[tuple[str, str]]]:
    """List requests nobody narrowed: every sort both ways, pages, no total."""
    sorts = list(resource.sortable_fields)
    asked: list[list[tuple[str, str]]] = [[("per_page", "1"), ("page", "2")]]
    asked += [[], [("page", "999")]]
    asked += [[("sort", name)] for name in sorts]
    asked += [[("sort", f"-{name}"), ("total", "none")] for name in sorts]
    return asked


def test_list_pages_read_on_the_loop_are_what_sqlalchemy_reads(
    app: FastAPI, client: TestClient, on_loop: Callable[..., Any]
) -> None:
    reader, engine = _reader(app), app.state.engine
    list(_created_samples(client))
    read = 0
    for served in app.state.registry:
        for params in _list_params(served.resource):
            query = served.list_query(params, paging_modes=True)
            page = on_loop(served.store.read_page(reader, query))
            if page is None:
                continue
            read += 1
            assert page == served.store.list_page(engine, query, None)
        whole = served.list_query([], paging_modes=True)
        narrowed = dataclasses.replace(whole, search="x")
        assert on_loop(served.store.read_page(reader, narrowed)) is None
    assert read


def test_concurrent_reads_share_a_few_connections(
    app: FastAPI, user: User, on_loop: Callable[..., Any]
) -> None:
    reader = _reader(app)

    async def many() -> list[User | None]:
        reads = [read_user(reader, user.id) for _ in range(4 * READER_CONNECTIONS)]
        return list(await asyncio.gather(*reads))

    assert on_loop(many()) == [user] * 4 * READER_CONNECTIONS
    assert 1 <= len(reader._opened) <= READER_CONNECTIONS


def test_concurrent_writers_all_land(app: FastAPI) -> None:
    engine = app.state.engine

    def add(number: int) -> User:
        return create_user(engine, email=f"writer{number}@example.com", password="pw")

    with ThreadPoolExecutor(16) as pool:
        added = list(pool.map(add, range(32)))
    assert len({user.id for user in added}) == 32
    assert all(get_user(engine, user.id) == user for user in added)


def test_a_writer_waiting_past_its_turn_is_told_the_database_is_locked(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = app.state.engine
    if engine.dialect.name != "sqlite":  # the server orders its writers itself
        assert isinstance(db._writers(engine), nullcontext)
        return
    monkeypatch.setattr(db, "_TURN_TIMEOUT", 0.2)
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        with db._writers(engine):  # another writer's turn (SQLite itself is free)
            holding.set()
            done.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(10)
        locked = pytest.raises(sqlite3.OperationalError, match="database is locked")
        with locked, db.transaction(engine, writes=True):
            pass
        with db.transaction(engine):  # readers never wait for a turn
            pass
    finally:
        done.set()
        holder.join()
    with db.transaction(engine, writes=True):  # the turn is free again
        pass
