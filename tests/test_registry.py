"""The dispatch registry (``darray/_registry.py``, used through ``darray/ops/_dispatch.py``):
every op is registered for both place kinds and a missing implementation is a clear
NotImplementedError (``tests/test_imports.py`` checks that no module outside the registry and
``darray/place/`` branches on the kind of a place)."""
from __future__ import annotations

import numpy as np
import pytest

import darray as da
import darray.fft  # noqa: F401  (fft, random and sparse load on first use and register as they load)
import darray.random  # noqa: F401
import darray.sparse  # noqa: F401
from darray import _registry
from darray.ops import _dispatch as D

KINDS = {"cpu", "cl"}


def _registered() -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = {}
    for name, kind in _registry._impls:
        kinds.setdefault(name, set()).add(kind)
    return kinds


def test_every_op_is_registered_for_both_place_kinds() -> None:
    registered = _registered()
    assert {"elementwise", "matmul", "reduce", "sort", "getitem", "sparse.matvec", "random.draw",
            "fft.transform", "pickle.record", "from_dlpack", "convert.from_numpy"} <= set(registered)
    missing = {name: KINDS - kinds for name, kinds in registered.items() if kinds != KINDS}
    assert not missing, f"ops without an implementation for a place kind: {missing}"


def test_a_missing_implementation_names_op_and_place() -> None:
    with pytest.raises(NotImplementedError, match=r"darray no_such_op: no implementation for place cpu$"):
        D.implementation("no_such_op", da.CPUPlace())
    with pytest.raises(NotImplementedError, match=r"darray no_such_op: no implementation for place cl:0$"):
        D.implementation("no_such_op", da.CLPlace(0))
    x = np.array([3.0, -1.0, 2.0])  # the next call works
    assert np.array_equal(da.sort(da.asarray(x, device="cpu")).get(), np.sort(x))


def test_lookup_gives_the_implementation_of_the_place_kind() -> None:
    cpu, cl = D.implementation("sort", da.CPUPlace()), D.implementation("sort", da.CLPlace(0))
    assert cpu is _registry._impls[("sort", "cpu")] and cl is _registry._impls[("sort", "cl")] and cpu is not cl
