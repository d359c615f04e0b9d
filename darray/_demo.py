"""``python -m darray demo``: a short showcase, every step checked against NumPy and timed.

Steps are small functions registered with :func:`demo_step` and run in order; prints OK/FAIL
per step and exits non-zero on any FAIL. A feature adds its step at the end of this file.
Timings are best-of-3 wall times; darray's include waiting for the device.
"""
from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

# -- demo ------------------------------------------------------------------------------------


@dataclass
class Demo:
    """What a demo step gets: the place, NumPy checks and timers. Failed checks fail the step."""

    place: Any
    failures: list[str] = field(default_factory=list)
    darray_s: float = 0.0
    numpy_s: float = 0.0
    extra: list[str] = field(default_factory=list)

    def check(self, what: str, got: Any, want: Any, *, rtol: float = 0.0, atol: float = 0.0) -> None:
        """``got`` (a DArray or NumPy value) equals ``want`` in shape, dtype and values."""
        got_np = np.asarray(got)
        want_np = np.asarray(want)
        if got_np.shape != want_np.shape:
            self.failures.append(f"{what}: shape {got_np.shape} != {want_np.shape}")
        elif got_np.dtype != want_np.dtype:
            self.failures.append(f"{what}: dtype {got_np.dtype} != {want_np.dtype}")
        elif rtol or atol:
            if not np.allclose(got_np, want_np, rtol=rtol, atol=atol, equal_nan=True):
                self.failures.append(f"{what}: values differ")
        elif not np.array_equal(got_np, want_np, equal_nan=got_np.dtype.kind in "fc"):
            self.failures.append(f"{what}: values differ")

    def expect(self, what: str, ok: bool) -> None:
        if not ok:
            self.failures.append(what)

    def time_darray(self, fn: Callable[[], Any], repeat: int = 3) -> Any:
        """Run ``fn`` (device work synchronized); adds the best time to the step's darray time."""
        out, t = _best(fn, repeat, sync=True)
        self.darray_s += t
        return out

    def time_numpy(self, fn: Callable[[], Any], repeat: int = 3) -> Any:
        out, t = _best(fn, repeat, sync=False)
        self.numpy_s += t
        return out

    def show(self, text: str) -> None:
        """Print ``text`` under the step's line (tables, stats)."""
        self.extra.append(text)


def _best(fn: Callable[[], Any], repeat: int, sync: bool) -> tuple[Any, float]:
    import darray as da

    best = float("inf")
    out = None
    for _ in range(max(1, repeat)):
        if sync:
            da.synchronize()
        t0 = time.perf_counter()
        out = fn()
        if sync:
            if isinstance(out, da.DArray):
                out.eval()
            da.synchronize()
        best = min(best, time.perf_counter() - t0)
    return out, best


DemoFn = Callable[[Demo], str]
DEMO_STEPS: list[tuple[str, DemoFn]] = []


def demo_step(title: str) -> Callable[[DemoFn], DemoFn]:
    """Register ``fn(demo) -> detail`` as the next demo step."""

    def deco(fn: DemoFn) -> DemoFn:
        DEMO_STEPS.append((title, fn))
        return fn

    return deco


def _ms(t: float) -> str:
    return f"{t * 1e3:9.2f} ms" if t else f"{'-':>12}"


def cmd_demo(args: argparse.Namespace) -> int:
    import darray as da

    place = da.place.default()
    name = f" ({da.place.get_device_name(place.index)})" if isinstance(place, da.CLPlace) else ""
    print(f"darray {da.__version__} demo on {place}{name}; every step checked against NumPy")
    if isinstance(place, da.CPUPlace) and not os.environ.get("DARRAY_DEVICE"):
        probes = [(d, da.place.probe(d.index)) for d in da.place.devices()]
        why = "; ".join(f"cl:{d.index} ({d.name}) failed darray's probe: {v.reason}" for d, v in probes if not v.ok)
        print(f"no usable OpenCL device ({why or 'none found'}): running on the cpu place (NumPy)")
    print(f"{'step':<24} {'':4} {'darray':>12} {'numpy':>12}  detail")
    steps = [s for s in DEMO_STEPS if not args.only or any(o in s[0] for o in args.only)]
    t0 = time.perf_counter()
    failed = 0
    for title, fn in steps:
        demo = Demo(place)
        try:
            detail = fn(demo) or ""
        except Exception as err:  # a broken feature fails its step; the demo goes on
            demo.failures.append(f"{type(err).__name__}: {err}")
            detail = ""
        ok = not demo.failures
        failed += not ok
        text = detail if ok else "; ".join(demo.failures)
        print(f"{title:<24} {'OK' if ok else 'FAIL':4} {_ms(demo.darray_s)} {_ms(demo.numpy_s)}  {text}", flush=True)
        for block in demo.extra:
            print("    " + block.replace("\n", "\n    "))
    total = time.perf_counter() - t0
    print(f"demo: {len(steps)} steps, {len(steps) - failed} OK, {failed} FAIL in {total:.1f} s")
    return 1 if failed else 0


# Demo steps, in order. Timings are best-of-3 wall times: darray's include waiting for the
# device. Later features append their steps at the end of this list.


@demo_step("creation")
def _demo_creation(d: Demo) -> str:
    import darray as da

    p = d.place
    d.check("zeros", d.time_darray(lambda: da.zeros((256, 256), dtype="float32", device=p)),
            d.time_numpy(lambda: np.zeros((256, 256), dtype="float32")))
    d.check("ones int32", da.ones((3, 5), dtype="int32", device=p), np.ones((3, 5), dtype="int32"))
    d.check("full", da.full((4, 3), 7.5, dtype="float32", device=p), np.full((4, 3), 7.5, dtype="float32"))
    d.check("arange", da.arange(10, device=p), np.arange(10))
    d.check("arange step", da.arange(0, 2, 0.25, dtype="float32", device=p), np.arange(0, 2, 0.25, dtype="float32"))
    d.check("linspace", da.linspace(0, 1, 7, dtype="float32", device=p), np.linspace(0, 1, 7, dtype="float32"))
    d.check("eye k=1", da.eye(4, 5, k=1, dtype="int32", device=p), np.eye(4, 5, k=1, dtype="int32"))
    x = da.full((2, 3), 2, dtype="int16", device=p)
    d.check("zeros_like", da.zeros_like(x), np.zeros((2, 3), "int16"))
    d.check("full_like", da.full_like(x, 9), np.full((2, 3), 9, "int16"))
    d.check("empty_like shape", np.array(da.empty_like(x).shape), np.array((2, 3)))
    return "zeros, ones, full, arange, linspace, eye, *_like"


@demo_step("asarray round trip")
def _demo_roundtrip(d: Demo) -> str:
    import darray as da

    rng = np.random.default_rng(0)
    host = rng.standard_normal(1 << 22).astype(np.float32)  # 16 MiB
    back = d.time_darray(lambda: np.asarray(da.asarray(host, device=d.place)))
    d.time_numpy(lambda: np.array(host, copy=True))
    d.check("float32 16 MiB", back, host)
    cases = {
        "int16 2-D": rng.integers(-1000, 1000, (37, 53)).astype(np.int16),
        "transposed": rng.standard_normal((5, 7)).astype(np.float32).T,
        "negative step": np.arange(40, dtype=np.int64)[::-3],
        "bool": rng.random(33) > 0.5,
        "uint8 rank 5": rng.integers(0, 255, (2, 3, 1, 2, 3)).astype(np.uint8),
        "0-d": np.array(3.5, dtype=np.float32),
        "empty": np.zeros((0, 4), np.float32),
        "complex64": (rng.standard_normal(9) + 1j * rng.standard_normal(9)).astype(np.complex64),
    }
    for what, h in cases.items():
        d.check(what, da.asarray(h, device=d.place).get(), h)
    d.check("nested list", da.asarray([[1, 2], [3, 4]], device=d.place), np.asarray([[1, 2], [3, 4]]))
    return f"NumPy -> darray -> NumPy exact: 16 MiB float32 and {len(cases) + 1} dtypes/layouts"


@demo_step("views, slice assignment")
def _demo_views(d: Demo) -> str:
    import darray as da

    h = np.arange(48, dtype=np.float32).reshape(6, 8)
    x = da.asarray(h, device=d.place)
    views = {
        "x[1:, ::2]": (lambda a: a[1:, ::2]),
        "x[::-1, 3]": (lambda a: a[::-1, 3]),
        "x[..., None]": (lambda a: a[..., None]),
        "x.T": (lambda a: a.T),
        "x[2]": (lambda a: a[2]),
        "x[-2:, -3::-2]": (lambda a: a[-2:, -3::-2]),
    }
    for what, f in views.items():
        d.check(what, f(x), f(h))
    row = np.arange(4, dtype=np.float32) * 10
    for a, r in ((x, da.asarray(row, device=d.place)), (h, row)):
        a[1:, ::2] = r            # broadcast a row into a strided view
        a[0] = -1.0               # a scalar into a row
        a[::-1, 7] = a[:, 0]      # a view of itself, reversed, into a column
        a[2:4, 1:3] = 5
    d.check("after slice assignment", x, h)
    big = da.zeros((2048, 2048), dtype="float32", device=d.place)
    hb = np.zeros((2048, 2048), dtype="float32")
    d.time_darray(lambda: big.__setitem__((slice(None), slice(None, None, 2)), 3.0))
    d.time_numpy(lambda: hb.__setitem__((slice(None), slice(None, None, 2)), 3.0))
    d.check("x[:, ::2] = 3 (2048x2048)", big, hb)
    return f"{len(views)} views and 4 assignments match NumPy; timed x[:, ::2] = 3 on 2048x2048"


@demo_step("astype")
def _demo_astype(d: Demo) -> str:
    import darray as da

    h = np.linspace(-4.5, 4.5, 1 << 20, dtype=np.float32)
    x = da.asarray(h, device=d.place)
    d.check("float32 -> int32", d.time_darray(lambda: x.astype("int32")), d.time_numpy(lambda: h.astype("int32")))
    d.check("float32 -> bool", x.astype("bool"), h.astype("bool"))
    d.check("strided float32 -> int8", x[::2].astype("int8"), h[::2].astype("int8"))
    i = da.asarray(np.arange(-5, 5, dtype=np.int64), device=d.place)
    d.check("int64 -> float32", i.astype("float32"), np.arange(-5, 5, dtype=np.int64).astype("float32"))
    d.check("int64 -> complex64", i.astype("complex64"), np.arange(-5, 5).astype("complex64"))
    done = ["float32 -> int32/bool/int8", "int64 -> float32/complex64"]
    if isinstance(d.place, da.CLPlace):
        info = da.place.runtime(d.place).info
        if info.fp64:
            d.check("float32 -> float64", x.astype("float64"), h.astype("float64"))
            done.append("float32 -> float64")
        if info.fp16:
            d.check("float32 -> float16", x.astype("float16"), h.astype("float16"))
            done.append("float32 -> float16")
    return ", ".join(done)


@demo_step("allocator")
def _demo_allocator(d: Demo) -> str:
    import darray as da

    sizes = [100, 4096, 1 << 20, 5 << 20]

    def churn(times: int = 1) -> None:
        for _ in range(times):
            arrays = [da.empty(s // 4, dtype="float32", device=d.place) for s in sizes]
            del arrays

    churn()
    before = da.alloc.stats(d.place)
    d.time_darray(lambda: churn(100), repeat=1)
    after = da.alloc.stats(d.place)
    d.time_numpy(lambda: [[np.empty(s // 4, np.float32) for s in sizes] for _ in range(100)], repeat=1)
    new = after["device_allocations"] - before["device_allocations"]
    hits = after["cache_hits"] - before["cache_hits"]
    d.show(", ".join(f"{k}={v}" for k, v in after.items()))
    if not isinstance(d.place, da.CLPlace):
        return "host memory comes from NumPy (no pool on the CPU place)"
    d.expect(f"{new} device buffers created by 100 repeated allocations (want 0)", new == 0)
    d.expect(f"only {hits} cache hits for 400 allocations", hits >= 400)
    return f"400 allocations of 4 sizes: {hits} cache hits, {new} new device buffers"


@demo_step("streams")
def _demo_streams(d: Demo) -> str:
    import darray as da

    if not isinstance(d.place, da.CLPlace):
        return "skipped: streams exist on OpenCL places"
    h = np.arange(1 << 20, dtype=np.float32)
    x = da.asarray(h, device=d.place)
    s1, s2 = da.stream(place=d.place), da.stream(place=d.place)

    def two() -> tuple:
        with s1:
            a = x[::2].copy()
        with s2:
            b = x[1::2].astype("int32")
        with s1:
            a[:10] = b[:10]      # s1 work that reads s2's result: ordered by events
        return a, b

    a, b = d.time_darray(two)
    want_a = h[::2].copy()
    want_a[:10] = h[1::2][:10].astype("int32")
    d.check("stream 1 result", a, want_a)
    d.check("stream 2 result", b, h[1::2].astype("int32"))
    return "two streams, a cross-stream dependency ordered by events"


@demo_step("profile")
def _demo_profile(d: Demo) -> str:
    import darray as da

    h = np.arange(1 << 22, dtype=np.float32)
    with da.profile() as p:
        x = da.asarray(h, device=d.place)
        y = x.copy()
        y[::2] = 0.0
        z = y.astype("int32")
        out = z.get()
        da.synchronize()
    want = h.copy()
    want[::2] = 0.0
    d.check("profiled work", out, want.astype("int32"))
    if isinstance(d.place, da.CLPlace):
        d.expect("the profiler recorded no launch", len(p.launches) >= 4)
        d.show(p.table())
    return f"{len(p.launches)} launches, {len(p.compiles)} compiles, {len(p.allocations)} allocations recorded"


@demo_step("elementwise")
def _demo_elementwise(d: Demo) -> str:
    import darray as da

    rng = np.random.default_rng(1)
    ha, hb = (rng.standard_normal(1 << 22).astype(np.float32) for _ in range(2))
    a, b = da.asarray(ha, device=d.place), da.asarray(hb, device=d.place)
    d.check("a + b", d.time_darray(lambda: a + b), d.time_numpy(lambda: ha + hb))
    d.check("sin(a)", d.time_darray(lambda: da.sin(a)), d.time_numpy(lambda: np.sin(ha)), rtol=2e-6, atol=1e-7)
    hi = rng.integers(-50, 50, 1000).astype(np.int32)
    i = da.asarray(hi, device=d.place)
    d.check("int floor_divide, remainder", (i // 7) * 10 + i % -3, (hi // 7) * 10 + hi % -3)
    hz = (ha[:1000] + 1j * hb[:1000]).astype(np.complex64)
    d.check("complex exp", da.exp(da.asarray(hz, device=d.place)), np.exp(hz), rtol=1e-5, atol=1e-6)
    d.check("broadcast, weak scalar", a[:6].reshape(2, 3) * da.asarray(hb[:3], device=d.place) + 1,
            ha[:6].reshape(2, 3) * hb[:3] + 1)
    return "timed a + b and sin(a) on 4M float32; integer, complex and broadcast ops"


@demo_step("lazy fusion")
def _demo_fusion(d: Demo) -> str:
    import darray as da

    rng = np.random.default_rng(2)
    hosts = [rng.standard_normal(1 << 22).astype(np.float32) for _ in range(5)]
    a, b, c, e, f = (da.asarray(h, device=d.place) for h in hosts)
    ha, hb, hc, he, hf = hosts
    got = d.time_darray(lambda: a * b + c * da.sin(e) - f / 2)
    d.check("a*b + c*sin(e) - f/2", got, d.time_numpy(lambda: ha * hb + hc * np.sin(he) - hf / 2), rtol=1e-5, atol=1e-5)
    if not isinstance(d.place, da.CLPlace):
        return "eager through NumPy on the CPU place"
    with da.profile() as p:
        (a * b + c * da.sin(e) - f / 2).eval()
        dot = (a * b).sum()
        dot.eval()
    d.check("(a*b).sum()", float(dot), float(np.dot(ha.astype(np.float64), hb)), rtol=1e-4)
    kernels = [ln for ln in p.launches if ln.name != "reduce_scratch"]  # scratch is zeroed once, when it grows
    d.expect(f"{len(kernels)} kernels for the chain and the fused dot (want 2)", len(kernels) == 2)
    d.show(da.lazy.explain(a * b + 1).split("\n\n")[0])
    built = sum(not c.from_disk for c in p.compiles)
    return (f"a 5-op chain with sin: 1 kernel; (a*b).sum(): 1 kernel; {built} kernels built, "
            f"{len(p.compiles) - built} loaded from the disk cache")


@demo_step("reductions")
def _demo_reductions(d: Demo) -> str:
    import darray as da

    h = np.random.default_rng(3).standard_normal((2048, 2048)).astype(np.float32)
    x = da.asarray(h, device=d.place)
    d.check("sum", d.time_darray(lambda: x.sum()), d.time_numpy(lambda: h.sum()), rtol=1e-4)
    d.check("sum axis 0", d.time_darray(lambda: x.sum(axis=0)), d.time_numpy(lambda: h.sum(axis=0)), rtol=1e-4,
            atol=1e-3)
    d.check("mean axis 1, keepdims", x.mean(axis=1, keepdims=True), h.mean(axis=1, keepdims=True), rtol=1e-4,
            atol=1e-5)
    d.check("max axis 0", x.max(axis=0), h.max(axis=0))
    d.check("argmax axis 1", x.argmax(axis=1), h.argmax(axis=1))
    d.check("std (ddof=1)", x.std(ddof=1), h.std(ddof=1), rtol=1e-4)
    d.check("cumulative_sum", da.cumulative_sum(x[0]), np.cumsum(h[0]), rtol=1e-4, atol=1e-3)
    return "sum, mean, max, argmax, std, cumulative_sum on 2048x2048 float32; timed full and axis-0 sums"


@demo_step("matmul")
def _demo_matmul(d: Demo) -> str:
    import darray as da

    rng = np.random.default_rng(4)
    ha, hb = (rng.standard_normal((512, 512)).astype(np.float32) for _ in range(2))
    a, b = da.asarray(ha, device=d.place), da.asarray(hb, device=d.place)
    d.check("a @ b", d.time_darray(lambda: a @ b), d.time_numpy(lambda: ha @ hb), rtol=1e-4, atol=1e-3)
    hv = rng.standard_normal((3, 512, 8)).astype(np.float32)
    d.check("batched, broadcast", a @ da.asarray(hv, device=d.place), ha @ hv, rtol=1e-4, atol=1e-3)
    d.check("vecdot", da.vecdot(a, b), np.vecdot(ha, hb), rtol=1e-4, atol=1e-3)
    d.check("linalg.vector_norm", da.linalg.vector_norm(a), np.linalg.norm(ha), rtol=1e-4)
    return "512x512 float32 (timed), batched with broadcasting, vecdot, norms"


@demo_step("array surface")
def _demo_surface(d: Demo) -> str:
    import darray as da

    rng = np.random.default_rng(13)
    scores = rng.standard_normal((64, 4096)).astype(np.float32)
    labels = rng.integers(0, 50, 1 << 20).astype(np.int32)
    s, lab = da.asarray(scores, device=d.place), da.asarray(labels, device=d.place)
    # top-5 per row: argsort descending, the first five, gathered along the axis
    top = d.time_darray(lambda: da.take_along_axis(s, da.argsort(s, axis=1, descending=True)[:, :5], axis=1))
    want_top = d.time_numpy(lambda: np.take_along_axis(scores, np.argsort(-scores, axis=1, kind="stable")[:, :5],
                                                       axis=1))
    d.check("top-5 per row", top, want_top)
    # masked update: clip outliers in place through a boolean mask
    clipped, want = da.asarray(scores, device=d.place), scores.copy()
    clipped[clipped > 2.5] = 2.5
    want[want > 2.5] = 2.5
    d.check("masked update", clipped, want)
    # a histogram through unique_counts, checked against NumPy's
    values, counts = d.time_darray(lambda: da.unique_counts(lab))
    want_values, want_counts = d.time_numpy(lambda: np.unique_counts(labels))
    d.check("histogram values", values, want_values.astype(values.dtype))
    d.check("histogram counts", counts, want_counts.astype(counts.dtype))
    # reshaping and joining: concat, stack, flip, roll
    joined = da.concat([da.flip(s[:2], axis=1), da.roll(s[2:4], 3, axis=1)], axis=0)
    d.check("concat/flip/roll", joined, np.concatenate([np.flip(scores[:2], 1), np.roll(scores[2:4], 3, 1)]))
    idx = rng.integers(-4096, 4096, 1000)
    d.check("gather x[idx]", s[0][idx], scores[0][idx])
    d.check("searchsorted", da.searchsorted(da.sort(s[0]), s[1, :100]),
            np.searchsorted(np.sort(scores[0]), scores[1, :100]).astype(np.int64))
    return "top-5 by argsort, masked update, histogram by unique_counts, concat/flip/roll, gathers, searchsorted"


@demo_step("random")
def _demo_random(d: Demo) -> str:
    import darray as da

    n = 1 << 22

    def inside(xp: Any, pts: Any) -> Any:  # points of the unit square inside the quarter circle
        return xp.count_nonzero(pts[0] * pts[0] + pts[1] * pts[1] < 1)

    def draw(place: Any) -> Any:  # a fresh generator each time: the same 2 x n points
        return da.random.default_rng(14).random((2, n), dtype=da.float32, device=place)

    # Monte Carlo pi: the generator kernel, then the arithmetic and the count fused after it
    hits = d.time_darray(lambda: inside(da, draw(d.place)))
    d.check("hits vs the cpu place's identical draws", hits, np.asarray(inside(np, draw("cpu").get()), hits.dtype))
    d.time_numpy(lambda: inside(np, np.random.default_rng(14).random((2, n), dtype=np.float32)))
    pi = 4 * int(hits) / n
    d.expect(f"pi estimate {pi:.4f} within 0.01 of pi", abs(pi - np.pi) < 0.01)
    k = da.random.default_rng(15).integers(0, 10, 1 << 16, device=d.place)
    d.check("integers as on the cpu place", k, da.random.default_rng(15).integers(0, 10, 1 << 16, device="cpu").get())
    d.show(f"pi ~ {pi:.5f} from {n} points")
    return "Monte Carlo pi from rng.random (timed, vs NumPy's generator) and integers, same numbers on the cpu place"


@demo_step("fft")
def _demo_fft(d: Demo) -> str:
    import darray as da

    rng = np.random.default_rng(16)
    # blur a 1024x1024 image: multiply its spectrum by a Gaussian kernel's (circular convolution)
    img = rng.random((1024, 1024), dtype=np.float32)
    r = np.minimum(np.arange(1024), 1024 - np.arange(1024)).astype(np.float32)
    kern = np.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / 8).astype(np.float32)
    kern /= kern.sum()
    x, k = da.asarray(img, device=d.place), da.asarray(kern, device=d.place)
    fk, fk_np = da.fft.rfftn(k), np.fft.rfftn(kern)
    blur = d.time_darray(lambda: da.fft.irfftn(da.fft.rfftn(x) * fk, s=x.shape))
    want = d.time_numpy(lambda: np.fft.irfftn(np.fft.rfftn(img) * fk_np, s=img.shape, axes=(0, 1)))
    d.check("blurred image", blur, want, rtol=1e-4, atol=1e-5)
    return "1024x1024 Gaussian blur: rfftn, spectrum product, irfftn (timed, vs numpy.fft)"


@demo_step("sparse CG")
def _demo_sparse(d: Demo) -> str:
    import darray as da

    try:
        import scipy.sparse as sp
        import scipy.sparse.linalg as spl
    except ImportError:
        return "skipped: the check needs scipy (pip install scipy)"

    k = 256  # 2-D Poisson (5-point Laplacian) on a k x k grid, assembled from triplets on the device
    t = sp.diags_array([-np.ones(k - 1), 2 * np.ones(k), -np.ones(k - 1)], offsets=[-1, 0, 1])
    host = (sp.kron(sp.eye_array(k), t) + sp.kron(t, sp.eye_array(k))).tocoo().astype(np.float32)
    csr = host.tocsr()
    coo = da.sparse.coo_matrix((host.data, (host.row, host.col)), shape=host.shape, device=d.place)
    a = coo.tocsr()
    d.check("COO -> CSR indptr", a.indptr, csr.indptr.astype(np.int32))
    b = np.random.default_rng(16).standard_normal(k * k).astype(np.float32)
    x, info = d.time_darray(lambda: da.sparse.linalg.cg(a, da.asarray(b, device=d.place), tol=1e-5, maxiter=2000,
                                                        M="jacobi"), repeat=1)
    want, winfo = d.time_numpy(lambda: spl.cg(csr, b, rtol=1e-5, maxiter=2000), repeat=1)
    d.expect(f"cg info {info}, scipy {winfo} (want 0)", info == 0 and winfo == 0)
    d.check("solution vs scipy's cg", x, want, rtol=1e-3, atol=1e-3 * float(np.abs(want).max()))
    residual = float(np.linalg.norm(host @ x.get() - b) / np.linalg.norm(b))
    d.expect(f"relative residual {residual:.2e} (want <= 1e-4)", residual <= 1e-4)
    return f"CG with Jacobi on a {k}x{k} Poisson grid ({a.nnz} nonzeros), residual {residual:.1e}, vs scipy's cg"


@demo_step("loops (da.jit)")
def _demo_loops(d: Demo) -> str:
    import darray as da

    def chain(z: Any, y: Any) -> Any:  # ten small ops: each costs darray's Python more than the work
        for _ in range(10):
            z = z * 1.0001 + y
        return z

    fast = da.jit(chain)
    rng = np.random.default_rng(17)
    zh, yh = rng.random(1000, dtype=np.float32), rng.random(1000, dtype=np.float32)
    z, y = da.asarray(zh, device=d.place), da.asarray(yh, device=d.place)
    steps = 200

    def loop(fn: Callable[[Any, Any], Any], z: Any, y: Any) -> Any:
        for _ in range(steps):
            z = fn(z, y)
        return z

    got = d.time_darray(lambda: loop(fast, z, y).eval())
    eager = _best(lambda: loop(lambda a, b: chain(a, b).eval(), z, y), 3, True)[1]
    want = d.time_numpy(lambda: loop(chain, zh, yh))
    d.check("jitted loop", got, want, rtol=1e-5)
    d.expect("jitted loop equals the eager one", bool(da.all(got == loop(chain, z, y))))
    return (f"{steps} calls of a 10-op chain on 1000 float32: jitted {d.darray_s / steps * 1e6:.0f} us/call, "
            f"eager {eager / steps * 1e6:.0f}, NumPy {d.numpy_s / steps * 1e6:.0f} ({fast.traces} trace)")
