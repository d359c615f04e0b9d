"""The Generator: Philox4x32-10 draws with a 64-bit key and counter, and the methods that are not
distributions of one variable (those are ``_distributions``' table; the multivariate ones
``_multivariate``'s)."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import dtypes as _dt
from .. import sched
from .._array import DArray
from ..ops import ufunc as U
from ..ops.creation import default_float
from ..ops.searching import searchsorted
from ..ops.selection import where
from ..ops.sorting import argsort
from ..ops.taking import take, take_along_axis
from ..place import Place, PlaceLike
from ..transfer.convert import asarray
from ._distributions import Distributions, Number
from ._multivariate import Multivariate
from ._params import float_dtype, out_args, place_of, shape_of
from ._philox import blocks, draw
from ._samplers import counters, sample


class BitGenerator:
    """The base of darray's bit generators: a ``numpy.random.SeedSequence`` and the 64-bit key
    derived from it. See also: numpy.random.BitGenerator (darray's hold no state beyond the key)."""

    def __init__(self, seed: Any = None) -> None:
        if not isinstance(seed, np.random.SeedSequence):
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
                raise ValueError(f"darray random: seed must be a non-negative integer or None, got {seed!r}")
            seed = np.random.SeedSequence(seed)
        self._seed_seq = seed
        k0, k1 = (int(k) for k in seed.generate_state(2, np.uint32))
        self.key = (k0, k1)

    @property
    def seed_seq(self) -> np.random.SeedSequence:
        return self._seed_seq


class Philox(BitGenerator):
    """Philox4x32-10's 64-bit key from ``numpy.random.SeedSequence(seed)`` (None: fresh entropy;
    a SeedSequence as it is): the bit generator of a :class:`Generator` (``default_rng(Philox(s))``).
    ``key=``: the 64-bit key itself (its high word first), as NumPy's ``key=``.
    See also: numpy.random.Philox (darray: no state beyond the key; the counter is the Generator's).
    It has what Dask's random module asks of a bit generator (``_seed_seq``, construction from a
    SeedSequence), so ``dask.array.random.default_rng(da.random.default_rng(s))`` draws darray chunks."""

    def __init__(self, seed: Any = None, *, key: int | None = None) -> None:
        super().__init__(seed)
        if key is not None:
            if isinstance(key, bool) or not isinstance(key, (int, np.integer)) or not 0 <= key < 2**64:
                raise ValueError(f"darray random.Philox: key must be a 64-bit non-negative integer, got {key!r}")
            self.key = (int(key) >> 32, int(key) & 0xFFFFFFFF)

    def __repr__(self) -> str:
        return f"Philox(key={self.key[0]:08x}{self.key[1]:08x})"


class Generator(Distributions, Multivariate):
    """Draws from Philox4x32-10 with a 64-bit key and counter. See also: numpy.random.Generator.

    Methods take ``device=`` (or ``place=``); the default is the place of an array argument, else
    the current place. ``size=None`` gives a 0-d array where NumPy returns a scalar. Differs from
    NumPy: the streams are darray's own (Philox), so a seed does not give NumPy's numbers."""

    def __init__(self, bit_generator: BitGenerator, counter: int = 0) -> None:
        self.bit_generator, self.counter = bit_generator, counter
        self.key, self.seed_seq = bit_generator.key, bit_generator.seed_seq

    def __repr__(self) -> str:
        return f"Generator(Philox4x32-10, key={self.key[0]:08x}{self.key[1]:08x}, counter={self.counter})"

    def _draw(self, kind: str, shape: tuple[int, ...], dtype: np.dtype, place: Place, out: DArray | None = None,
              **bounds: int) -> DArray:
        """The draw ``kind`` into a new array, or into ``out`` (straight, when C-contiguous)."""
        size = int(np.prod(shape, dtype=np.int64))
        direct = out if out is None or out._dim.is_c_contiguous else None
        drawn = self._drawing(blocks(kind, size),
                              lambda base: draw(kind, self.key, base, shape, dtype, place, out=direct, **bounds))
        if out is not None and direct is None:
            out[...] = drawn
        return drawn if out is None else out

    def _sample(self, kind: str, params: tuple[Number, ...], shape: tuple[int, ...], dtype: np.dtype,
                place: Place) -> DArray:
        """A draw of the sampler ``kind`` (``_samplers.KINDS``) with checked ``params``."""
        return self._drawing(counters(kind, int(np.prod(shape, dtype=np.int64))),
                             lambda base: sample(kind, self.key, base, params, shape, dtype, place))

    def _drawing(self, n: int, make: Callable[[Any], DArray]) -> DArray:
        """``make(base)``, a draw of ``n`` counters from counter ``base``, then the counter advanced.
        In a ``da.jit`` trace, base is a value each replay takes from the counter (advancing it
        then), so jitted draws continue the generator's stream as unjitted ones do."""
        if sched.capturing() is not None:
            return make(sched.Dynamic(functools.partial(self._advance, n)))
        drawn = make(self.counter)
        self._advance(n)
        return drawn

    def _advance(self, n: int) -> np.uint64:
        """The counter, then advanced by ``n``."""
        base = self.counter
        self.counter = (base + n) % 2**64
        return np.uint64(base)

    def spawn(self, n_children: int) -> list[Generator]:
        """``n_children`` independent generators (keys from ``SeedSequence.spawn``).
        See also: numpy.random.Generator.spawn."""
        return [Generator(Philox(s)) for s in self.seed_seq.spawn(n_children)]

    def random(self, size: Any = None, dtype: Any = None, out: DArray | None = None, *, device: PlaceLike = None,
               place: PlaceLike = None) -> DArray:
        """Floats in [0, 1) from the top 24 (float32) or 53 (float64) bits; never 1.0. ``out``: an
        array to fill (its shape, dtype and place are the draw's).

        See also: numpy.random.Generator.random (default dtype: float64, float32 on a device without it)."""
        size, dtype, device = out_args(out, size, dtype, device, place, "random")
        at = place_of(device, place, "random")
        dt = float_dtype(dtype, at, "random")
        return self._draw("random32" if dt == _dt.float32 else "random64", shape_of(size, "random"), dt, at, out)

    def standard_normal(self, size: Any = None, dtype: Any = None, out: DArray | None = None, *,
                        device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Normal(0, 1) floats by Box-Muller (darray's own log, cos and sin: the same bits on every
        place); ``out`` as in :meth:`random`. See also: numpy.random.Generator.standard_normal."""
        size, dtype, device = out_args(out, size, dtype, device, place, "standard_normal")
        at = place_of(device, place, "standard_normal")
        dt = float_dtype(dtype, at, "standard_normal")
        shape = shape_of(size, "standard_normal")
        return self._draw("normal32" if dt == _dt.float32 else "normal64", shape, dt, at, out)

    def standard_exponential(self, size: Any = None, dtype: Any = None, method: str = "zig",
                             out: DArray | None = None, *, device: PlaceLike = None,
                             place: PlaceLike = None) -> DArray:
        """Exponential(1) floats by inversion, ``-log(1 - random())`` (finite: at most 17 for float32,
        37 for float64); ``out`` as in :meth:`random`. See also: numpy.random.Generator.standard_exponential
        (differs: ``method="zig"`` is accepted and also inverts; darray has no ziggurat)."""
        if method not in ("zig", "inv"):
            raise ValueError(f"darray random.standard_exponential: method must be 'zig' or 'inv', got {method!r}")
        size, dtype, device = out_args(out, size, dtype, device, place, "standard_exponential")
        at = place_of(device, place, "standard_exponential")
        u = self.random(size, float_dtype(dtype, at, "standard_exponential"), device=at)
        e = -U.log(1 - u)  # 1 - u is exact on random's grid (and log is faster than log1p)
        if out is None:
            return e
        out[...] = e
        return out

    def integers(self, low: Any, high: Any = None, size: Any = None, dtype: Any = _dt.int64,
                 endpoint: bool = False, *, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Integers in [low, high) (``endpoint=True``: [low, high]); ``high=None`` draws from [0, low).

        Scalar bounds: unbiased, by Lemire's multiply-shift on 64 bits with rejection; a rejected
        element redraws from further counters of its own block, so results do not depend on the
        device or the work partition. Array bounds (broadcast as NumPy's): a 64-bit word modulo each
        range, whose bias is below range / 2**64. See also: numpy.random.Generator.integers."""
        low, high = (0, low) if high is None else (low, high)
        dt = _dt.as_dtype(dtype, "random.integers")
        if dt.kind not in "iub":
            raise TypeError(f"darray random.integers: Unsupported dtype {dt!r} (an integer type or bool)")
        at = place_of(device, place, "integers", low, high)
        bounds = [_int_bounds(v, name) for v, name in ((low, "low"), (high, "high"))]
        lo, top = bounds[0], np.asarray(bounds[1] - (not endpoint), dtype=object)
        least, most = (0, 1) if dt == _dt.bool_ else (np.iinfo(dt).min, np.iinfo(dt).max)
        if np.any(lo > top):
            raise ValueError(f"darray random.integers: low >= high ({low} >= {high})" if not endpoint else
                             f"darray random.integers: low > high ({low} > {high})")
        if np.any(lo < least) or np.any(top > most):
            raise ValueError(f"darray random.integers: [low, high] = [{low}, {top}] is out of range for {dt}")
        if lo.ndim == 0 and top.ndim == 0:
            drawn = self._draw("integers", shape_of(size, "integers"), _dt.uint8 if dt == _dt.bool_ else dt, at,
                               low=int(lo), rng=int(top - lo))
            return drawn if drawn.dtype == dt else drawn.astype(dt)
        shape = _broadcast_size(size, lo.shape, top.shape)
        words = self._draw("integers", shape, _dt.uint64, at, rng=2**64 - 1)
        spans = np.asarray(top - lo + 1, dtype=object)  # 2**64 (every uint64) is the word itself
        mod = asarray(np.where(spans == 2**64, 0, spans).astype(np.uint64), device=at)
        offset = asarray(np.asarray(lo % 2**64, dtype=object).astype(np.uint64).view(np.int64), device=at)
        drawn = where(mod == 0, words, words % U.maximum(mod, 1)).astype(_dt.int64) + offset
        return drawn.astype(dt)

    def _order(self, n: int, place: Place) -> DArray:
        """A uniformly random permutation of range(n): the stable argsort of n random 64-bit keys."""
        keys = self._draw("integers", (n,), _dt.uint64, place, rng=2**64 - 1)
        return argsort(keys)

    def permutation(self, x: Any, axis: int = 0, *, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """A permuted ``arange(x)`` (int ``x``) or a permuted copy of ``x`` along ``axis``.

        See also: numpy.random.Generator.permutation."""
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            if x < 0:
                raise ValueError(f"darray random.permutation: x must be non-negative, got {x}")
            return self._order(int(x), place_of(device, place, "permutation"))
        arr = x if isinstance(x, DArray) else asarray(x, device=place_of(device, place, "permutation"))
        if arr.ndim == 0:
            raise ValueError("darray random.permutation: x must be an integer or an array of at least 1 dimension")
        ax = _axis(axis, arr.ndim, "permutation")
        return take(arr, self._order(arr.shape[ax], arr.place), axis=ax)

    def shuffle(self, x: DArray, axis: int = 0) -> None:
        """Permute ``x`` in place along ``axis``. See also: numpy.random.Generator.shuffle."""
        if not isinstance(x, DArray) or x.ndim == 0:
            raise ValueError("darray random.shuffle: x must be a darray array of at least 1 dimension")
        ax = _axis(axis, x.ndim, "shuffle")
        x[...] = take(x, self._order(x.shape[ax], x.place), axis=ax)

    def permuted(self, x: Any, *, axis: int | None = None, out: DArray | None = None) -> DArray:
        """``x`` with each slice along ``axis`` permuted independently (None: the flattened array);
        into ``out`` (of x's shape) when given. See also: numpy.random.Generator.permuted."""
        arr = x if isinstance(x, DArray) else asarray(x, device=None if out is None else out.place)
        if out is not None and (not isinstance(out, DArray) or out.shape != arr.shape):
            raise ValueError(f"darray random.permuted: out must be a DArray of x's shape {arr.shape}")
        if axis is None:
            flat = arr.reshape(-1)
            done = take(flat, self._order(flat.shape[0], arr.place), axis=0).reshape(arr.shape)
        else:
            ax = _axis(axis, arr.ndim, "permuted")
            keys = self._draw("integers", arr.shape, _dt.uint64, arr.place, rng=2**64 - 1)
            done = take_along_axis(arr, argsort(keys, axis=ax), axis=ax)
        if out is None:
            return done
        out[...] = done
        return out

    def bytes(self, length: int) -> bytes:
        """``length`` random bytes (drawn on the ``cpu`` place: the same on every place).
        See also: numpy.random.Generator.bytes."""
        return self.integers(0, 256, length, dtype=_dt.uint8, device="cpu").get().tobytes()

    def choice(self, a: Any, size: Any = None, replace: bool = True, p: Any = None, axis: int = 0,
               shuffle: bool = True, *, device: PlaceLike = None, place: PlaceLike = None) -> DArray:
        """Samples of ``a`` (an array, along ``axis``, or ``arange(a)`` for an int).

        With ``p``: inverse-CDF sampling (searchsorted of uniforms in the cumulative weights);
        without replacement and ``p``: the n smallest ``-log(u) / p`` (Efraimidis-Spirakis).
        See also: numpy.random.Generator.choice (its numbers differ; ``shuffle=False`` is accepted
        and the sample still comes in random order)."""
        at = place_of(device, place, "choice", a)
        pop, n, ax = _population(a, at, axis)
        at = at if pop is None else pop.place
        shape = shape_of(size, "choice")
        count = int(np.prod(shape, dtype=np.int64))
        if not replace and count > n:
            raise ValueError(f"darray random.choice: size {count} is larger than the population {n} "
                             f"without replacement")
        if n == 0 and count:
            raise ValueError("darray random.choice: a is empty but size is not")
        weights = None if p is None else _weights(p, n)
        if weights is not None and not replace and count > np.count_nonzero(weights):
            raise ValueError("darray random.choice: fewer non-zero entries in p than size without replacement")
        if weights is None:
            idx = self.integers(0, n, shape, device=at) if replace else self._order(n, at)[:count].reshape(shape)
        elif replace:
            cdf = np.cumsum(weights)
            cdf /= cdf[-1]
            u = self.random(shape, default_float(at), device=at)
            idx = searchsorted(asarray(cdf.astype(u.dtype), device=at), u, side="right")
        else:
            u = self.random((n,), default_float(at), device=at)
            keys = -U.log(1 - u) / asarray(weights.astype(u.dtype), device=at)  # inf where p is 0: never drawn first
            idx = argsort(keys)[:count].reshape(shape)
        if pop is None:
            return idx
        picked = take(pop, idx.reshape(-1), axis=ax)
        return picked.reshape(pop.shape[:ax] + shape + pop.shape[ax + 1:])


def _axis(axis: Any, ndim: int, op: str) -> int:
    if not isinstance(axis, (int, np.integer)) or not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(f"darray random.{op}: axis {axis} is out of bounds for {ndim} dimensions")
    return int(axis) % ndim


def _int_bounds(v: Any, name: str) -> np.ndarray:
    """An integer bound of ``integers`` as a host array of Python ints (object: 64-bit ranges stay exact)."""
    host = np.array(v.get() if isinstance(v, DArray) else v, dtype=object)
    if not all(isinstance(e, (int, np.integer)) and not isinstance(e, (bool, np.bool_)) for e in host.flat):
        raise ValueError(f"darray random.integers: {name} must be integers, got {v!r}")
    return host


def _broadcast_size(size: Any, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    shape = shape_of(size, "integers")  # (NumPy's errors for a bad size first)
    joint = np.broadcast_shapes(*shapes)
    if size is None:
        return joint
    if np.broadcast_shapes(shape, joint) != shape:
        raise ValueError(f"darray random.integers: shape mismatch: bounds of shapes {shapes} and size {size}")
    return shape


def _weights(p: Any, n: int) -> np.ndarray:
    """``p`` as float64 on the host, checked: 1-d of length n, non-negative, summing to 1."""
    w = np.asarray(p.get() if isinstance(p, DArray) else p, dtype=np.float64)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(f"darray random.choice: p must be 1-d of the length of a ({n}), got shape {w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise ValueError("darray random.choice: p must be finite and non-negative")
    if abs(w.sum() - 1) > np.sqrt(np.finfo(np.float64).eps):
        raise ValueError(f"darray random.choice: p must sum to 1, got {w.sum()}")
    return w


def _population(a: Any, place: Place, axis: int) -> tuple[DArray | None, int, int]:
    """(the array to sample along ``axis``, or None for ``arange(a)``; the population size; the axis)."""
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool) and a >= 0:
        return None, int(a), 0
    pop = a if isinstance(a, DArray) else asarray(a, device=place)
    if pop.ndim == 0:
        raise ValueError(f"darray random.choice: a must be a non-negative integer or an array of at least "
                         f"1 dimension, got {a!r}")
    ax = _axis(axis, pop.ndim, "choice")
    return pop, pop.shape[ax], ax


def default_rng(seed: Any = None) -> Generator:
    """A Generator keyed by ``numpy.random.SeedSequence(seed)`` (None: fresh entropy); a
    Generator passes through, a :class:`BitGenerator` is used as it is. See also:
    numpy.random.default_rng (darray's streams differ)."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed if isinstance(seed, BitGenerator) else Philox(seed))
