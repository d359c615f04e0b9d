"""Lazy layer: graph -> fuse -> render without a device; kernel counts, compile caching,
evaluation triggers, aliasing, budgets, bounded loops, ``explain`` and ``DARRAY_LAZY=0``
on the OpenCL place.
"""
from __future__ import annotations

import gc
import importlib

import numpy as np
import pytest

import darray as da
from darray.dim import Dim
from darray.lazy import execute, fuse, graph, render

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
I32 = np.dtype(np.int32)
lazy_eval = importlib.import_module("darray.lazy.evaluate")   # the module (the package exports the function)


# -- device-free: graph, fuse, render -------------------------------------------------------

class FakeAlloc:
    """Stands in for an Allocation: fuse only needs ``offset`` (bytes), ``nbytes`` and identity."""

    offset = 0
    nbytes = 0


def inp(shape, dtype=F32, *, alloc=None, dim=None) -> graph.Input:
    return graph.Input(alloc or FakeAlloc(), dim or Dim.contiguous(shape), np.dtype(dtype))


def sc(value, dtype=F32) -> graph.Scalar:
    return graph.Scalar(np.dtype(dtype).type(value), np.dtype(dtype))


def op(name, *args, dtype=F32) -> graph.Node:
    shape = np.broadcast_shapes(*(a.shape for a in args))
    return graph.node(name, tuple(args), np.dtype(dtype), shape)


def target(shape, dtype=F32) -> graph.Input:
    return graph.Input(FakeAlloc(), Dim.contiguous(shape), np.dtype(dtype))


def plan_of(roots, shape, dtype=F32):
    roots = roots if isinstance(roots, list) else [roots]
    return fuse.fuse(roots, [target(shape, dtype) for _ in roots])


def chain(shape):
    """``a*b + c*d - e/2`` over five contiguous inputs of ``shape``."""
    a, b, c, d, e = (inp(shape) for _ in range(5))
    root = op("subtract", op("add", op("multiply", a, b), op("multiply", c, d)), op("divide", e, sc(2)))
    return root, (a, b, c, d, e)


def test_chain_spec_and_source():
    root, _ = chain((128, 784))
    plan = plan_of(root, (128, 784))
    spec = plan.spec
    assert spec.rank == 1                                  # contiguous dims collapsed
    assert plan.shape == (128 * 784,) and plan.n == 128 * 784
    assert [o.pattern for o in spec.inputs] == ["c"] * 5
    assert spec.outputs[0][0].pattern == "c"
    assert spec.scalars == (F32,) and plan.scalars == (2.0,)
    assert [i.op for i in spec.body] == ["multiply", "multiply", "add", "divide", "subtract"]
    assert spec.index == "int" and not spec.strided
    src = render.render(spec)
    assert "__kernel void elementwise(" in src
    assert "float s0" in src                               # the scalar is an argument
    for k in range(5):
        assert f"const float v{k} = in{k}[in{k}_o + g];" in src
    assert "out0[out0_o + g] = t4;" in src
    kernel = src[src.index("__kernel"):]                  # (the helper header has its own constants)
    assert "784" not in kernel and "100352" not in kernel  # sizes are arguments, never source
    assert "2.0" not in kernel and "2.0f" not in kernel


def test_spec_same_for_other_shapes_and_scalars():
    r1, _ = chain((128, 784))
    r2, _ = chain((3, 7, 5))
    p1, p2 = plan_of(r1, (128, 784)), plan_of(r2, (3, 7, 5))
    assert p1.spec == p2.spec and hash(p1.spec) == hash(p2.spec)
    assert render.render(p1.spec) == render.render(p2.spec)
    a = inp((10,))
    q1 = plan_of(op("add", op("multiply", a, sc(0.5)), sc(1.0)), (10,))
    q2 = plan_of(op("add", op("multiply", a, sc(3.25)), sc(-7.0)), (10,))
    assert q1.spec == q2.spec and q1.scalars != q2.scalars
    assert q2.scalars == (3.25, -7.0)


def test_patterns_broadcast_strided_single():
    shape = (4, 6)
    full = inp(shape)
    row = inp((6,))                                        # broadcast along axis 0 -> strided
    one = inp(())                                          # a 0-d array -> one element
    base = Dim.contiguous((6, 4))
    tr = inp(shape, dim=base.transpose())                  # a transposed view -> strided
    root = op("add", op("add", op("multiply", full, row), one), tr)
    spec = plan_of(root, shape).spec
    assert spec.rank == 2
    assert [o.pattern for o in spec.inputs] == ["c", "s", "0", "s"]
    assert spec.outputs[0][0].pattern == "c"
    src = render.render(spec, chunked=False)  # one element per work-item
    assert "in0[in0_o + g]" in src and "in2[in2_o]" in src
    assert "in1[in1_o + c0 * in1_s0 + c1 * in1_s1]" in src
    assert "const int c1 = r % d1; r /= d1;" in src
    tiled = render.render(spec, chunked=True)  # tiles: a row base plus the column
    assert "r % d1" not in tiled and "in0[in0_o + g]" in tiled and "in2[in2_o]" in tiled
    assert "const int in1_r = in1_q + c0 * in1_s0;" in tiled and "in1[in1_r + c1]" in tiled  # unit rows
    assert "b1[c0 - ib][c1 - jb] = in1[in1_q + c0 * in1_s0 + c1 * in1_s1];" in tiled  # blocks, loaded by column
    assert "const float8 k1_3 = vload8(0, in1 + in1_q + ib + (jb + 3) * in1_s1);" in tiled  # float8 columns


def test_chunked_loop_computes_uniform_values_once():
    """Single-element inputs and the steps over them (and scalars) are computed before the chunked
    scalar loop; the rest inside it, in the same order of operations."""
    n = (64,)
    cond = op("less", inp((), np.int64), inp((), np.int64), dtype=np.bool_)
    root = op("where", cond, op("add", inp(n), op("multiply", inp(()), inp(n))), inp(n))
    src = render.render(plan_of(root, n).spec, chunked=True)
    loop = src.index("for (; g < end; g++)")
    assert src.index("in0[in0_o]") < loop and src.index("(v0 < v1)") < loop
    assert src.index("in2[in2_o + g]") > loop and src.count("in0[in0_o]") == 1


@pytest.mark.parametrize("n", [1, 255, 256, 257, 2049])
def test_uniform_operands_over_views(cl_place, n):
    """0-d operands and steps over them (computed before the chunked loop) with reversed, stepped
    and transposed views, sizes around the chunk and vector boundaries, against NumPy."""
    rng = np.random.default_rng(n)
    xh = rng.standard_normal((2, 2 * n)).astype(np.float32)
    x = da.asarray(xh, device=cl_place)
    a, c, k = (da.asarray(v, device=cl_place) for v in (np.float32(0.5), np.int64(3), np.int64(7)))
    views = [(x[0, ::-1][:n], xh[0, ::-1][:n]), (x[1, ::2], xh[1, ::2]), (x[:, :n].T[:, 0], xh[:, :n].T[:, 0])]
    for (v, vh), (w, wh) in zip(views, views[1:] + views[:1]):
        got = da.where(da.logical_and(da.sqrt(a) > 0.1, c < k), v + (a / 2) * w, w)
        np.testing.assert_array_equal(got.get(), np.where(True, vh + np.float32(0.25) * wh, wh))
        got = da.where(c > k, v, w * a)
        np.testing.assert_array_equal(got.get(), wh * np.float32(0.5))


def test_rank_collapse_of_slices():
    base = Dim.contiguous((8, 6, 5))
    rows = base.getitem((slice(2, 6),))                    # still contiguous: rank 1
    cols = base.getitem((slice(None), slice(None), slice(0, 3)))   # last axis cut: rank 2
    assert plan_of(op("negative", inp(None, dim=rows)), rows.shape).spec.rank == 1
    p = plan_of(op("negative", inp(None, dim=cols)), cols.shape)
    assert p.spec.rank == 2 and p.shape == (48, 3)
    assert p.spec.inputs[0].pattern == "s"
    alloc = FakeAlloc()
    alloc.offset = 64                                      # a sub-block of the pool: bytes
    p = fuse.fuse([op("negative", inp(None, alloc=alloc, dim=rows))], [target(rows.shape)])
    assert p.views[1][1] == 16 + 2 * 30                   # element offset = block + view


def test_rank0_and_index_width():
    p = plan_of(op("sin", inp(())), ())
    assert p.spec.rank == 0 and p.n == 1
    assert [o.pattern for o in p.spec.operands] == ["0", "0"]
    big = (2**31 + 5,)
    assert plan_of(op("sin", inp(big)), big).spec.index == "long"
    assert "const long start" in render.render(plan_of(op("sin", inp(big)), big).spec)


def test_cse_and_input_dedup():
    alloc = FakeAlloc()
    a1 = inp((5,), alloc=alloc)
    a2 = inp((5,), alloc=alloc)                            # same allocation and view: one input
    b = inp((5,))
    t1 = op("multiply", a1, b)
    t2 = op("multiply", a2, b)                             # structurally the same as t1
    root = op("add", op("sin", t1), op("sin", t2))
    spec = plan_of(root, (5,)).spec
    assert len(spec.inputs) == 2
    assert [i.op for i in spec.body] == ["multiply", "sin", "add"]
    assert spec.body[2].args == (("t", 1), ("t", 1))
    src = render.render(spec)
    assert src.count("in0[") == 1 and src.count(" v0 * v1") <= 1
    # the same scalar *value* twice stays two arguments (values never enter the spec)
    s = plan_of(op("add", op("multiply", b, sc(2)), op("multiply", b, sc(2))), (5,)).spec
    assert len(s.scalars) == 2 and len(s.body) == 3


def test_multi_output_reads_each_input_once():
    a, b, c = inp((7, 3)), inp((7, 3)), inp((7, 3))
    ab = op("multiply", a, b)
    y, z = op("add", ab, c), op("subtract", ab, c)
    plan = plan_of([y, z], (7, 3))
    spec = plan.spec
    assert len(spec.inputs) == 3 and len(spec.outputs) == 2
    assert [i.op for i in spec.body] == ["multiply", "add", "subtract"]
    assert [ref for _, ref in spec.outputs] == [("t", 1), ("t", 2)]
    assert len(plan.views) == 5
    src = render.render(spec)
    assert "out0[out0_o + g] = t1;" in src and "out1[out1_o + g] = t2;" in src


def test_casts_and_promotion_in_kernel():
    i = inp((9,), I32)
    root = op("add", graph.node("cast", (i,), F64, (9,)), sc(0.5, F64), dtype=F64)
    plan = fuse.fuse([root], [target((9,), F32)])          # and a cast on the store
    spec = plan.spec
    assert spec.body[0].op == "cast" and spec.body[0].dtype == F64
    src = render.render(spec)
    assert "const int v0 = in0[in0_o + g];" in src
    assert "const double t0 = (double)(v0);" in src
    assert "out0[out0_o + g] = (float)(t1);" in src
    assert "cl_khr_fp64" in src


def test_graph_depth_size_reads():
    a, b = inp((3,)), inp((3,))
    n1 = op("add", a, b)
    n2 = op("multiply", n1, n1)
    n3 = op("sin", n2)
    assert (n1.depth, n2.depth, n3.depth) == (1, 2, 3)
    assert (n1.size, n2.size, n3.size) == (1, 3, 4)       # sharing counted twice (a bound)
    assert n3.reads == (a.alloc, b.alloc)
    n1.value = target((3,))                                # materialised: read as an input
    n4 = op("cos", n1)
    assert n4.depth == 1 and n4.reads == (n1.value.alloc,)
    assert graph.walk([n4]) == [n1.value, n4]


def test_explain_without_device():
    alloc = FakeAlloc()
    a = graph.Input(alloc, Dim.contiguous((128, 784)), F32)
    a2 = graph.Input(alloc, Dim.contiguous((128, 784)), F32)      # the same view again: one line
    root = op("add", op("multiply", a, sc(0.5)), a2)
    x = da.DArray(None, Dim.contiguous((128, 784)), F32, None, root)
    assert da.lazy.script(x).splitlines() == [
        "$1 = input(float32, [128, 784])",
        "$2 = scalar(float32, 0.5)",
        "$3 = multiply($1, $2)  # float32, [128, 784]",
        "$4 = add($3, $1)  # float32, [128, 784]",
    ]


# -- on the device --------------------------------------------------------------------------

@pytest.fixture
def place(cl_place):
    return cl_place


def arr(place, shape, dtype=np.float32, seed=0, lo=-2.0, hi=2.0):
    host = np.random.default_rng(seed).uniform(lo, hi, size=shape).astype(dtype)
    return host, da.asarray(host, device=place)


def kernels(p) -> list:
    """Kernel launches of a profile (transfers and fills left out)."""
    return [r for r in p.launches if not r.name.startswith(("upload", "download", "fill", "copy_"))]


def test_fused_chain_is_one_launch(place):
    hs = [arr(place, (64, 33), seed=s) for s in range(5)]
    (a, b, c, d, e), (A, B, C, D, E) = zip(*hs)
    r = A * B + C * D - E / 2
    assert r._node is not None
    with da.profile() as p:
        da.eval(r)
    assert len(p.launches) == 1
    assert p.launches[0].nbytes == 64 * 33 * 4 * 6
    np.testing.assert_allclose(r.get(), a * b + c * d - e / 2, rtol=1e-6, atol=1e-6)


def test_eval_several_is_one_launch_reading_inputs_once(place):
    (a, A), (b, B), (c, C) = (arr(place, (50, 20), seed=s) for s in range(3))
    y = A * B + C
    z = A * B - da.sin(C)
    w = (A * B) * 2                         # same shape: also in the kernel
    with da.profile() as p:
        out = da.eval(y, z, w)
    assert out == (y, z, w)
    assert len(p.launches) == 1
    assert p.launches[0].nbytes == 50 * 20 * 4 * (3 + 3)   # 3 outputs, 3 inputs each once
    assert y._node is None and z._node is None and w._node is None
    np.testing.assert_allclose(y.get(), a * b + c, rtol=1e-6)
    np.testing.assert_allclose(z.get(), a * b - np.sin(c), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(w.get(), a * b * 2, rtol=1e-6)


def test_eval_groups_by_shape(place):
    (a, A), (b, B) = arr(place, (6, 5)), arr(place, (5,), seed=1)
    y, z = A + 1, B * 3
    with da.profile() as p:
        da.eval(y, z, y)
    assert len(p.launches) == 2
    np.testing.assert_allclose(y.get(), a + 1)
    np.testing.assert_allclose(z.get(), b * 3)


def test_chain_plus_reduction_is_one_launch(place):
    (a, A), (b, B) = arr(place, (3, 5)), arr(place, (3, 5), seed=1)
    t = A * B
    with da.profile() as p:
        s = t.sum()
    assert len(p.launches) == 1
    assert t._node is not None                        # no temporary for the chain
    np.testing.assert_allclose(s.get(), (a * b).sum(), rtol=1e-5)
    (x, X) = arr(place, (4, 8), seed=2)
    m = X.mean(axis=1, keepdims=True)
    with da.profile() as p:
        v = ((X - m) ** 2).mean(axis=1)
        mx = da.abs(A - B).max()            # 15 elements: one pass, no partials
    assert len(p.launches) == 2
    np.testing.assert_allclose(v.get(), ((x - x.mean(axis=1, keepdims=True)) ** 2).mean(axis=1), rtol=1e-5)
    assert mx.get() == np.abs(a - b).max()


def test_compiles_once_across_shapes_and_scalars(place):
    def run(shape, s, t):
        (a, A), (b, B) = arr(place, shape, seed=3), arr(place, shape, seed=4)
        r = da.tanh(A * s - B) / t + A      # an expression no other test uses
        return r, np.tanh(a * np.float32(s) - b) / np.float32(t) + a

    r, want = run((17, 9), 1.5, 3.0)       # warm-up: may compile
    np.testing.assert_allclose(r.get(), want, rtol=1e-5, atol=1e-6)
    for shape, s, t in [((1000, 3), -0.25, 7.0), ((2, 2), 9.0, 0.5), ((31, 1, 5), 2.0, 3.0)]:
        r, want = run(shape, s, t)
        with da.profile() as p:
            da.eval(r)
        assert p.compiles == [] and len(p.launches) == 1, shape
        np.testing.assert_allclose(r.get(), want, rtol=1e-5, atol=1e-6)


def test_fresh_process_compiles_from_disk_cache(place, tmp_path):
    import subprocess
    import sys

    code = ("import darray as da, numpy as np\n"
            "x = da.asarray(np.arange(10, dtype=np.float32))\n"
            "with da.profile() as p:\n"
            "    y = (da.cosh(x * 0.125) - x).eval()\n"
            "    z = (x.astype(da.float64) * 0.375 + 2).eval()\n"   # float64: no double8 (PoCL reload bug)
            "assert np.allclose(z.get(), np.arange(10) * 0.375 + 2)\n"
            "print(len(p.compiles), sum(c.from_disk for c in p.compiles))\n")
    # kernels only: these small graphs would run on the host and build nothing (lazy.host)
    env = {**__import__("os").environ, "DARRAY_CACHE_DIR": str(tmp_path), "DARRAY_HOST_WORK": "0"}
    first = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    second = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    n1, d1 = map(int, first.stdout.split()[-2:])
    n2, d2 = map(int, second.stdout.split()[-2:])
    assert n1 >= 1 and d1 == 0
    assert n2 == d2                         # all from disk: nothing built


ROUNDS = """
import importlib.util
import numpy as np
import darray as da

root = importlib.util.find_spec("scipy.optimize.elementwise") and importlib.import_module("scipy.optimize.elementwise")

def work():
    rng = np.random.default_rng(0)
    x = da.asarray(rng.random((6, 7)).astype(np.float32))
    m = x > 0.5
    picked = x[m]
    x[m] = 0.25
    z = x.copy()
    z[x < 0.3] = -1.0
    r = [x.sum(axis=0), x.max(axis=1), da.argmax(x, axis=1), x.mean(axis=(0, 1)), da.sum(x), x.argmax(),
         da.where(x > 0.2, x, -x).astype(np.int32), (x.astype(np.float64) * 2 + 1 <= 2) | m]
    if root is not None:
        c = da.asarray(np.linspace(1, 5, 10))
        r.append(root.find_root(lambda t, c: t ** 3 - c, (da.zeros(10), da.full(10, 3.0)), args=(c,)).x)
    return [np.asarray(a) for a in (picked, z, *r)]

builds = []
for _ in range(3):
    with da.profile() as p:
        work()
        da.place.finish_builds()  # what the round queued on the build thread counts in this round
    builds.append(len(p.compiles))
print(*builds)
"""


def test_identical_rounds_build_nothing_after_the_first(place, tmp_path):
    """A mixed workload (masking, masked writes, reductions over axes, where, casts, comparisons,
    SciPy's elementwise find_root) run three times in one process: the second and third rounds
    build no program (compiles and disk loads both count), whatever the device's timing."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "SCIPY_ARRAY_API": "1", "DARRAY_DEVICE": str(place)}
    proc = subprocess.run([sys.executable, "-c", ROUNDS], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    first, *again = map(int, proc.stdout.split())
    assert first > 0 and again == [0, 0], proc.stdout


# -- triggers --------------------------------------------------------------------------------

def test_host_read_triggers(place):
    x, X = arr(place, (10,))
    y = X * 3 + 1
    assert y._node is not None and y._alloc is None
    got = np.asarray(y)
    assert y._node is None and y._alloc is not None
    np.testing.assert_allclose(got, x * 3 + 1, rtol=1e-6)
    z = X - 1
    np.testing.assert_allclose(z.get(), x - 1)
    assert z._node is None
    w = X * 2
    assert float(w[3]) == pytest.approx(float(x[3] * 2))


def test_eval_method_and_da_eval(place):
    x, X = arr(place, (4, 4))
    y = da.exp(X)
    assert y.eval() is y and y._node is None
    z = X + X
    assert da.eval(z) is z and z._node is None
    np.testing.assert_allclose(z.get(), x + x)
    da.eval(z)                               # materialised arrays are left alone
    da.eval()


def test_reduction_consumer(place):
    x, X = arr(place, (6, 7))
    y = X * X
    s = y.sum(axis=0)
    np.testing.assert_allclose(s.get(), (x * x).sum(axis=0), rtol=1e-5)
    np.testing.assert_allclose(y.get(), x * x, rtol=1e-6)


def test_write_into_read_array_keeps_old_values(place):
    x, X = arr(place, (5, 3))
    y = X + 1
    X[...] = 0
    np.testing.assert_allclose(y.get(), x + 1)
    np.testing.assert_array_equal(X.get(), 0)


def test_inplace_operator_while_pending_reads(place):
    x, X = arr(place, (8,))
    y = X * 2
    X += 1
    X *= X
    np.testing.assert_allclose(y.get(), x * 2)
    np.testing.assert_allclose(X.get(), (x + 1) * (x + 1), rtol=1e-6)


def test_slice_assignment_into_read_array(place):
    x, X = arr(place, (6, 4))
    y = da.sin(X) + X
    X[1:3] = 5.0
    X[:, ::2] = X[:, 1::2]                  # disjoint views of one allocation
    X[1:] = X[:-1]                          # overlapping views: copied through a temporary
    np.testing.assert_allclose(y.get(), np.sin(x) + x, rtol=1e-6)
    want = x.copy()
    want[1:3] = 5.0
    want[:, ::2] = want[:, 1::2]
    want[1:] = want[:-1].copy()
    np.testing.assert_array_equal(X.get(), want)


def test_view_of_pending_array(place):
    x, X = arr(place, (4, 6))
    y = X * 2
    v = y[1:3, ::2]
    assert y._node is None                  # a view needs memory: y ran
    t = y.T
    np.testing.assert_allclose(v.get(), (x * 2)[1:3, ::2])
    z = t + 1                               # pending graph over a view of y
    y[...] = -1
    np.testing.assert_allclose(z.get(), (x * 2).T + 1)
    np.testing.assert_array_equal(v.get(), -1)


def test_write_into_materialised_node_shared_by_pending_graph(place):
    """``a`` is read by the pending graph of ``y`` as a node; once ``a`` runs, writing into it
    must first run ``y``."""
    x, X = arr(place, (4,))
    a = X * 2
    y = a + 1                                # pending; its graph contains a's node
    a.eval()
    a[...] = 0
    np.testing.assert_allclose(y.get(), x * 2 + 1)
    b = X * 3
    z = b - 1
    b += 1                                   # b is pending here: the write runs it first
    np.testing.assert_allclose(z.get(), x * 3 - 1)
    np.testing.assert_allclose(b.get(), x * 3 + 1)
    c = X * 4
    w = c * c
    c[1:3] = 7
    np.testing.assert_allclose(w.get(), (x * 4) ** 2, rtol=1e-6)


def test_sources_go_with_their_allocation(place):
    """What a materialised node read (kept so a write into its allocation finds the pending graphs
    containing the node) is dropped with the allocation: a loop leaves no record behind."""
    x, X = arr(place, (4,))
    before = len(lazy_eval._sources)
    for k in range(200):
        a = X * k
        y = a + 1                            # pending; its graph contains a's node
        a.eval()                             # a's reads are recorded under its allocation
        np.testing.assert_allclose(y.get(), x * k + 1)
    assert len(lazy_eval._sources) <= before + 1   # the last a's
    del a, y
    assert len(lazy_eval._sources) <= before


def test_many_pending_readers_of_one_array(place):
    x, X = arr(place, (8,))
    ys = [X + i for i in range(300)]
    zs = [y * 2 for y in ys[:50]]           # graphs containing the nodes of ys
    for y in ys:
        y.eval()
    before = sum(len(d) for d in lazy_eval._readers.values())
    for k, y in enumerate(ys[:50]):
        assert zs[k]._node is not None
        y[...] = -1                          # runs the one pending graph containing y's node
        assert zs[k]._node is None and all(z._node is not None for z in zs[k + 1:])
    X[...] = 0
    assert sum(len(d) for d in lazy_eval._readers.values()) <= before
    for k in (0, 7, 49):
        np.testing.assert_allclose(zs[k].get(), (x + k) * 2)
    np.testing.assert_allclose(ys[299].get(), x + 299)


def test_depth_budget(place):
    x, X = arr(place, (16,))
    y, want = X, x.copy()
    deepest = 0
    for k in range(3 * lazy_eval.MAX_DEPTH):
        y = y + 1 if k % 2 else y * 0.5
        want = want + np.float32(1) if k % 2 else want * np.float32(0.5)
        deepest = max(deepest, y._node.depth if y._node is not None else 0)
    assert deepest <= lazy_eval.MAX_DEPTH
    np.testing.assert_allclose(y.get(), want, rtol=1e-5)


def test_size_budget(place):
    x, X = arr(place, (8,), lo=-1, hi=1)
    y, want = X, x.copy()
    for _ in range(12):                      # size doubles each step
        y = y * 0.5 + y * 0.25
        want = want * np.float32(0.5) + want * np.float32(0.25)
        assert y._node is None or y._node.size <= lazy_eval.MAX_SIZE
    np.testing.assert_allclose(y.get(), want, rtol=1e-5, atol=1e-30)


def test_reads_budget(place):
    hs = [arr(place, (5,), seed=s) for s in range(lazy_eval.MAX_READS + 6)]
    total, want = hs[0][1], hs[0][0].copy()
    ran = False
    for h, d in hs[1:]:
        total = total + d
        want = want + h
        if total._node is None:
            ran = True
        else:
            assert len(total._node.reads) <= lazy_eval.MAX_READS
    assert ran
    np.testing.assert_allclose(total.get(), want, rtol=1e-5)


def tree_sum(terms):
    while len(terms) > 1:
        terms = [terms[i] + terms[i + 1] if i + 1 < len(terms) else terms[i] for i in range(0, len(terms), 2)]
    return terms[0]


def test_kernel_argument_budget(place, monkeypatch):
    """64 strided views of one array: within the depth, size and reads budgets, but their
    kernel arguments exceed the device's parameter bytes: the graph runs in parts."""
    limit = 1024                                              # OpenCL's minimum (PoCL's value)
    monkeypatch.setattr(execute, "budget", lambda p: limit)
    monkeypatch.setattr(execute, "_prepared", {})             # every structure is prepared anew
    specs = []

    class Spy(execute.Prepared):
        def __init__(self, plan, *a):
            specs.append(plan.spec)
            super().__init__(plan, *a)

    monkeypatch.setattr(execute, "Prepared", Spy)
    h, X = arr(place, (3, 5, 64))
    cols = [X[:, :, i] for i in range(64)]
    s = tree_sum(cols)
    assert s._node is not None and len(s._node.reads) == 1
    assert len(specs) == 0
    got = s.get()
    np.testing.assert_allclose(got, tree_sum([h[:, :, i] for i in range(64)]), rtol=1e-5)
    assert len(specs) > 1
    assert all(execute.param_bytes(sp) <= limit for sp in specs)
    assert max(len(sp.inputs) for sp in specs) >= 16          # still fused, in parts
    y, z = da.sin(s) + 1, s * 3
    many = [tree_sum(cols[k:k + 16]) * (k + 1) for k in range(0, 64, 16)]
    specs.clear()
    da.eval(y, z, *many)                                      # several outputs: split into groups
    assert all(execute.param_bytes(sp) <= limit for sp in specs)
    for k, m in zip(range(0, 64, 16), many):
        np.testing.assert_allclose(m.get(), tree_sum([h[:, :, i] for i in range(k, k + 16)]) * (k + 1), rtol=1e-5)
    np.testing.assert_allclose(y.get(), np.sin(got) + 1, rtol=1e-5)


def test_long_loop_bounded_memory_and_graph(place):
    x = da.ones((256,), dtype=da.float32, device=place)
    x.eval()
    gc.collect()
    before = da.alloc.stats(place)["in_use_bytes"]
    peak = 0
    for k in range(10_000):
        x = x * 0.5 + 1
        if x._node is not None:
            assert x._node.depth <= lazy_eval.MAX_DEPTH and x._node.size <= lazy_eval.MAX_SIZE
        if k % 500 == 0:
            peak = max(peak, da.alloc.stats(place)["in_use_bytes"] - before)
    np.testing.assert_allclose(x.get(), 2.0)
    assert peak <= 8 * 1024
    assert len(lazy_eval._readers) <= 2048
    del x
    gc.collect()
    assert da.alloc.stats(place)["in_use_bytes"] - before <= 4 * 1024


def test_zero_size_and_rank0(place):
    e = da.asarray(np.zeros((0, 3), np.float32), device=place)
    y = e * 2 + 1
    assert y.get().shape == (0, 3)
    s = da.asarray(np.float32(3), device=place)
    np.testing.assert_allclose((s * s + 1).get(), 10.0)


# -- explain, eager mode ---------------------------------------------------------------------

def test_explain_format(place):
    x = da.ones((128, 784), dtype=da.float32, device=place)
    w = da.ones((784,), dtype=da.float32, device=place)
    y = da.maximum(x * w + 0.5, 0)
    text = da.lazy.explain(y)
    lines = text.splitlines()
    assert lines[0] == "$1 = input(float32, [128, 784])"
    assert lines[1] == "$2 = input(float32, [784])"
    assert lines[2] == "$3 = multiply($1, $2)  # float32, [128, 784]"
    assert lines[3] == "$4 = scalar(float32, 0.5)"
    assert lines[4] == "$5 = add($3, $4)  # float32, [128, 784]"
    assert lines[6] == "$7 = maximum($5, $6)  # float32, [128, 784]"
    assert "" in lines and "__kernel void elementwise(" in text
    assert text.index("$7") < text.index("__kernel")
    assert y._node is not None                     # explaining runs nothing
    y.eval()
    assert da.lazy.explain(y).startswith("$1 = input(float32, [128, 784])")


def _program(xp, x, w):
    y = xp.sin(x) * w + 0.5
    z = xp.maximum(y, x * 2) - xp.where(x > 0, x, w)
    z = z.astype(xp.float64) / 3
    return y, z, (y * z).sum(axis=0)


def test_eager_mode_identical(place, monkeypatch):
    x, X = arr(place, (33, 7))
    w, W = arr(place, (7,), seed=1)
    lazy = [r.get() for r in _program(da, X, W)]
    monkeypatch.setattr(lazy_eval, "ENABLED", False)       # what DARRAY_LAZY=0 sets at import
    y = X * 2 + 1
    assert y._node is None and y._alloc is not None
    eager = _program(da, X, W)
    assert all(r._node is None for r in eager)
    for got, want in zip(eager, lazy):
        np.testing.assert_array_equal(got.get(), want)
    ref = _program(np, x, w)
    for got, want in zip(eager, ref):
        np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-6)
    monkeypatch.undo()
    assert (X * 2)._node is not None


def test_eager_mode_environment(place, tmp_path):
    import os
    import subprocess
    import sys

    x, X = arr(place, (33, 7))
    w, W = arr(place, (7,), seed=1)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "w.npy", w)
    lazy = [r.get() for r in _program(da, X, W)]
    code = ("import numpy as np, darray as da, sys\n"
            "sys.path.insert(0, sys.argv[2])\n"
            "from test_lazy import _program\n"
            "d = sys.argv[1]\n"
            "x, w = (da.asarray(np.load(f'{d}/{n}.npy')) for n in 'xw')\n"
            "assert (x * 2)._node is None\n"
            "for k, r in enumerate(_program(da, x, w)):\n"
            "    np.save(f'{d}/r{k}.npy', r.get())\n")
    env = {**os.environ, "DARRAY_LAZY": "0"}
    subprocess.run([sys.executable, "-c", code, str(tmp_path), os.path.dirname(__file__)], env=env, check=True)
    for k, want in enumerate(lazy):
        np.testing.assert_array_equal(np.load(tmp_path / f"r{k}.npy"), want)


def test_reader_registrations_stay_bounded(place):
    """A long-lived array read by many ops that run (or die) keeps few reader registrations."""
    a = da.asarray(np.ones(16, np.float32), device=place)
    for k in range(5000):
        y = a * k
        if k % 7 == 0:
            y.eval()
    assert len(lazy_eval._readers.get(id(a._alloc), {})) < 2 * lazy_eval.PRUNE_AT
    np.testing.assert_array_equal(y.get(), np.full(16, 4999, np.float32))


def test_prepared_launches_hold_no_buffers(place):
    """execute's cache of prepared launches (elementwise graphs and reductions) keeps argument
    layouts, not the buffers of the launch that made them: freed arrays' memory is not pinned."""
    import pyopencl as cl

    h, x = arr(place, (300, 40))
    y = (x * 3 + 1).sum(axis=0)
    z = da.sin(x) - x
    da.eval(y, z)
    np.testing.assert_allclose(y.get(), (h * 3 + 1).sum(axis=0), rtol=1e-5)
    assert execute._prepared
    for p in execute._prepared.values():
        if p is not None:
            assert not any(isinstance(v, cl.MemoryObjectHolder) for v in p.args)


def test_long_index_form_when_views_reach_far(place, monkeypatch):
    """Views whose offsets reach past the int limit launch the long-index form of a structure
    prepared with int indices (limit lowered to 100 elements)."""
    monkeypatch.setattr(fuse, "INT_LIMIT", 100)
    monkeypatch.setattr(execute, "INT_LIMIT", 100)
    monkeypatch.setattr(execute, "_prepared", {})
    h = np.arange(400, dtype=np.float32)
    x = da.asarray(h, device=place)
    for start in (0, 10, 300, 320, 0):  # one structure; later views reach past the limit
        np.testing.assert_array_equal((x[start:start + 50] * 2).get(), h[start:start + 50] * 2)
    assert any(p is not None and p.long for p in execute._prepared.values())


@pytest.mark.parametrize("shape", [(64, 256), (40, 24), (37, 29), (8, 8), (3, 300), (300, 517)])
def test_transposed_tiles(cl_place, shape):
    """Transposed float32 operands in the tiled form (tall tiles, several and partial ones at
    (300, 517)): whole 8 x 8 blocks take the float8 path (columns loaded as vectors, turned into
    rows), partial tiles and other dtypes the scalar blocks; mixed with contiguous and broadcast
    operands, and written into a transposed view."""
    rng = np.random.default_rng(3)
    a = rng.standard_normal(shape).astype(np.float32)
    b = rng.standard_normal(shape[::-1]).astype(np.float32)
    row = rng.standard_normal(shape[0]).astype(np.float32)
    x, y, r = (da.asarray(v, device=cl_place) for v in (a, b, row))
    np.testing.assert_array_equal(x.T.copy().get(), a.T)
    np.testing.assert_array_equal((x.T * 2 + y - r).get(), a.T * np.float32(2) + b - row)
    np.testing.assert_array_equal((x.T[:, ::-1] * y).get(), a.T[:, ::-1] * b)
    np.testing.assert_array_equal(x.astype("float64").T.copy().get(), a.astype(np.float64).T)
    out = da.zeros(shape, dtype=da.float32, device=cl_place)
    out.T[...] = y * 3
    np.testing.assert_array_equal(out.get(), (b * np.float32(3)).T)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
@pytest.mark.parametrize("shape", [(300, 300), (37, 29), (8, 3), (1, 17), (17, 1)])
def test_tiles_with_operands_broadcast_along_rows(cl_place, dtype, shape):
    """Inputs broadcast along the last axis (``x[:, k, None]``, strides (n, 0): ``Operand.per_row``)
    read one value per row in the contiguous-rows branch (float8 runs for float32), beside
    strided, reversed and transposed operands (the blocks branch), as NumPy computes them."""
    rng = np.random.default_rng(5)
    a = (rng.standard_normal(shape) * 100).astype(dtype)
    x = da.asarray(a, device=cl_place)
    n, m = shape
    k = n // 2
    col, row = a[:, k % m, None], a[None, k, :]
    cases = [
        (lambda v: da.minimum(v, v[:, k % m, None] + v[None, k, :]), np.minimum(a, col + row)),
        (lambda v: v[:, k % m, None] * v[None, k, :] - v, col * row - a),
        (lambda v: v[::-1, k % m, None] + v[::-1], a[::-1, k % m, None] + a[::-1]),
    ]
    if n == m:
        cases.append((lambda v: v.T + v[:, k, None], a.T + a[:, k, None]))
    for fn, want in cases:
        np.testing.assert_array_equal(fn(x).get(), want)
    out = da.zeros(shape, dtype=dtype, device=cl_place)
    out[...] = x[:, k % m, None] - x
    np.testing.assert_array_equal(out.get(), col - a)


def test_threads_share_pending_arrays(cl_place):
    """Threads reading views of the same pending arrays (Dask's threaded scheduler does) run each
    graph once and all see its values."""
    from helpers import run_threads

    h = np.arange(256 * 192, dtype=np.float32).reshape(256, 192) / 1000
    for _ in range(5):
        x = da.asarray(h, device=cl_place)
        pending = [x * 2 - 1, (x + 3).T, da.sin(x) * x]
        wants = [h * 2 - 1, (h + 3).T, np.sin(h) * h]
        errors: list[BaseException] = []

        def work(k: int, pending: list = pending, wants: list = wants, errors: list = errors) -> None:
            try:
                for j, (p, w) in enumerate(zip(pending, wants)):
                    r = (k + j) % 4
                    np.testing.assert_allclose(p[r::4].get(), w[r::4], rtol=1e-6)
            except BaseException as err:  # reported below, from the main thread
                errors.append(err)

        run_threads(work, 8)
        assert not errors, errors[0]


def test_gpu_form_float4_blocks():
    """The gpu form gives contiguous float32 kernels of vector-safe ops four elements per
    work-item (one float4 each, a partial last block one by one); others one element."""
    x = inp((10,))
    spec = plan_of(op("add", op("sin", x), x), (10,)).spec
    src = render.render(spec, chunked=False, gpu=True)
    assert render.gpu_width(spec) == 4 and "*(__global const float4_u*)(in0 + in0_o + g)" in src
    assert "if (first + 4 <= n)" in src and "for (int g = first; g < n; g++)" in src
    ints = plan_of(op("add", inp((10,), dtype=np.int32), inp((10,), dtype=np.int32), dtype=np.int32), (10,)).spec
    assert render.gpu_width(ints) == 1 and "first" not in render.render(ints, chunked=False, gpu=True)


def test_tile_shape_by_layout():
    """Tall tiles only for transposed reads; rows that are contiguous everywhere (a concat's
    strided output, say) keep long TILE_ROWS x ch tiles."""
    base = Dim.contiguous((64, 32))
    concat = plan_of(op("add", inp((64, 32)), inp((64, 32))), (64, 32)).spec
    view = Dim((64, 32), (64, 1))  # the left half of a 64 x 64 output
    assert render.tile_shape(concat, [view.strides, (32, 1), (32, 1)], 256) == (render.TILE_ROWS, 256)
    tr = inp((64, 32), dim=Dim.contiguous((32, 64)).transpose())
    spec = plan_of(op("add", tr, tr), (64, 32)).spec
    assert render.tile_shape(spec, [base.strides, (1, 64)], 256) == render.TALL_TILE
