"""darray's public API as one table: every public function of ``darray`` and ``darray.linalg``
(and ``darray.fft`` once it exists) with its NumPy equivalent and where darray differs.

The rows come from the families' own declarations: each module's ``__all__`` (which
``darray/__init__.py`` re-exports), the op table's rows behind the elementwise functions, and
each function's docstring (its summary line, its ``See also: numpy.X`` and any "Differs from
NumPy" note). They feed ``__array_function__`` (``interop.function``), ``__array_ufunc__``
(``interop.ufunc``, through the op table) and ``docs/api.md`` (``darray.api_docs``).
"""
from __future__ import annotations

import inspect
import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

_SEE_ALSO = re.compile(r"See also:\s+(numpy(?:\.\w+)+)")
_SEE_ALSO_SENTENCE = re.compile(r"\s*See also:\s+numpy[\w.]*\.?")
_DIFFERS = re.compile(r"([Dd]iffers from NumPy.*?)(?:\n\s*\n|$)", re.S)  # to the end of its paragraph


@dataclass(frozen=True)
class Entry:
    """One public function: ``name`` (``"sin"``, ``"linalg.inv"``), the function, its NumPy
    equivalent (``"numpy.sin"``; empty when NumPy has none), summary line and differences."""

    name: str
    func: Callable[..., Any]
    numpy: str
    summary: str
    differs: str

    def numpy_object(self) -> Any:
        """The NumPy function itself (None when NumPy has no such name)."""
        obj: Any = np
        for part in self.numpy.split(".")[1:]:
            obj = getattr(obj, part, None)
        return obj if self.numpy else None


def extensions(namespace: types.ModuleType) -> list[types.ModuleType]:
    """``darray.linalg``, ``darray.fft``, ``darray.emath``... (``namespace._SUBMODULES``)."""
    found = []
    for name in namespace._SUBMODULES:
        module = namespace
        for part in name.split("."):
            module = getattr(module, part)
        found.append(module)
    return found


def _row(name: str, func: Callable[..., Any]) -> Entry:
    doc = inspect.getdoc(func) or ""
    found = _SEE_ALSO.search(doc)
    differs = " ".join(" ".join(m.group(1).split()) for m in _DIFFERS.finditer(doc))
    first = _DIFFERS.sub("", doc.split("\n\n", 1)[0])
    summary = _SEE_ALSO_SENTENCE.sub("", " ".join(first.split())).strip()
    return Entry(name, func, found.group(1) if found else "", summary, differs)


def _functions(module: types.ModuleType) -> list[tuple[str, Any]]:
    """The public functions of ``module``; a callable package (``darray.place``) stands for the function it calls."""
    found = [(n, getattr(module, n)) for n in module.__all__ if not n.startswith("__")]
    found = [(n, f.function if isinstance(f, types.ModuleType) and callable(f) else f) for n, f in found]
    return [(n, f) for n, f in found if inspect.isfunction(f)]


@lru_cache(maxsize=1)
def entries(namespace: types.ModuleType) -> tuple[Entry, ...]:
    """Every public function of ``namespace`` (the ``darray`` module, which imports this one), the
    main namespace first, then the extensions, each sorted by name."""
    rows = [_row(n, f) for n, f in sorted(_functions(namespace))]
    for ext in extensions(namespace):
        short = ext.__name__.split(".", 1)[1]
        rows += [_row(f"{short}.{n}", f) for n, f in sorted(_functions(ext))]
    return tuple(rows)


__all__ = ["Entry", "entries", "extensions"]
