"""The Alembic migrations build exactly the tables the models declare (those that
existed before the panel aside: adopted), and undo them."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, inspect

from app.core.migrations import downgrade, upgrade
from app.core.models import Base
from tests.adopted_tables import adopted_tables


def test_upgrade_creates_every_table_then_downgrade_drops_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'migrated.db'}"
    upgrade(url)
    engine = create_engine(url)
    try:
        inspector = inspect(engine)
        tables = set(inspector.get_table_names()) - {"alembic_version"}
        adopted = adopted_tables()
        created = [t for t in Base.metadata.sorted_tables if t not in adopted]
        assert tables == {table.name for table in created}  # adopted ones: never
        for table in created:
            columns = {column["name"] for column in inspector.get_columns(table.name)}
            assert columns == {column.name for column in table.columns}
            indexes = {index["name"] for index in inspector.get_indexes(table.name)}
            assert indexes == {index.name for index in table.indexes}
        downgrade(url)
        assert set(inspect(engine).get_table_names()) == {"alembic_version"}
    finally:
        engine.dispose()
