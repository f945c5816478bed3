"""(b) The "careful engineer" baseline: FastAPI + SQLAlchemy 2 ORM + Pydantic.

Written the way the FastAPI and SQLAlchemy tutorials teach: a sync ``Session`` per
request from a ``yield`` dependency, ``def`` endpoints, ``response_model``. With
``BENCH_JWT_SECRET`` set (e), every route also requires an HS256 bearer token, decoded
with PyJWT through ``HTTPBearer``. Serve with ``uvicorn fastapi_orm:app`` from this
folder.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Iterator
from typing import Annotated, Any

import jwt
from bench_env import DB_PATH, JWT_SECRET, PER_PAGE, PRAGMAS
from fastapi import Depends, FastAPI, HTTPException, Query
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Boolean, DateTime, String, Text, create_engine, event, func
from sqlalchemy import select as sa_select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

engine = create_engine(f"sqlite:///{DB_PATH}")


@event.listens_for(engine, "connect")
def _tune(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


class Base(DeclarativeBase):
    pass


class Article(Base):
    __tablename__ = "articles"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str | None] = mapped_column(Text)
    published: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime.datetime | None] = mapped_column(DateTime)


class ArticleIn(BaseModel):
    title: str = Field(max_length=200)
    body: str | None = None
    published: bool = False
    created_at: datetime.datetime | None = None


class ArticleOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    id: int
    title: str
    body: str | None
    published: bool
    created_at: datetime.datetime | None


class ArticlePage(BaseModel):
    current_page: int
    data: list[ArticleOut]
    per_page: int
    total: int
    last_page: int
    from_: int | None = Field(serialization_alias="from")
    to: int | None


def get_session() -> Iterator[Session]:
    with Session(engine) as session:
        yield session


SessionDep = Annotated[Session, Depends(get_session)]
bearer = HTTPBearer()


def check_token(
    credentials: Annotated[HTTPAuthorizationCredentials, Depends(bearer)],
) -> dict[str, Any]:
    try:
        return jwt.decode(credentials.credentials, JWT_SECRET, algorithms=["HS256"])
    except jwt.InvalidTokenError as exc:
        raise HTTPException(status_code=401, detail="Unauthenticated.") from exc


app = FastAPI(
    docs_url=None,
    redoc_url=None,
    openapi_url=None,
    dependencies=[Depends(check_token)] if JWT_SECRET else [],
)
PATH = "/admin/resource/articles/crud"


@app.get(PATH, response_model=ArticlePage, response_model_by_alias=True)
def list_articles(session: SessionDep, page: Annotated[int, Query(ge=1)] = 1) -> Any:
    total = session.scalar(sa_select(func.count()).select_from(Article)) or 0
    query = (
        sa_select(Article)
        .order_by(Article.id.desc())
        .offset((page - 1) * PER_PAGE)
        .limit(PER_PAGE)
    )
    rows = session.scalars(query).all()
    start = (page - 1) * PER_PAGE
    return ArticlePage(
        current_page=page,
        data=rows,
        per_page=PER_PAGE,
        total=total,
        last_page=max(1, math.ceil(total / PER_PAGE)),
        from_=start + 1 if rows else None,
        to=start + len(rows) if rows else None,
    )


@app.get(PATH + "/{article_id}", response_model=ArticleOut)
def show_article(article_id: int, session: SessionDep) -> Any:
    article = session.get(Article, article_id)
    if article is None:
        raise HTTPException(status_code=404, detail="Not found.")
    return article


@app.post(PATH, response_model=ArticleOut, status_code=201)
def create_article(payload: ArticleIn, session: SessionDep) -> Any:
    article = Article(**payload.model_dump())
    session.add(article)
    session.commit()
    session.refresh(article)
    return article
