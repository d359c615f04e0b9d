"""da.jit: traced programs replay to the unjitted function's bits; keys, errors, in-place updates,
threads and the arena plan."""
from __future__ import annotations

import numpy as np
import pytest
from helpers import in_threads
from hypothesis import given
from hypothesis import strategies as st

import darray as da
from darray.jit import _program

pytestmark = pytest.mark.usefixtures("cl_place")


def same_bits(got: da.DArray, want: da.DArray) -> None:
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape
    assert g.tobytes() == w.tobytes() or np.array_equal(g, w, equal_nan=True)


# -- programs of mixed ops -------------------------------------------------------------------------
UNARY = ["exp", "sin", "abs", "negative", "sqrt", "floor", "tanh"]
BINARY = ["add", "multiply", "subtract", "maximum", "divide", "minimum"]


def run_program(prog: list[tuple], x: da.DArray, y: da.DArray) -> tuple[da.DArray, da.DArray]:
    """Apply ``prog`` (a list of instructions) to x and y: the body both jitted and not."""
    for ins in prog:
        kind = ins[0]
        if kind == "unary":
            x = getattr(da, ins[1])(x)
        elif kind == "binary":
            x = getattr(da, ins[1])(x, y if ins[2] else ins[3])
        elif kind == "swap":
            x, y = y, x
        elif kind == "reverse":
            x = x[::-1]
        elif kind == "transpose":
            x = x.T
        elif kind == "sum":
            x = x + x.sum(axis=-1, keepdims=True) * 0.5
        elif kind == "max":
            x = x - da.max(x)
        elif kind == "inplace":
            y += 1.5
        elif kind == "where":
            x = da.where(x > 0, x, y)
    return x, y


INSTR = st.one_of(
    st.tuples(st.just("unary"), st.sampled_from(UNARY)),
    st.tuples(st.just("binary"), st.sampled_from(BINARY), st.booleans(), st.sampled_from([2.0, -0.5, 3.0])),
    st.tuples(st.sampled_from(["swap", "reverse", "transpose", "sum", "max", "inplace", "where"])),
)


@given(prog=st.lists(INSTR, min_size=1, max_size=8), shape=st.sampled_from([(4, 4), (3, 5), (1, 7), (6, 1)]),
       dtype=st.sampled_from(["float32", "float64"]), seed=st.integers(0, 2**16))
def test_program_equals_unjitted(prog, shape, dtype, seed):
    if dtype == "float64" and not da.place.get_device_properties(0)["fp64"]:
        return
    rng = np.random.default_rng(seed)
    xs = rng.standard_normal(shape).astype(dtype)
    ys = rng.standard_normal(shape).astype(dtype)
    x0, y0 = da.asarray(xs), da.asarray(ys)
    x1, y1 = da.asarray(xs), da.asarray(ys)
    if any(i[0] == "transpose" for i in prog) and shape[0] != shape[1]:
        prog = [i for i in prog if i[0] != "transpose"]
    fn = da.jit(run_program, static_argnames="prog")
    want = run_program(prog, x0, y0)
    prog = tuple(prog)
    got = fn(prog, x1, y1)
    for g, w in zip(got, want):
        same_bits(g, w)
    same_bits(y1, y0)  # in-place updates of inputs reach the caller's arrays
    again = fn(prog, da.asarray(xs), da.asarray(ys))  # the replay of a cached program
    same_bits(again[0], want[0])
    assert fn.traces == 1 and fn.hits == 1


def test_reductions_matmul_and_views():
    rng = np.random.default_rng(1)
    a, w = rng.standard_normal((16, 8)).astype(np.float32), rng.standard_normal((8, 5)).astype(np.float32)

    def body(x, w):
        h = da.tanh(x @ w)
        return {"h": h, "rows": (h * h).sum(axis=1), "mean": x.mean(), "col": x[:, ::-2].max(axis=0)}

    fn = da.jit(body)
    got, want = fn(da.asarray(a), da.asarray(w)), body(da.asarray(a), da.asarray(w))
    assert set(got) == set(want)
    for k in want:
        same_bits(got[k], want[k])


def test_chain_fuses_into_one_launch():
    @da.jit
    def chain(z, y):
        for _ in range(10):
            z = z * 1.0001 + y
        return z

    x, y = da.ones(1000, dtype=np.float32), da.full(1000, 0.5, dtype=np.float32)
    chain(x, y)
    with da.profile() as p:
        r = chain(x, y)
    # the whole program is one scheduler command
    assert [e.name for e in p.launches if e.name != "bounds_guard"] == ["chain"]
    assert len(next(iter(chain._cache.values())).runs) == 1  # of one kernel
    assert "1 launches" in chain.explain(x, y)
    want = x
    for _ in range(10):
        want = want * 1.0001 + y
    same_bits(r, want)


# -- keys --------------------------------------------------------------------------------------------
def test_retraces_exactly_when_the_key_changes():
    @da.jit(static_argnames=("k",))
    def f(x, y, k=1, s=2.0):
        return x * s + y * k

    x = da.arange(6, dtype=np.float32)
    y = da.ones(6, dtype=np.float32)
    calls = [((x, y), {}), ((x + 1, y), {}),            # same key: new arrays of the same layout
             ((x, y), {"k": 3}),                        # static value
             ((x, y), {"s": 4.0}),                      # a Python scalar is static too
             ((x.astype(np.float64), y), {}),           # dtype
             ((x[::-1], y), {}),                        # strides/offset
             ((x.reshape(2, 3), y.reshape(2, 3)), {}),  # shape
             ((x, x), {})]                              # the arguments share memory
    traces = []
    for args, kw in calls:
        got = f(*args, **kw)
        same_bits(got, f.fn(*args, **kw))
        traces.append(f.traces)
    assert traces == [1, 1, 2, 3, 4, 5, 6, 7]
    f(x, y)
    assert f.traces == 7


def test_cache_is_bounded_lru():
    f = da.jit(lambda x: x + 1, maxsize=2)
    a, b, c = (da.ones(n, dtype=np.float32) for n in (2, 3, 4))
    f(a), f(b), f(c)
    assert f.traces == 3 and len(f._cache) == 2
    f(c), f(b)
    assert f.traces == 3
    f(a)  # evicted first
    assert f.traces == 4


# -- host reads --------------------------------------------------------------------------------------
@pytest.mark.parametrize("body", [
    lambda x: x * float(x[0]),
    lambda x: x if bool(x.sum() > 0) else -x,
    lambda x: x[x > 0],
    lambda x: da.nonzero(x)[0],
    lambda x: da.unique(x),
    lambda x: x.tolist(),
])
def test_host_reads_raise_naming_the_line(body):
    f = da.jit(body)
    x = da.asarray(np.array([1.0, -2.0, 3.0], np.float32))
    with pytest.raises(da.TraceError, match=r"darray.jit: .* needs values on the host .*test_jit.py:\d+"):
        f(x)
    assert f.traces == 0
    assert (x * 2).get().tolist() == [2.0, -4.0, 6.0]  # the next call works
    ok = da.jit(lambda x: da.where(x > 0, x, 0))
    assert ok(x).get().tolist() == [1.0, 0.0, 3.0]


def test_random_draws_continue_the_stream():
    def body(x, rng):
        return x + rng.random(x.shape, dtype=np.float32), rng.standard_normal(3), rng.poisson(3.0, 4)

    jitted, plain = da.random.default_rng(7), da.random.default_rng(7)
    f = da.jit(body)
    x = da.zeros(5, dtype=np.float32)
    for _ in range(3):  # each replay draws the next numbers, as each unjitted call does
        for g, w in zip(f(x, jitted), body(x, plain)):
            same_bits(g, w)
        assert jitted.counter == plain.counter
    assert f.traces == 1


@pytest.mark.parametrize("name", ["take", "fancy", "scatter", "put", "cumsum", "sort", "argsort", "take_along",
                                  "concat", "percentile", "einsum", "fft"])
def test_ops_with_device_forms_are_traced(name):
    body = {
        "take": lambda x, i: da.take(x, i, axis=1),
        "fancy": lambda x, i: x[::-1, i],
        "scatter": lambda x, i: (x.__setitem__((slice(None), i), -1.0), x * 2)[1],
        "put": lambda x, i: (da.put(x, i, 7.0), x)[1],
        "cumsum": lambda x, i: da.cumsum(x.T, axis=1),
        "sort": lambda x, i: da.sort(x, axis=0),
        "argsort": lambda x, i: da.argsort(x, axis=1, stable=True),
        "take_along": lambda x, i: da.take_along_axis(x, da.argsort(x, axis=1, stable=True), axis=1),
        "concat": lambda x, i: da.concatenate([x, x[:, ::2]], axis=1),
        "percentile": lambda x, i: da.percentile(x, [10, 50], axis=1),
        "einsum": lambda x, i: da.einsum("ij,kj->ik", x, x),
        "fft": lambda x, i: da.fft.fft(x),
    }[name]
    if name == "fft":
        pytest.importorskip("pyvkfft")
    rng = np.random.default_rng(3)
    xh, ih = rng.standard_normal((6, 10)).astype(np.float32), rng.integers(-10, 10, 4)
    want = body(da.asarray(xh), da.asarray(ih))
    f = da.jit(body)
    for _ in range(2):
        got = f(da.asarray(xh), da.asarray(ih))
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-6)


def test_indices_out_of_bounds_are_not_checked_in_a_trace():
    g = da.jit(lambda x, i: x[i])
    x, i = da.arange(4, dtype=np.float32), da.asarray([1, 9, -1])
    with pytest.raises(IndexError):
        x[i]
    assert g(x, i).get().tolist() == [1.0, 0.0, 3.0]  # a gather reads 0 there
    s = da.jit(lambda x, i: x.__setitem__(i, 5.0))
    s(x, i)
    assert x.get().tolist() == [0.0, 5.0, 2.0, 5.0]  # a scatter skips it


def test_bincount_size_depends_on_data():
    with pytest.raises(da.TraceError, match="bincount"):
        da.jit(lambda i: da.bincount(i))(da.asarray([1, 2]))


# -- inputs, outputs, constants ------------------------------------------------------------------
def test_in_place_updates_and_returned_inputs():
    @da.jit
    def step(u, v):
        u[1:-1] = (u[:-2] + u[2:]) * 0.5
        v += u
        return u, v[::2], u.T

    u0 = np.linspace(0, 1, 9, dtype=np.float32)
    u, v = da.asarray(u0), da.zeros(9, dtype=np.float32)
    ru, uv, ut = step(u, v)
    assert ru is not u and ru._alloc is u._alloc
    mid = (u0[:-2] + u0[2:]) * np.float32(0.5)
    want = u0.copy()
    want[1:-1] = mid
    np.testing.assert_array_equal(u.get(), want)
    np.testing.assert_array_equal(v.get(), want)
    np.testing.assert_array_equal(uv.get(), want[::2])
    step(u, v)
    assert step.traces == 1


def test_constants_and_globals():
    table = da.asarray(np.array([1.0, 2.0, 3.0], np.float32))

    @da.jit
    def f(x):
        return x * da.asarray([2.0, 3.0, 4.0], dtype=np.float32) + table, table

    x = da.ones(3, dtype=np.float32)
    r, t = f(x)
    assert r.get().tolist() == [3.0, 5.0, 7.0] and t is table
    table[...] = 0  # a global read by reference, as unjitted
    assert f(x)[0].get().tolist() == [2.0, 3.0, 4.0]


def test_nested_jit_and_cpu_place():
    inner = da.jit(lambda x: x * 2)
    outer = da.jit(lambda x: inner(x) + 1)
    x = da.arange(4, dtype=np.float32)
    assert outer(x).get().tolist() == [1.0, 3.0, 5.0, 7.0]
    assert inner.traces == 0
    c = da.arange(4, dtype=np.float32, device="cpu")
    assert outer(c).get().tolist() == [1.0, 3.0, 5.0, 7.0] and outer.traces == 1


def test_pending_inputs_and_outputs_stay_lazy_safe():
    x = da.arange(8, dtype=np.float32)
    pending = x * 3  # built before the trace: runs before it, never captured
    f = da.jit(lambda a: a + 1)
    r = f(pending)
    assert r.get().tolist() == (np.arange(8) * 3 + 1).tolist()
    assert pending.get().tolist() == (np.arange(8) * 3).tolist()


def test_eager_mode_and_unknown_static_names():
    f = da.jit(lambda x, y: (x * 2 + y).sum())
    x, y = da.arange(5, dtype=np.float32), da.ones(5, dtype=np.float32)
    with da.lazy.eager():  # each op runs at once while tracing: the same launches, unfused
        got = f(x, y)
    same_bits(got, f.fn(x, y))
    with pytest.raises(ValueError, match="static_argnames"):
        da.jit(lambda x: x, static_argnames="k")


def test_unhashable_static_argument():
    f = da.jit(lambda x, opts: x, static_argnames="opts")
    with pytest.raises(TypeError, match="not hashable"):
        f(da.ones(2), [1, 2])
    g = da.jit(lambda x, opts: x)
    with pytest.raises(TypeError, match="neither an array nor hashable"):
        g(da.ones(2), {1, 2})


# -- threads -------------------------------------------------------------------------------------------
def test_concurrent_calls_from_threads():
    @da.jit
    def f(x, y):
        t = x * y + 1.0
        return t / (1.0 + t.sum())

    rng = np.random.default_rng(5)
    data = [(rng.random(300).astype(np.float32), rng.random(300).astype(np.float32)) for _ in range(4)]
    want = [f.fn(da.asarray(a), da.asarray(b)).get() for a, b in data]

    def work(k: int) -> None:
        a, b = da.asarray(data[k][0]), da.asarray(data[k][1])
        for _ in range(40):
            np.testing.assert_array_equal(f(a, b).get(), want[k])

    in_threads(work)
    assert f.traces == 1


# -- the arena plan --------------------------------------------------------------------------------------
@given(st.lists(st.tuples(st.integers(1, 5000), st.integers(0, 20), st.integers(0, 20)), max_size=30))
def test_arena_never_aliases_live_slots(spec):
    sizes = {i: n for i, (n, _, _) in enumerate(spec)}
    first = {i: min(a, b) for i, (_, a, b) in enumerate(spec)}
    last = {i: max(a, b) for i, (_, a, b) in enumerate(spec)}
    placed, total = _program._place(sizes, first, last)
    assert set(placed) == set(sizes)
    for i in placed:
        assert placed[i] % _program.ALIGN == 0 and placed[i] + sizes[i] <= total
        for j in placed:
            if i < j and first[i] <= last[j] and first[j] <= last[i]:
                assert placed[i] + sizes[i] <= placed[j] or placed[j] + sizes[j] <= placed[i]
    assert total <= sum(-(-n // _program.ALIGN) * _program.ALIGN for n in sizes.values())


def test_intermediates_share_the_arena():
    @da.jit
    def f(x, w):
        for _ in range(4):
            x = da.tanh(x @ w)
        return x

    x, w = da.ones((8, 8), dtype=np.float32), da.eye(8, dtype=np.float32) * 0.5
    text = f.explain(x, w)
    assert "arena" in text
    p = next(iter(f._cache.values()))
    assert p.arena_bytes < sum(n for _, _, n in p.arena_slots)  # dead intermediates' bytes reused
    same_bits(f(x, w), f.fn(x, w))


@pytest.mark.parametrize("recorded", [True, False])
def test_command_buffer_and_enqueue_loop_agree(recorded, monkeypatch):
    """Programs of several kernels replay through a command buffer where it is turned on and the
    device has one (cl_khr_command_buffer with mutable dispatch), else through the loop of enqueues."""
    from darray.jit import _cmdbuf

    monkeypatch.setattr(_cmdbuf, "ENABLED", recorded)

    def body(x, w, rng):
        for _ in range(3):
            x = da.tanh(x @ w) + x.mean(axis=0)
        return x + rng.random(x.shape, dtype=np.float32), x.sum()

    rng = np.random.default_rng(9)
    xh, wh = rng.standard_normal((8, 8)).astype(np.float32), rng.standard_normal((8, 8)).astype(np.float32)
    f, g1, g2 = da.jit(body), da.random.default_rng(1), da.random.default_rng(1)

    def work(k: int) -> None:
        x, w = da.asarray(xh + k), da.asarray(wh)
        for _ in range(3):
            got, want = f(x, w, g1), body(x, w, g2) if k == 0 else None
            if want is not None:
                for a, b in zip(got, want):
                    same_bits(a, b)
            x = got[0]

    work(0)
    p = next(iter(f._cache.values()))
    assert p.recorded == (recorded and _cmdbuf.api(da.place.runtime(p.place).device) is not None)
    in_threads(lambda k: work(k + 1) if k else None, 3)  # other threads' streams record their own
