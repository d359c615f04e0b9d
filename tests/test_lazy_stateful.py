"""Lazy evaluation against NumPy, as a Hypothesis state machine.

Arrays are created, combined by lazy elementwise ops (+, -, *, /, sin, abs, maximum,
where, casts), viewed (slices, transposes, rows), written in place (``+=`` ...), slice-
assigned (also from overlapping views of the same memory), reduced, evaluated together
with ``da.eval`` or ``x.eval()``, dropped, and read at random times. The NumPy model runs
every step eagerly in order, so a pending darray graph must never see a later write.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import darray as da
from darray.lazy import host

PLACE: list = []
MAX_ARRAYS = 14
LIMIT = 1e3                # results beyond this are not kept (keeps float32 error bounded)

values = st.floats(-3, 3, width=32, allow_subnormal=False)
keys1 = st.sampled_from([slice(None), slice(1, None), slice(None, None, 2), slice(None, None, -1), slice(0, 1),
                         slice(1, 3)])


def key_for(ndim: int) -> st.SearchStrategy:
    return st.tuples(*[keys1] * ndim)


def close(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.shape == want.shape, (what, got.shape, want.shape)
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    scale = max(1.0, float(np.max(np.abs(want)))) if want.size else 1.0
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5 * scale, err_msg=what)


def fits(want: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(want))) and (want.size == 0 or float(np.max(np.abs(want))) < LIMIT)


BINARY = {
    "add": (lambda a, b: a + b, lambda a, b: a + b),
    "subtract": (lambda a, b: a - b, lambda a, b: a - b),
    "multiply": (lambda a, b: a * b, lambda a, b: a * b),
    "maximum": (da.maximum, np.maximum),
    "where_max": (lambda a, b: da.where(a > b, a, b), lambda a, b: np.where(a > b, a, b)),
    "where_min": (lambda a, b: da.where(a > b, b, a), lambda a, b: np.where(a > b, b, a)),
}
UNARY = {
    "sin": (da.sin, np.sin),
    "negative": (lambda a: -a, lambda a: -a),
    "abs": (da.abs, np.abs),
    "cast64": (lambda a: a.astype(da.float64), lambda a: a.astype(np.float64)),
    "cast32": (lambda a: a.astype(da.float32), lambda a: a.astype(np.float32)),
}
SCALAR = {
    "add": (lambda a, c: a + c, lambda a, c: a + c),
    "rsub": (lambda a, c: c - a, lambda a, c: c - a),
    "multiply": (lambda a, c: a * c, lambda a, c: a * c),
    "divide": (lambda a, c: a / c, lambda a, c: a / c),
}
INPLACE = {
    "iadd": lambda a, b: a.__iadd__(b),
    "isub": lambda a, b: a.__isub__(b),
    "imul": lambda a, b: a.__imul__(b),
}
REDUCE = ["sum", "max", "min", "mean"]


class LazyMachine(RuleBasedStateMachine):
    """``self.pairs``: (darray, NumPy model) with the same shape, dtype and aliasing (views of
    the model are NumPy views of the same base)."""

    def __init__(self) -> None:
        super().__init__()
        self.place = PLACE[0]
        self.pairs: list[tuple[da.DArray, np.ndarray]] = []

    def add(self, d: da.DArray, m: np.ndarray) -> None:
        if fits(m):
            assert d.shape == m.shape and d.dtype == m.dtype, (d.shape, m.shape, d.dtype, m.dtype)
            self.pairs.append((d, m))

    def pick(self, data, pred=lambda d, m: True):
        idx = [k for k, (d, m) in enumerate(self.pairs) if pred(d, m)]
        if not idx:
            return None
        return self.pairs[data.draw(st.sampled_from(idx))]

    # -- creating --------------------------------------------------------------------------
    @initialize(a=hnp.arrays(np.float32, (4, 4), elements=values), b=hnp.arrays(np.float32, (4,), elements=values))
    def start(self, a, b):
        self.pairs = [(da.asarray(a, device=self.place), a.copy()), (da.asarray(b, device=self.place), b.copy())]

    @precondition(lambda self: len(self.pairs) < MAX_ARRAYS)
    @rule(shape=st.sampled_from([(4, 4), (4,), (1, 4), (4, 1)]), data=st.data())
    def new(self, shape, data):
        host = data.draw(hnp.arrays(np.float32, shape, elements=values))
        self.add(da.asarray(host, device=self.place), host.copy())

    # -- lazy elementwise ------------------------------------------------------------------
    @precondition(lambda self: len(self.pairs) < MAX_ARRAYS)
    @rule(name=st.sampled_from(sorted(BINARY)), data=st.data())
    def binary(self, name, data):
        d1, m1 = self.pick(data)

        def ok(d, m):
            try:
                return len(np.broadcast_shapes(m.shape, m1.shape)) <= 2
            except ValueError:
                return False

        d2, m2 = self.pick(data, ok)
        fd, fn = BINARY[name]
        self.add(fd(d1, d2), fn(m1, m2))

    @precondition(lambda self: len(self.pairs) < MAX_ARRAYS)
    @rule(name=st.sampled_from(sorted(UNARY)), data=st.data())
    def unary(self, name, data):
        d, m = self.pick(data)
        fd, fn = UNARY[name]
        self.add(fd(d), fn(m))

    @precondition(lambda self: len(self.pairs) < MAX_ARRAYS)
    @rule(name=st.sampled_from(sorted(SCALAR)), c=st.sampled_from([0.5, 2.0, -1.5, 3.0]), data=st.data())
    def scalar(self, name, c, data):
        d, m = self.pick(data)
        fd, fn = SCALAR[name]
        self.add(fd(d, c), fn(m, c))

    # -- views -----------------------------------------------------------------------------
    @precondition(lambda self: len(self.pairs) < MAX_ARRAYS)
    @rule(data=st.data(), kind=st.sampled_from(["slice", "T", "row"]))
    def view(self, data, kind):
        d, m = self.pick(data, lambda d, m: m.ndim >= 1)
        if kind == "T":
            self.add(d.T, m.T)
        elif kind == "row" and m.ndim == 2 and m.shape[0]:
            i = data.draw(st.integers(0, m.shape[0] - 1))
            self.add(d[i], m[i])
        else:
            key = data.draw(key_for(m.ndim))
            self.add(d[key], m[key])

    # -- writes ----------------------------------------------------------------------------
    @rule(name=st.sampled_from(sorted(INPLACE)), data=st.data(), use_scalar=st.booleans(),
          c=st.sampled_from([0.5, 1.0, -2.0]))
    def inplace(self, name, data, use_scalar, c):
        d, m = self.pick(data)
        if use_scalar:
            d2, m2 = c, c
        else:
            got = self.pick(data, lambda d2, m2: _broadcasts_into(m2.shape, m.shape))
            if got is None:
                return
            d2, m2 = got
        trial = m.copy()
        INPLACE[name](trial, m2)
        if not fits(trial):
            return
        INPLACE[name](m, m2)                 # the model: NumPy handles overlap by itself
        assert INPLACE[name](d, d2) is d

    @rule(data=st.data(), use_scalar=st.booleans(), c=st.sampled_from([0.0, 7.0, -0.5]))
    def setitem(self, data, use_scalar, c):
        d, m = self.pick(data, lambda d, m: m.ndim >= 1)
        key = data.draw(key_for(m.ndim))
        sel = m[key].shape
        if use_scalar:
            d[key] = c
            m[key] = c
            return
        got = self.pick(data, lambda d2, m2: _broadcasts_into(m2.shape, sel))
        if got is None:
            return
        d2, m2 = got
        d[key] = d2
        m[key] = m2

    # -- consumers and triggers -----------------------------------------------------------
    @rule(data=st.data(), op=st.sampled_from(REDUCE), axis=st.sampled_from([None, 0, -1]))
    def reduce(self, data, op, axis):
        d, m = self.pick(data, lambda d, m: m.size > 0)
        if axis is not None and m.ndim == 0:
            axis = None
        got = getattr(d, op)(axis=axis)
        want = getattr(m, op)(axis=axis)
        want = np.asarray(want, dtype=want.dtype if hasattr(want, "dtype") else m.dtype)
        close(got.get(), want, f"{op}(axis={axis})")
        if got.ndim and len(self.pairs) < MAX_ARRAYS:
            self.add(got, want)

    @rule(data=st.data())
    def eval_several(self, data):
        k = data.draw(st.integers(1, min(4, len(self.pairs))))
        picked = data.draw(st.lists(st.sampled_from(range(len(self.pairs))), min_size=k, max_size=k))
        arrays = [self.pairs[i][0] for i in picked]
        da.eval(*arrays)
        assert all(a._node is None for a in arrays)

    @rule(data=st.data())
    def eval_one(self, data):
        d, _ = self.pick(data)
        assert d.eval() is d and d._node is None

    @rule(data=st.data())
    def read(self, data):
        d, m = self.pick(data)
        close(d.get(), m, "read")

    @precondition(lambda self: len(self.pairs) > 2)
    @rule(data=st.data())
    def drop(self, data):
        del self.pairs[data.draw(st.integers(0, len(self.pairs) - 1))]

    @invariant()
    def shapes_agree(self):
        for d, m in self.pairs:
            assert d.shape == m.shape and d.dtype == m.dtype

    def teardown(self):
        for k, (d, m) in enumerate(self.pairs):
            close(d.get(), m, f"array {k} at the end")


def _broadcasts_into(src, dst) -> bool:
    try:
        return np.broadcast_shapes(src, dst) == tuple(dst)
    except ValueError:
        return False


LazyMachine.TestCase.settings = settings(max_examples=30, stateful_step_count=25, deadline=None)


@pytest.fixture(autouse=True)
def _place(cl_place, lazy_mode, request, monkeypatch):
    PLACE[:] = [cl_place]
    if request.cls is TestLazyMachineOnHost:  # after conftest's lazy_mode, which turns the host path off
        monkeypatch.setattr(host, "LIMIT", 1 << 20)


TestLazyMachine = LazyMachine.TestCase


class TestLazyMachineOnHost(LazyMachine.TestCase):
    """The same machine with small graphs computed on the host (``darray.lazy.host``) whenever
    what they read is settled: host runs mixed with kernels, in-place writes and views."""
