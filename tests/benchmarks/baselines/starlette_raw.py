"""(a) The practical limit: Starlette routing, sqlite3 on the event loop, orjson.

One connection opened at start-up, plain SQL, rows turned into dicts by hand and
serialised with orjson. Serve with ``uvicorn starlette_raw:app`` from this folder.
"""

from __future__ import annotations

import sqlite3

import orjson
from bench_env import DB_PATH, PER_PAGE, PRAGMAS
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

COLUMNS = ("id", "title", "body", "published", "created_at")
SELECT = "SELECT id, title, body, published, created_at FROM articles"


def _connect() -> sqlite3.Connection:
    connection = sqlite3.connect(DB_PATH, check_same_thread=False)
    connection.isolation_level = None
    for pragma in PRAGMAS:
        connection.execute(pragma)
    return connection


db = _connect()


def _row(row: tuple) -> dict:
    return {
        "id": row[0],
        "title": row[1],
        "body": row[2],
        "published": bool(row[3]),
        "created_at": row[4],
    }


def _json(data: object, status: int = 200) -> Response:
    return Response(orjson.dumps(data), status, media_type="application/json")


async def list_or_create(request: Request) -> Response:
    if request.method == "POST":
        return await create(request)
    try:
        page = max(1, int(request.query_params.get("page", "1")))
    except ValueError:
        return _json({"message": "page must be an integer"}, 422)
    start = (page - 1) * PER_PAGE
    total = db.execute("SELECT COUNT(*) FROM articles").fetchone()[0]
    rows = db.execute(
        SELECT + " ORDER BY id DESC LIMIT ? OFFSET ?", (PER_PAGE, start)
    ).fetchall()
    return _json(
        {
            "current_page": page,
            "data": [_row(row) for row in rows],
            "per_page": PER_PAGE,
            "total": total,
            "last_page": max(1, -(-total // PER_PAGE)),
            "from": start + 1 if rows else None,
            "to": start + len(rows) if rows else None,
        }
    )


async def show(request: Request) -> Response:
    row = db.execute(SELECT + " WHERE id = ?", (request.path_params["id"],)).fetchone()
    if row is None:
        return _json({"message": "Not found."}, 404)
    return _json(_row(row))


async def create(request: Request) -> Response:
    payload = orjson.loads(await request.body())
    title = payload.get("title")
    if not isinstance(title, str) or len(title) > 200:
        return _json({"message": "title: a string of at most 200 characters"}, 422)
    row = db.execute(
        "INSERT INTO articles (title, body, published, created_at)"
        " VALUES (?, ?, ?, ?) RETURNING id, title, body, published, created_at",
        (
            title,
            payload.get("body"),
            bool(payload.get("published", False)),
            payload.get("created_at"),
        ),
    ).fetchone()
    return _json(_row(row), 201)


PATH = "/admin/resource/articles/crud"
app = Starlette(
    routes=[
        Route(PATH, list_or_create, methods=["GET", "POST"]),
        Route(PATH + "/{id:int}", show),
    ]
)
