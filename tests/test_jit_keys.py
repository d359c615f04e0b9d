"""da.jit's keys (darray/jit/__init__.py, jit/_tree.py): a program is replayed only where the unjitted
call would do exactly what it does. Sequences of calls that differ in one property at a time (a static
scalar's type, sign or NaN-ness, the size of the memory under a view, a view's offset, aliasing) give
the unjitted calls' results, or their exception class."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import darray as da
from darray.jit._tree import Static

pytestmark = pytest.mark.usefixtures("cl_place")


def outcome(fn: Callable[..., Any], *args: Any) -> tuple[str, Any]:
    """What calling ``fn`` gives: ("ok", host copy of the result) or ("raises", exception class)."""
    try:
        with np.errstate(all="ignore"):
            out = fn(*args)
            return "ok", np.asarray(out)
    except (ValueError, TypeError, OverflowError, ZeroDivisionError, IndexError) as err:
        return "raises", type(err)


def same(got: tuple[str, Any], want: tuple[str, Any]) -> None:
    assert got[0] == want[0], (got, want)
    if got[0] == "raises":
        assert got[1] is want[1]
        return
    g, w = got[1], want[1]
    assert g.dtype == w.dtype and g.shape == w.shape, (g, w)
    assert g.tobytes() == w.tobytes() or np.array_equal(g, w, equal_nan=True), (g, w)


# Bodies over an array ``x``, a second array ``y`` and a static scalar ``s``.
BODIES: dict[str, Callable[..., Any]] = {
    "scale": lambda x, y, s: x * s,
    "reciprocal": lambda x, y, s: 1 / (x * s),
    "shift_sum": lambda x, y, s: (x + s).sum(),
    "where": lambda x, y, s: da.where(x > s, x, y),
    "floor_divide": lambda x, y, s: x // s,
    "update": lambda x, y, s: (x.__iadd__(y), (x * s).sum())[1],
    "whole_memory": lambda x, y, s: da.lib.stride_tricks.as_strided(x, (64,), (x.itemsize,)).sum() * s,
}

SCALARS = [1, 1.0, True, 0.0, -0.0, float("nan"), -1, 100, 100.0, 2.5, 1 + 0j, np.float64(1.0), np.float32(1.0),
           np.int8(1), np.int64(100), float("inf"), -float("inf")]


def arrays(kind: str, dtype: Any, n: int = 16) -> tuple[da.DArray, da.DArray]:
    """``x`` and ``y`` of ``n`` elements laid out as ``kind`` says."""
    base = np.arange(1, 65, dtype=dtype) % 7
    if kind == "exact":   # memory exactly the view's
        x = da.asarray(base[:n])
    elif kind == "inside":  # a view at the start of a larger allocation
        x = da.asarray(base)[:n]
    elif kind == "offset":  # further into it
        x = da.asarray(base)[8:8 + n]
    elif kind == "reversed":
        x = da.asarray(base)[n - 1::-1] if n < 64 else da.asarray(base)[::-1]
    else:  # "strided"
        x = da.asarray(base)[::2][:n]
    if kind == "alias":
        return x, x
    return x, da.asarray(base[:n][::-1].copy())


KINDS = ["exact", "inside", "offset", "reversed", "strided", "alias"]


@given(body=st.sampled_from(sorted(BODIES)), dtype=st.sampled_from([np.int8, np.int32, np.float32, np.float64]),
       calls=st.lists(st.tuples(st.sampled_from(KINDS), st.sampled_from(range(len(SCALARS)))), min_size=2, max_size=6))
def test_calls_that_differ_in_one_property_equal_the_unjitted(body, dtype, calls):
    fn = BODIES[body]
    jitted = da.jit(fn)
    for kind, k in calls:
        s = SCALARS[k]
        x1, y1 = arrays(kind, dtype)
        x2, y2 = arrays(kind, dtype)
        same(outcome(jitted, x1, y1, s), outcome(fn, x2, y2, s))
        same(outcome(lambda a: np.asarray(a), x1), outcome(lambda a: np.asarray(a), x2))  # in-place updates too


def test_a_replay_never_reads_past_a_smaller_argument():
    f = da.jit(lambda u: da.lib.stride_tricks.as_strided(u, (4096,), (4,)).sum())
    big = da.ones(4096, dtype=np.float32)
    assert float(f(big[:1024])) == 4096.0
    da.full(3072, 7.0, dtype=np.float32)
    with pytest.raises(ValueError, match="as_strided"):
        f(da.ones(1024, dtype=np.float32))
    assert float(f(da.ones(4096, dtype=np.float32)[:1024])) == 4096.0  # the sized program, replayed
    assert f.traces == 1 and f.hits == 1  # (a trace that raised is not counted or kept)


def test_programs_without_raw_strides_ignore_the_memory_size():
    f = da.jit(lambda u: (u * 2).sum())
    f(da.ones(4096, dtype=np.float32)[:1024])
    f(da.ones(1024, dtype=np.float32))
    assert f.traces == 1 and f.hits == 1


@pytest.mark.parametrize("a, b", [(100, 100.0), (0.0, -0.0), (1, True), (1.0, np.float64(1.0)), (1.0, 1 + 0j),
                                  (1, np.int8(1)), (np.float32(1), np.float64(1))])
def test_equal_statics_of_another_type_or_sign_retrace(a, b):
    assert a == b and Static(a) != Static(b)
    g = da.jit(lambda x, s: x * s)
    x = da.arange(4, dtype=np.int8)
    for s in (a, b):
        same(outcome(g, x, s), outcome(lambda x, s: x * s, x, s))
    assert g.traces == 2


def test_nan_statics_share_a_program():
    g = da.jit(lambda x, s: x + s)
    x = da.ones(3)
    g(x, float("nan"))
    g(x, float("nan"))  # another NaN object
    assert g.traces == 1 and g.hits == 1
    assert Static(np.float64("nan")) != Static(float("nan"))
    assert Static((0.0, 1)) != Static((-0.0, 1))


def test_static_argnames_values_are_keyed_by_type_and_sign():
    g = da.jit(lambda x, s: 1 / (x * s[0]), static_argnames=("s",))
    y = da.ones(3)
    assert np.all(np.asarray(g(y, (0.0,))) == np.inf)
    assert np.all(np.asarray(g(y, (-0.0,))) == -np.inf)
    assert g.traces == 2
