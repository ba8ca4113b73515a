"""Search: the double-dummy solver (``solver``), its position model (``position``), the
plain-minimax reference (``reference``) and claims. The numba kernel is imported only when
something is solved."""
