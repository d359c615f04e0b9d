"""Small graphs computed through NumPy on host-backed devices (``darray.lazy.host``).

The host path must give the kernel's bits exactly (lazy and eager results stay identical),
run only ops the op table marks exact, and run only once what it depends on has completed.
conftest turns it off (``host.LIMIT = 0``) outside its "host" mode; these tests set it.
"""
from __future__ import annotations

import threading

import numpy as np
import pyopencl as cl
import pytest
from helpers import in_threads
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import darray as da
from darray import sched
from darray.lazy import at_once, host
from darray.lazy.graph import known_value
from darray.ops._table import OPS, TABLE
from darray.place import runtime

D = np.dtype
KIND_DTYPES = {"b": [D("bool")], "i": [D("int8"), D("int64")], "u": [D("uint8"), D("uint64")],
               "f": [D("float32"), D("float64")]}
CASES = [(op, dt) for op in OPS if op.host for kind in op.host for dt in KIND_DTYPES[kind]]


@pytest.fixture(scope="module")
def place(cl_place):
    if not runtime(cl_place).host_backed:
        pytest.skip(f"{cl_place} is not host-backed: no host path")  # GPUs; CI's PoCL CPU device is
    return cl_place


def launches(fn):
    """``fn()``'s result as NumPy and the stream ids of its launches (-1: run on the host)."""
    with da.profile() as p:
        out = fn()
        out = out.get() if isinstance(out, da.DArray) else [o.get() for o in out]
    return out, [r.stream for r in p.launches if r.name != "device_to_host"]


def both(fn):
    """``fn()`` through kernels and through the host path: (kernel result, host result, host streams)."""
    old = host.LIMIT
    try:
        host.LIMIT = 0
        kernel, streams = launches(fn)
        assert sched.HOST not in streams
        host.LIMIT = 1 << 20
        da.synchronize()  # the inputs' writes are known complete: the host path may run
        got, streams = launches(fn)
    finally:
        host.LIMIT = old
    return kernel, got, streams


def same_bits(a: np.ndarray, b: np.ndarray) -> None:
    """The same bits, but NaN's: NaN at the same places, whatever its sign and payload (IEEE 754 leaves
    which operand's NaN an op returns open, and a compiler may swap the operands of ``x * y``)."""
    assert a.dtype == b.dtype and a.shape == b.shape
    if a.dtype.kind == "f":
        nan = np.isnan(a)
        np.testing.assert_array_equal(nan, np.isnan(b))
        a, b = a[~nan].view(f"u{a.itemsize}"), b[~nan].view(f"u{b.itemsize}")
    np.testing.assert_array_equal(a, b)


def values(dtype: np.dtype, n: int) -> st.SearchStrategy:
    """Arrays of ``dtype`` rich in edge values: NaN, +-inf, -0.0, huge; integer extremes."""
    if dtype.kind == "f":
        special = [np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, -2.5, 3e38]
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        special = [0, 1, int(info.min), int(info.max), int(info.max) // 2]
    else:
        special = [False, True]
    return hnp.arrays(dtype, n, elements=st.sampled_from(special).map(dtype.type) | hnp.from_dtype(dtype))


@pytest.mark.parametrize("op, dtype", CASES, ids=[f"{o.name}-{d}" for o, d in CASES])
@settings(max_examples=5)
@given(data=st.data())
def test_exact_ops_give_the_kernels_bits(place, op, dtype, data):
    n = data.draw(st.integers(2, 40), label="n")
    dts = [D("bool"), dtype, dtype] if op.name == "where" else [dtype] * op.arity
    args = [data.draw(values(d, n), label=f"x{i}") for i, d in enumerate(dts)]
    xs = [da.asarray(a, device=place) for a in args]
    fn = getattr(da, op.name)
    try:
        kernel, got, streams = both(lambda: fn(*xs))
    except TypeError:  # not defined for this dtype (e.g. subtract of bool), as in NumPy
        return
    same_bits(kernel, got)
    if streams != [sched.HOST]:  # float16 or an inexact cast: the kernel ran
        assert sched.HOST not in streams


def test_chain_over_views_and_scalars_is_one_host_run(place):
    base = np.arange(-12, 12, dtype=np.float32).reshape(4, 6) / 3
    ints = np.arange(6, dtype=np.int32)

    def chain(xp, x, i):
        t = x.T[::-1]                          # transposed, negative step: (6, 4)
        y = (t * 2.5 - i[None, :4]) / 3        # broadcast; int32 with float32 computes in float64
        return xp.where(y > 0, xp.maximum(y, -y), xp.floor(y) + x[0, :4])

    x, i = da.asarray(base, device=place), da.asarray(ints, device=place)
    kernel, got, streams = both(lambda: chain(da, x, i))
    same_bits(kernel, got)
    assert streams == [sched.HOST]
    same_bits(got, chain(np, base, ints))


def test_several_outputs_in_one_host_run(place):
    x = da.asarray(np.arange(10, dtype=np.int64), device=place)
    def pair():
        out = (x * 3 - 1, (x & 6) == 2)
        da.eval(*out)
        return out

    kernel, got, streams = both(pair)
    assert streams == [sched.HOST]
    for k, g in zip(kernel, got):
        same_bits(k, g)


def test_inexact_ops_and_casts_launch_kernels(place, monkeypatch):
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    x = da.asarray(np.linspace(-3, 3, 16, dtype=np.float32), device=place)
    u, i = (da.asarray(np.arange(16, dtype=d), device=place) for d in (np.uint64, np.int64))
    da.synchronize()
    for fn in (lambda: da.sin(x), lambda: x ** 1.5, lambda: u + i):  # u + i: uint64 -> float64 casts
        _, streams = launches(fn)
        assert streams and sched.HOST not in streams


def test_over_the_work_limit_launches_a_kernel(place, monkeypatch):
    x = da.asarray(np.ones(100, np.float32), device=place)
    monkeypatch.setattr(host, "LIMIT", 0)
    da.eval(x * 2 + 1)  # the kernel built (a call whose kernel is building runs on the host meanwhile)
    da.synchronize()
    monkeypatch.setattr(host, "LIMIT", 199)  # 100 elements x 2 nodes
    _, streams = launches(lambda: x * 2 + 1)
    assert sched.HOST not in streams
    monkeypatch.setattr(host, "LIMIT", 200)
    _, streams = launches(lambda: x * 2 + 1)
    assert streams == [sched.HOST]


def test_work_limit_counts_pending_nodes_once(place, monkeypatch):
    """The limit counts the distinct nodes still pending, not the recorded bound (shared nodes
    counted twice, nodes since materialised counted). Under a profile the ops are recorded."""
    x = da.asarray(np.ones(100, np.float32), device=place)
    da.synchronize()
    monkeypatch.setattr(host, "LIMIT", 300)  # 3 nodes of 100 elements

    def shared():
        s = x * 2 + 1
        y = s * s  # recorded size 5, 3 distinct pending nodes
        assert y._node.size == 5
        return y

    out, streams = launches(shared)
    assert streams == [sched.HOST]
    np.testing.assert_array_equal(out, np.full(100, 9, np.float32))

    def later():
        t = x * 2 + 1
        u = t * 3 + 1 + 1  # recorded size 5; once t has run, 3 pending nodes
        t.eval()
        return u

    out, streams = launches(later)
    assert streams == [sched.HOST, sched.HOST]
    np.testing.assert_array_equal(out, np.full(100, 11, np.float32))


def test_pending_input_is_waited_for_then_computed_on_the_host(place, monkeypatch):
    """An input whose last write is still queued: the host waits for that write, then computes
    (a kernel instead would make which programs get built depend on timing)."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    x = da.asarray(np.arange(8, dtype=np.float32), device=place)
    da.synchronize()
    gate = cl.UserEvent(runtime(place).context)
    entry = sched.launch("gate", lambda q, wait_for: cl.enqueue_marker(q, wait_for=[gate]), place=place,
                         writes=[x._alloc])
    opened = threading.Timer(0.2, gate.set_status, (cl.command_execution_status.COMPLETE,))
    opened.start()
    try:
        with da.profile() as p:
            y = x + 1
            y.eval()  # returns once the gate opened and the host computed y
            assert sched.is_done(entry) and y._alloc.write is None
    finally:
        opened.join()
    assert [r.stream for r in p.launches] == [sched.HOST]
    np.testing.assert_array_equal(y.get(), np.arange(8, dtype=np.float32) + 1)
    _, streams = launches(lambda: x + 1)  # the next call works the same way
    assert streams == [sched.HOST]


def test_ops_over_settled_arrays_run_at_once(place, monkeypatch):
    """An exact op over settled arrays is computed as it is called (no graph, no launch listed);
    over a pending array, an inexact op, past the limit, under a profile it is recorded."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    h = np.linspace(-1, 1, 50)
    x = da.asarray(h, device=place)
    da.synchronize()
    y = x * 2 + 1
    assert y._node is None
    np.testing.assert_array_equal(y.get(), h * 2 + 1)
    e = da.exp(x)  # inexact: recorded
    assert e._node is not None and (e + 1)._node is not None  # over a pending array: recorded
    with da.profile():
        assert (x + 1)._node is not None
    monkeypatch.setattr(at_once, "NOW_MAX", 49)  # larger arrays: recorded (a chain of them fuses into one kernel)
    assert (x + 1)._node is not None
    monkeypatch.setattr(at_once, "NOW_MAX", 50)
    monkeypatch.setattr(host, "LIMIT", 49)
    assert (x + 1)._node is not None


def test_ops_over_empty_arrays_run_at_once(place, monkeypatch):
    """An op with an empty result reads nothing: a new empty array at once (no graph), with NumPy's
    dtype and broadcast shape; darray's errors on the scalars still come first."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    e = da.zeros((0, 3), dtype=da.float32, device=place)
    row = da.asarray(np.ones(3, np.float32), device=place)
    da.synchronize()
    for y, want in ((e + row, np.zeros((0, 3), np.float32) + np.ones(3, np.float32)),
                    (e < 1.5, np.zeros((0, 3), np.float32) < 1.5), (da.sqrt(e), np.sqrt(np.zeros((0, 3), np.float32)))):
        assert y._node is None and y.shape == want.shape and y.dtype == want.dtype
        assert y.get().shape == want.shape
    with pytest.raises(OverflowError, match="darray add"):
        da.zeros(0, dtype=da.int8, device=place) + 300
    monkeypatch.setattr(host, "LIMIT", 0)  # host path off: recorded, the same result
    y = e + row
    assert y._node is not None and y.get().shape == (0, 3)


def _count_puts(monkeypatch):
    """A list that gets True for each ``at_once.put`` that put its values at once, False for each refusal."""
    done: list[bool] = []
    put = at_once.put

    def spy(*args):
        out = put(*args)
        done.append(out is not None)
        return out
    monkeypatch.setattr(at_once, "put", spy)
    return done


def test_uploads_fills_and_selections_are_put_at_once(place, monkeypatch):
    """asarray, full/zeros/ones, x[mask] and nonzero copy NumPy's values into a pooled block as
    they are called (over the views of every layout NumPy gives); under a profile, past the work
    limit or with the host path off they take the upload or fill command."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    done = _count_puts(monkeypatch)
    h = np.arange(24, dtype=np.float64).reshape(4, 6)
    for view in (h, h[::-1], h.T, h[:, ::2], h[1:3, 2:5], h[::-2, ::-3]):
        got = da.asarray(view, device=place)
        assert got._dim.is_c_contiguous or (got._dim.is_f_contiguous and view.flags.f_contiguous)  # (order "K")
        np.testing.assert_array_equal(got.get(), view)
    assert done and all(done)
    done.clear()
    for made, want in ((da.zeros((3, 5), dtype=da.int16, device=place), np.zeros((3, 5), np.int16)),
                       (da.full(7, -0.0, device=place), np.full(7, -0.0)),
                       (da.full(4, 2.9, dtype=da.int32, device=place), np.full(4, 2.9).astype(np.int32)),
                       (da.ones((2, 2), dtype=da.bool, device=place), np.ones((2, 2), bool))):
        assert made.dtype == want.dtype
        np.testing.assert_array_equal(made.get(), want)
        assert np.signbit(made.get()).tolist() == np.signbit(want).tolist()
    x = da.asarray(h, device=place)
    da.synchronize()
    np.testing.assert_array_equal(x[x > 7.5].get(), h[h > 7.5])
    np.testing.assert_array_equal(da.nonzero(x > 20)[1].get(), np.nonzero(h > 20)[1])
    assert done and all(done)
    done.clear()
    with da.profile() as p:
        np.testing.assert_array_equal(da.zeros(5, device=place).get(), np.zeros(5))
        np.testing.assert_array_equal(da.asarray(h[::2], device=place).get(), h[::2])
    assert not any(done) and p.launches  # the fill and the upload are listed
    monkeypatch.setattr(host, "LIMIT", 23)  # the values of a 24-element array: past the limit
    np.testing.assert_array_equal(da.asarray(h, device=place).get(), h)
    np.testing.assert_array_equal(da.full((4, 6), 3, device=place).get(), np.full((4, 6), 3))
    assert not any(done[-2:])


@pytest.mark.parametrize("n", [1, 7, 63, 64, 65, 255, 256, 257, 4095, 4096, 4097, 16385, 32768, 32769])
@pytest.mark.parametrize("dtype", [np.dtype(t) for t in ("bool", "int8", "float32", "float64")], ids=str)
def test_put_sizes_around_lane_block_and_limit_edges(place, monkeypatch, n, dtype):
    """Uploads of reversed, stepped and transposed views, fills, x[mask], nonzero and mask
    assignments at sizes around the lane, chunk and work-limit edges (32769: past ``LIMIT``, the
    command paths) give NumPy's values."""
    monkeypatch.setattr(host, "LIMIT", 32768)
    rng = np.random.default_rng(n)
    base = (rng.standard_normal(2 * n) * 50).astype(dtype)
    flipped, stepped, across = base[::-1][:n], base[::2], base.reshape(2, n).T
    for view in (flipped, stepped, across):
        np.testing.assert_array_equal(da.asarray(view, device=place).get(), view)
    fill = np.array(-0.0 if dtype.kind == "f" else 1).astype(dtype)
    made = da.full(n, fill, dtype=dtype, device=place).get()
    np.testing.assert_array_equal(made, np.full(n, fill, dtype))
    assert np.signbit(made).tolist() == np.signbit(np.full(n, fill, dtype)).tolist()
    np.testing.assert_array_equal(da.zeros((n, 1), dtype=dtype, device=place).get(), np.zeros((n, 1), dtype))
    x = da.asarray(flipped, device=place)
    m = rng.random(n) < 0.5
    dm = da.asarray(m, device=place)
    np.testing.assert_array_equal(x[dm].get(), flipped[m])
    np.testing.assert_array_equal(da.nonzero(dm)[0].get(), np.nonzero(m)[0])
    want = flipped.copy()
    want[m] = want[~m][:1].repeat(m.sum()) if (~m).any() else want[m]
    x[dm] = x[~dm][:1].reshape(()) if (~m).any() else x[dm]
    np.testing.assert_array_equal(x.get(), want)


def test_put_waits_for_no_pending_block(place, monkeypatch):
    """A pooled block an earlier owner's command still uses is not filled at once: the fill is
    ordered after that command instead."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    done = _count_puts(monkeypatch)
    x = da.asarray(np.arange(64, dtype=np.float32), device=place)
    da.synchronize()
    gate = cl.UserEvent(runtime(place).context)
    sched.launch("gate", lambda q, wait_for: cl.enqueue_marker(q, wait_for=[gate]), place=place, reads=[x._alloc])
    del x  # its block goes back to the pool with the gated read pending
    opener = threading.Timer(0.2, gate.set_status, (cl.command_execution_status.COMPLETE,))
    opener.start()  # the fill waits for the gate (a host fill waits on the calling thread)
    try:
        y = da.full(64, 5.0, dtype=da.float32, device=place)  # the same size class: that block
    finally:
        opener.join()
    np.testing.assert_array_equal(y.get(), np.full(64, 5.0, np.float32))
    assert done[-1] is False


def test_host_views_are_kept_on_pool_blocks(place, monkeypatch):
    """A loop's next result lands in the block the last one freed, whose host view is kept: the
    same NumPy view serves it, with the new values; a merge of free blocks drops the view."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    a = da.asarray(np.linspace(0, 1, 1000), device=place)
    b = da.asarray(np.linspace(1, 2, 1000), device=place)
    da.synchronize()
    y = a + b
    view = y._alloc.view
    assert view is not None and view[0] is y._dim
    block = y._alloc.block
    del y
    z = a * b
    assert z._alloc.block is block and z._alloc.view[2] is view[2]
    np.testing.assert_array_equal(z.get(), np.linspace(0, 1, 1000) * np.linspace(1, 2, 1000))
    del z
    da.alloc.empty_cache(place)  # stacked blocks merge into the free lists
    assert block.view is None


def test_at_once_waits_for_no_write(place, monkeypatch):
    """An argument whose last write is still queued: the op is recorded (its evaluation waits)."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    x = da.asarray(np.arange(8, dtype=np.float32), device=place)
    da.synchronize()
    gate = cl.UserEvent(runtime(place).context)
    sched.launch("gate", lambda q, wait_for: cl.enqueue_marker(q, wait_for=[gate]), place=place, writes=[x._alloc])
    try:
        y = x + 1
        assert y._node is not None
    finally:
        gate.set_status(cl.command_execution_status.COMPLETE)
    np.testing.assert_array_equal(y.get(), np.arange(8, dtype=np.float32) + 1)


def test_at_once_keeps_darrays_errors(place, monkeypatch):
    """A Python int out of the array's range: the recorded op's OverflowError naming the op."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    x = da.asarray(np.arange(4, dtype=np.int8), device=place)
    da.synchronize()
    with pytest.raises(OverflowError, match="darray add"):
        x + 300
    assert (x + 1).get().tolist() == [1, 2, 3, 4]


def test_disabled_when_the_device_is_not_host_backed(place, monkeypatch):
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    monkeypatch.setattr(runtime(place), "host_backed", False)
    x = da.asarray(np.ones(4, np.float32), device=place)
    da.synchronize()
    _, streams = launches(lambda: x + 1)
    assert sched.HOST not in streams


def test_pool_memory_is_page_aligned_host_memory(place):
    x = da.asarray(np.arange(1000, dtype=np.float32), device=place)
    seg = x._alloc.host
    assert seg is not None and seg.ctypes.data % 4096 == 0
    da.synchronize()
    np.testing.assert_array_equal(seg[x._alloc.offset:x._alloc.offset + 4000].view(np.float32), x.get())


def test_host_backed_off_by_environment(place):
    import os
    import subprocess
    import sys

    code = ("import darray as da, numpy as np\n"
            "x = da.asarray(np.arange(5, dtype=np.float32))\n"
            "assert not da.place.runtime(x.place).host_backed and x._alloc.host is None\n"
            "assert ((x + 1).get() == np.arange(5) + 1).all()\n"
            "print('ok')\n")
    env = {**os.environ, "DARRAY_HOST_BACKED": "0", "DARRAY_DEVICE": str(place)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_host_paths_stay_off_inside_a_jit_trace(place, monkeypatch):
    """A ``da.jit`` trace records kernels: a scatter and a fill that would run on the host eagerly
    (``host.usable``) are traced as kernels instead, and replay gives the eager result."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)

    def body(x, idx):
        y = x * 2
        y[idx] = 1.0
        return y + da.any(x > 4)

    x = da.asarray(np.arange(6.0), device=place)
    idx = da.asarray(np.array([0, 4]), device=place)
    want = np.arange(6.0) * 2
    want[[0, 4]] = 1
    want += 1
    np.testing.assert_array_equal(body(x, idx).get(), want)  # eagerly: on the host
    f = da.jit(body)
    for _ in range(2):  # trace, then replay
        np.testing.assert_array_equal(f(x, idx).get(), want)


# -- one op over views, on the host ------------------------------------------------------------

NOW_OPS = ["add", "subtract", "multiply", "maximum", "less", "bitwise_and", "where", "negative", "floor", "sqrt",
           "reciprocal", "clip"]
UNARY_NOW = ("negative", "floor", "sqrt", "reciprocal")


def _viewed(x: da.DArray, how: int) -> da.DArray:
    """x as itself, reversed, stepped or transposed."""
    return x if how == 0 or x.ndim == 0 else x[::-1] if how == 1 else x[::2] if how == 2 else x.T


@settings(max_examples=30)
@given(data=st.data())
def test_one_op_over_views_runs_on_the_host_as_numpy(place, data):
    """Every view layout, 0-d, scalars: one host run, with the kernel's bits (``both``) and NumPy's."""
    name = data.draw(st.sampled_from(NOW_OPS), label="op")
    dtype = D(data.draw(st.sampled_from(["float32", "float64", "int32"] if name != "bitwise_and" else
                                        ["int8", "uint64", "bool"]), label="dtype"))
    shape = data.draw(st.sampled_from([(), (7,), (4, 6), (1, 9), (257,), (3, 1366), (4097,)]), label="shape")
    fn = getattr(da, name)
    arity = 3 if name in ("where", "clip") else 1 if name in UNARY_NOW else 2
    if name in ("floor", "sqrt", "reciprocal") and dtype.kind != "f" or name == "negative" and dtype.kind == "b":
        return
    hosts = [data.draw(values(D("bool") if name == "where" and i == 0 else dtype, int(np.prod(shape))),
                       label=f"x{i}").reshape(shape) for i in range(arity)]
    hows = [data.draw(st.integers(0, 3), label=f"view{i}") if shape else 0 for i in range(arity)]
    xs = [_viewed(da.asarray(h, device=place), k) for h, k in zip(hosts, hows)]
    if arity == 2 and data.draw(st.booleans(), label="scalar"):
        xs[1], hosts[1], hows[1] = 3, 3, 0
    args = [_viewed(np.asarray(h), k) if isinstance(h, np.ndarray) else h for h, k in zip(hosts, hows)]
    try:  # clip: the kernel's tie rule (NumPy's differs with array bounds at signed zeros: ops/_table.py)
        want = TABLE["clip"].compute(*args) if name == "clip" else getattr(np, name)(*args)
    except ValueError:  # shapes that do not broadcast: NumPy's error class
        with pytest.raises(ValueError):
            fn(*xs)
        assert (xs[0] + 0).shape == xs[0].shape  # the next call works
        return
    old = host.LIMIT
    try:
        host.LIMIT = 1 << 20
        y = fn(*xs)  # over settled arrays: computed as it is called (at_once.compute), no graph
        with da.profile() as p:  # under a profile the op is recorded: one host run, no walk
            z = fn(*xs)
            z.eval()
    finally:
        host.LIMIT = old
    assert y._node is None if shape else known_value(y._node) is not None  # a 0-d result: held as its value
    assert [r.stream for r in p.launches] == [sched.HOST]
    kernel, got, _ = both(lambda: fn(*xs))
    same_bits(kernel, got)
    same_bits(y.get(), got)
    same_bits(z.get(), got)
    same_bits(np.asarray(want, dtype=got.dtype), got)


def test_in_place_write_after_pending_reads(place, monkeypatch):
    """In-place writes never change what an earlier expression sees, host run or kernel."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    h = np.arange(8, dtype=np.float64)
    x = da.asarray(h, device=place)
    pending = da.exp(x)          # inexact: a kernel
    now = x * 2                  # exact: a host run
    x += 5
    x[1:3] = -1
    np.testing.assert_array_equal(now.get(), h * 2)
    np.testing.assert_array_equal(pending.get(), da.exp(da.asarray(h, device=place)).get())
    np.testing.assert_array_equal((x * 1).get(), np.r_[5.0, -1, -1, h[3:] + 5])


def test_host_runs_raise_no_floating_point_warnings(place, monkeypatch):
    """NumPy's divide-by-zero and invalid flags stay quiet, as in the kernels; errors are NumPy's."""
    import warnings

    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    f = da.asarray(np.array([1.0, 0.0, -1.0]), device=place)
    i = da.asarray(np.array([1, 0, 3]), device=place)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = (f / 0).get(), (i // da.zeros(3, dtype=da.int64, device=place)).get(), da.floor(f / f).get()
    assert np.isinf(got[0][0]) and np.isnan(got[0][1]) and np.isnan(got[2][1])
    with pytest.raises(ValueError):
        i ** -1
    np.testing.assert_array_equal((i ** 2).get(), [1, 0, 9])  # the next call works


def test_host_runs_from_threads(place, monkeypatch):
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    h = np.arange(64, dtype=np.int64)
    x = da.asarray(h, device=place)

    def work(k: int) -> None:
        for _ in range(50):
            np.testing.assert_array_equal(((x * k) + k).get(), h * k + k)

    in_threads(work)


def test_graph_over_a_since_materialised_inexact_node_runs_on_the_host(place, monkeypatch):
    """A graph built over a pending inexact node runs on the host once that node has run."""
    monkeypatch.setattr(host, "LIMIT", 1 << 20)
    h = np.linspace(0.5, 4, 12)
    x = da.asarray(h, device=place)
    s = da.exp(x)
    a = (s + 1) * 3                 # pending over s: not exact on the host as built
    assert a._node is not None and not a._node.host
    s.eval()
    with da.profile() as p:
        a.eval()
    assert [r.stream for r in p.launches] == [sched.HOST]
    np.testing.assert_array_equal(a.get(), (s.get() + 1) * 3)


def test_a_trace_on_any_thread_turns_the_engine_off(place, monkeypatch):
    """``host.on`` is the engine's one switch: off while a ``da.jit`` trace records on another thread
    (an op there runs as a kernel, with the same result), on again once it ends."""
    monkeypatch.setattr(host, "LIMIT", 1 << 15)
    assert host.on(place)
    started, stop = threading.Event(), threading.Event()

    def trace() -> None:
        with sched.recording(sched.Recorder()):
            started.set()
            stop.wait(10)

    t = threading.Thread(target=trace)
    t.start()
    try:
        started.wait(10)
        assert not host.on(place) and not host.usable(place, 1)
        x = da.asarray(np.arange(8.0), device=place)
        got, streams = launches(lambda: x * 2.0 + 1.0)
        np.testing.assert_array_equal(got, np.arange(8.0) * 2.0 + 1.0)
        assert streams and -1 not in streams  # a kernel, not the host
    finally:
        stop.set()
        t.join()
    assert host.on(place)
