"""When pending graphs run and what they store (``darray/lazy/evaluate.py``): a pending value that a
live array holds and two evaluations use is computed once (``evaluate.shared``, the cost rule in
``evaluate.decisions``, shown by ``explain``); an assignment of a pending value is one kernel over the
target view, also when the value reads views of the target that share no element with it; a write
runs only the pending graphs that read what it overwrites; a kernel still building leaves its first
calls to the host engine (``evaluate.launch``). ``test_lazy`` has the triggers and budgets.
"""
from __future__ import annotations

import numpy as np
import pytest

import darray as da

SHAPE = (40, 30)


@pytest.fixture
def place(cl_place):
    return cl_place


def _arrays(place, k=3):
    hs = [np.random.default_rng(s).uniform(0.5, 2.0, SHAPE) for s in range(k)]
    return hs, [da.asarray(h, device=place) for h in hs]


def _chain(xp, x):
    for _ in range(3):
        x = xp.tanh(xp.abs(x) / (x + 2.0))
    return x


def _kernels(p) -> list:
    return [r for r in p.launches if not r.name.startswith(("upload", "download", "device_to_host", "fill", "copy_",
                                                            "reduce_scratch"))]


def test_shared_value_is_computed_once(place):
    """``t`` (a chain a live array holds) feeds two assignments: the first stores it beside its own
    target (one kernel), the second reads it (one kernel), and both see NumPy's values."""
    (a, b, c), (A, B, C) = _arrays(place)
    o1, o2 = da.zeros(SHAPE, device=place), da.ones(SHAPE, device=place)
    da.synchronize()
    t = _chain(da, A)
    with da.profile() as p:
        o1[...] = t * C
        assert t._node is None  # stored by the first assignment's kernel
        o2[...] += t * B
        da.synchronize()
    assert len(_kernels(p)) == 2
    want = _chain(np, a)
    np.testing.assert_allclose(o1.get(), want * c, rtol=1e-12)
    np.testing.assert_allclose(o2.get(), 1 + want * b, rtol=1e-12)
    np.testing.assert_allclose(t.get(), want, rtol=1e-12)


def test_shared_value_stored_by_an_evaluation(place):
    """An evaluation (here a host read) stores the live pending values below its root too."""
    (a, _, _), (A, _, _) = _arrays(place)
    t = _chain(da, A)
    u = t * 3.0 + 1.0
    with da.profile() as p:
        got = u.get()
        assert t._node is None
        again = (t - 1.0).get()
    assert len(_kernels(p)) == 2
    np.testing.assert_allclose(got, _chain(np, a) * 3 + 1, rtol=1e-12)
    np.testing.assert_allclose(again, _chain(np, a) - 1, rtol=1e-12)


def test_shared_value_stored_then_reduced(place):
    """A value an assignment stored is read by a reduction after it (computed once). A reduction
    itself stores nothing: its own argument is a live array while it runs."""
    (a, _, c), (A, _, C) = _arrays(place)
    o = da.zeros(SHAPE, device=place)
    da.synchronize()
    t = _chain(da, A)
    with da.profile() as p:
        o[...] = t * C
        total = float((t * 2.0).sum())
        da.synchronize()
    assert t._node is None and len(_kernels(p)) == 2
    want = _chain(np, a)
    np.testing.assert_allclose(total, (want * 2.0).sum(), rtol=1e-12)
    np.testing.assert_allclose(o.get(), want * c, rtol=1e-12)
    u = _chain(da, A) + 1.0
    float((u * 2.0).sum())
    assert u._node is not None


def test_a_chain_used_once_takes_one_launch(place):
    """No extra launch for a chain consumed once: an evaluation, a reduction and an assignment of a
    chain no live array holds are one kernel each."""
    (a, _, _), (A, _, _) = _arrays(place)
    o = da.zeros(SHAPE, device=place)
    da.synchronize()
    for use in (lambda x: x.eval(), lambda x: float(x.sum()), lambda x: o.__setitem__(..., x)):
        with da.profile() as p:
            use(_chain(da, A) * 3.0)
            da.synchronize()
        assert len(_kernels(p)) == 1, [r.name for r in p.launches]


def test_one_op_values_and_other_shapes_are_recomputed(place):
    """A single op (reading its inputs again costs what storing it does) and values of another shape
    than the kernel's outputs stay pending."""
    (_, b, _), (A, B, _) = _arrays(place)
    one = A + 1.0
    row = _chain(da, B[0])  # shape (30,): broadcast into the kernel, not one of its outputs
    o = da.zeros(SHAPE, device=place)
    o[...] = one * 2.0 + row
    assert one._node is not None and row._node is not None
    np.testing.assert_allclose(o.get(), (A.get() + 1) * 2 + _chain(np, b[0]), rtol=1e-12)


def test_pending_value_assigned_in_one_kernel(place):
    """``o[...] = expr`` (a pending value of the target's shape) is one kernel writing the target,
    with a cast to its dtype; a value reading the target itself keeps the old values."""
    (a, b, _), (A, B, _) = _arrays(place)
    o = da.zeros(SHAPE, device=place)
    f = da.zeros(SHAPE, dtype=da.float32, device=place)
    da.synchronize()
    with da.profile() as p:
        o[...] = A * B + 1.0
        f[...] = A - B
        da.synchronize()
    assert len(_kernels(p)) == 2
    np.testing.assert_allclose(o.get(), a * b + 1)
    np.testing.assert_allclose(f.get(), (a - b).astype(np.float32))
    o[...] = o[::-1] * 2.0  # reads the target through another view: NumPy's result (a copy first)
    np.testing.assert_allclose(o.get(), ((a * b + 1) * 2)[::-1])


def test_stored_value_then_written_keeps_each_result(place):
    """A value stored by one kernel, then its source written: later reads of the value see what it
    was, the source's new values are read by new graphs."""
    (a, _, _), (A, _, _) = _arrays(place)
    t = _chain(da, A)
    o = da.zeros(SHAPE, device=place)
    o[...] = t + 0.5
    A[...] = 0.0
    np.testing.assert_allclose(t.get(), _chain(np, a), rtol=1e-12)
    np.testing.assert_allclose(_chain(da, A).get(), _chain(np, np.zeros(SHAPE)), rtol=1e-12)


def test_assignment_reading_an_interleaved_view_is_one_kernel(place):
    """``x[:, k] = f(x[:, k - 1])``: the two columns interleave in memory but share no element, so the
    kernel writes the target directly (no temporary and no second copy launch)."""
    (a, _, _), (A, _, _) = _arrays(place)
    da.synchronize()
    with da.profile() as p:
        for k in range(1, 4):
            A[:, k] = A[:, k - 1] * 0.5 + A[:, k]
        da.synchronize()
    for k in range(1, 4):
        a[:, k] = a[:, k - 1] * 0.5 + a[:, k]
    assert len(_kernels(p)) == 3
    np.testing.assert_array_equal(A.get(), a)


def test_first_call_runs_on_the_host_while_its_kernel_builds(place, monkeypatch):
    """Over the host engine's size limit, a graph whose kernel is not built yet runs on the host
    engine (exact ops only) while the build thread builds it; later calls launch the kernel, with
    the same bits. A graph that is not exact on the host waits for its build (a "build" wait)."""
    from darray import sched
    from darray.lazy import host
    from darray.place import runtime

    if not runtime(place).host_backed:
        pytest.skip("the host engine runs on host-backed devices only")
    monkeypatch.setattr(host, "LIMIT", 64)
    h = np.random.default_rng(7).uniform(-3, 3, 1000)
    x = da.asarray(h, device=place)
    f = lambda v: ((v * 3.0 - 1.5) * (v + 2.5) - v * 0.25) * (v - 7.0) + v  # noqa: E731
    with da.profile() as p:
        first = f(x).get()
    assert [r.stream for r in _kernels(p)] == [sched.HOST]  # (a structure no other test builds)
    assert da.place.finish_builds(120)
    with da.profile() as p:
        again = f(x).get()
    assert [r.stream for r in _kernels(p)] == [0]
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first, f(h))
    with da.profile() as p:  # tanh is not exact on the host: its kernel is waited for
        da.tanh(x * 1.25 + 0.5 - x * x * 0.125).get()
    assert [r.stream for r in _kernels(p)] == [0]


def test_a_written_value_kept_by_its_array(place):
    """``x[:, 1] = t`` with ``t`` pending (reading that column itself) computes ``t`` into the column in
    one kernel; ``t`` then reads its value there, and keeps it when the column is written again."""
    (a, _, _), (A, _, _) = _arrays(place)
    da.synchronize()
    t = A[:, 1] * 2.0 + 1.0
    u = A[:, 2] - 1.0  # a pending reader of another column: not run by the writes
    with da.profile() as p:
        A[:, 1] = t
        da.synchronize()
    assert len(_kernels(p)) == 1 and u._node is not None
    A[:, 1] = 0.0
    want = a[:, 1] * 2.0 + 1.0
    np.testing.assert_array_equal(t.get(), want)
    np.testing.assert_array_equal(u.get(), a[:, 2] - 1.0)
    a[:, 1] = 0.0
    np.testing.assert_array_equal(A.get(), a)


def test_explain_shows_what_is_stored_and_what_recomputed(place):
    (_, _, _), (A, B, _) = _arrays(place)
    row = da.asarray(np.ones(SHAPE[1]), device=place)
    t = da.tanh(A) * 2.0          # two ops of the kernel's shape: stored
    s = A + 1.0                   # one op: recomputed
    r = row * 3.0 - 1.0           # another shape: recomputed
    text = da.lazy.explain(t * s + r * B)
    notes = [line.split("; ", 1)[1] for line in text.split("\n\n")[0].splitlines() if "; " in line]
    assert notes == ["stored (held by a live array: computed once)",
                     "recomputed (one op: reading its inputs again costs what storing it does)",
                     "recomputed (shape [30], not the kernel's)"], text


def test_a_value_whose_kernel_does_not_build_runs_nothing_else(place):
    """An array whose kernel fails to build, evaluated with others: they are computed, it raises, and
    it stays pending out of the readers' registry, so a ``da.jit`` trace (which runs the pending
    arrays first) and a write into what it reads do not run it again; reading it raises again."""
    bad = da.ElementwiseKernel("float64 x", "float64 y", "y = undefined_name_of_this_test(x)", "broken_eval")
    (a, b, _), (A, B, _) = _arrays(place)
    t = A * 2.0 + 1.0
    kept = bad(A)
    with pytest.raises(da.DeviceError, match="build failed"):
        da.eval(kept, t)
    np.testing.assert_array_equal(t.get(), a * 2.0 + 1.0)
    f = da.jit(lambda x: x * 3.0)
    np.testing.assert_array_equal(f(B).get(), b * 3.0)
    A[...] = 0.0
    np.testing.assert_array_equal(A.get(), np.zeros(SHAPE))
    with pytest.raises(da.DeviceError, match="build failed"):
        kept.get()
