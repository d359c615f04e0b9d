"""Input and output through NumPy on a host copy: save, load, savez, loadtxt, savetxt and the like."""
from __future__ import annotations

__all__: list[str] = []
