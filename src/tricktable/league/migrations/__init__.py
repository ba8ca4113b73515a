"""Alembic migrations of the league's tables (run by ``play.database.upgrade``)."""
