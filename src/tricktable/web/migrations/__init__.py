"""Alembic migrations of the web server's tables (run by ``store.upgrade``)."""
