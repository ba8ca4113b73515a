"""Alembic migrations of the web server's tables (run by ``play.database.upgrade``)."""
