"""The league's schema revisions, oldest first."""
