"""Alembic environment: one history for SQLite and PostgreSQL."""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine, pool

from app.store.schema import metadata
from app.store.urls import sync_url

config = context.config


def database_url() -> str:
    return config.attributes.get("database_url") or os.environ.get(
        "DATABASE_URL", config.get_main_option("sqlalchemy.url")
    )


def run_migrations_offline() -> None:
    context.configure(url=sync_url(database_url()), target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    given = config.attributes.get("connection")
    if given is not None:
        context.configure(connection=given, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(sync_url(database_url()), poolclass=pool.NullPool)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
