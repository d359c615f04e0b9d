"""NumPy's namespace against darray's: every public name of ``numpy``, ``numpy.linalg``,
``numpy.fft``, ``numpy.lib.stride_tricks``, ``numpy.random`` and ``numpy.ndarray`` is in darray or in the
exclusion table (``darray/_exclusions.py``); prints the coverage (``pytest -s``)."""
from __future__ import annotations

import inspect
from typing import Any

import numpy as np
import pytest

import darray as da
from darray._exclusions import EXCLUDED

SPACES = [("", np, da), ("linalg.", np.linalg, da.linalg), ("fft.", np.fft, da.fft),
          ("lib.stride_tricks.", np.lib.stride_tricks, da.lib.stride_tricks), ("random.", np.random, da.random),
          ("ndarray.", np.ndarray, da.DArray)]


def _public(obj: Any) -> list[str]:
    return sorted(n for n in dir(obj) if not n.startswith("_"))


@pytest.mark.parametrize(("prefix", "theirs", "ours"), SPACES, ids=[p or "numpy" for p, _, _ in SPACES])
def test_every_name_is_in_darray_or_excluded(prefix, theirs, ours) -> None:
    lacking = [n for n in _public(theirs) if not hasattr(ours, n) and f"{prefix}{n}" not in EXCLUDED]
    assert lacking == [], f"in numpy.{prefix or ''} but neither in darray nor in darray/_exclusions.py"


def test_excluded_names_are_absent_and_say_why() -> None:
    for name, (why, _instead) in EXCLUDED.items():
        prefix, _, short = name.rpartition(".")
        ours = {"": da, "linalg": da.linalg, "fft": da.fft, "random": da.random, "ndarray": da.DArray}[prefix]
        assert not hasattr(ours, short), f"{name} is excluded but darray has it"
        if prefix in ("", "random"):
            with pytest.raises(AttributeError, match=why[:30]):
                getattr(ours, short)


def test_coverage_reaches_the_targets(capsys) -> None:
    """Main-namespace callables at least 90% present (excluded names count as absent), ndarray at
    least 60 of its 70 names, linalg and fft complete."""
    callables = [n for n in _public(np) if callable(getattr(np, n)) and not inspect.ismodule(getattr(np, n))]
    have = [n for n in callables if hasattr(da, n)]
    nd = _public(np.ndarray)
    nd_have = [n for n in nd if hasattr(da.DArray, n)]
    rows = [("numpy callables", len(have), len(callables))]
    rows += [(f"numpy.{p[:-1]}", sum(hasattr(o, n) for n in _public(t)), len(_public(t))) for p, t, o in SPACES[1:5]]
    rows += [("ndarray", len(nd_have), len(nd)), ("numpy, every public name", sum(hasattr(da, n) for n in _public(np)),
                                                  len(_public(np)))]
    with capsys.disabled():
        print("\nNumPy coverage: " + "; ".join(f"{what} {k}/{n} ({k / n:.0%})" for what, k, n in rows))
    assert len(have) >= 0.9 * len(callables), sorted(set(callables) - set(have))
    assert len(nd_have) >= 60
    for prefix, theirs, ours in SPACES[1:3]:
        assert [n for n in _public(theirs) if not hasattr(ours, n) and f"{prefix}{n}" not in EXCLUDED] == []
