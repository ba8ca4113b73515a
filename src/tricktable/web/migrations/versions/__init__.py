"""The web schema's revisions, oldest first."""
