"""Search: the double-dummy solver (``solver``), its position model (``position``), the
plain-minimax reference (``reference``) and claims. The numba kernel is imported only when
something is solved."""

import functools
import importlib.util


@functools.cache
def search_installed() -> bool:
    """Whether the solver can run here: it needs the ``search`` extra (numba, which brings
    NumPy). Asked before a command or a claim loads it, so that a missing extra is a
    sentence, not an import error. Asked once a process (a view asks it too)."""
    return all(importlib.util.find_spec(name) is not None for name in ("numba", "numpy"))
