"""``python -m tricktable`` runs the command line."""

from .cli import main

main()
