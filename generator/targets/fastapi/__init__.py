"""The FastAPI target: SQLAlchemy models, Alembic migrations, tests per resource."""

from .target import FastAPITarget

__all__ = ["FastAPITarget"]
