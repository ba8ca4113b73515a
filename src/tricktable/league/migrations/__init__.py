"""Alembic migrations of the league's tables (run by ``store.upgrade``)."""
