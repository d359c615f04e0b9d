"""The univariate distributions of :class:`darray.random.Generator`, as one table.

A row names the distribution, its parameters (NumPy's names, defaults and constraints: see
``_params.RULES``) and its draw: a darray expression over the generator's uniform, normal and
exponential draws (closed forms and inversions: they run on every place and fuse lazily), or
over its rejection samplers (``Generator._sample``). Each row becomes a method with NumPy's
signature plus ``device=``/``place=``; array-valued parameters broadcast as NumPy's do.
"""
from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .. import dtypes as _dt
from .._array import DArray
from ..ops import elementwise as E
from ..ops import ufunc as U
from ..ops.selection import where
from ..place import Place
from ._params import LAM_MAX, REQUIRED, Param, finite_range, float_dtype, out_args, place_of, resolve

Number = float | int | DArray


class Source(Protocol):
    """What the draws take from a Generator."""
    def random(self, size: Any = ..., dtype: Any = ..., out: Any = ..., *, device: Any = ...) -> DArray: ...
    def standard_normal(self, size: Any = ..., dtype: Any = ..., out: Any = ..., *, device: Any = ...) -> DArray: ...
    def standard_exponential(self, size: Any = ..., dtype: Any = ..., method: str = ..., out: Any = ..., *,
                             device: Any = ...) -> DArray: ...
    def _sample(self, kind: str, params: tuple[Number, ...], shape: tuple[int, ...], dtype: np.dtype,
                place: Place) -> DArray: ...


def _log1p(x: Number) -> Any:
    """log1p of a DArray (elementwise) or of a scalar (a Python float; -inf at -1)."""
    if isinstance(x, DArray):
        return U.log1p(x)
    with np.errstate(divide="ignore"):
        return float(np.log1p(x))


@dataclass(frozen=True)
class Dist:
    """A row: the method ``name``, its parameters, its draw (Generator, shape, float dtype, place,
    *parameters) -> DArray, a check of the parameters together (NumPy's message, or None), whether
    the result is int64 and whether it takes ``dtype=``/``out=``; its docstring, and how it differs from NumPy."""
    name: str
    params: tuple[Param, ...]
    draw: Callable[..., DArray]
    doc: str
    check: Callable[[list[np.ndarray]], str | None] | None = None
    integer: bool = False
    extras: tuple[str, ...] = ()
    differs: str = ""


# the draws: g is the Generator, s the shape, t the float dtype, at the place
def _u(g: Source, s: tuple[int, ...], t: np.dtype, at: Place) -> DArray:
    return g.random(s, t, device=at)


def _z(g: Source, s: tuple[int, ...], t: np.dtype, at: Place) -> DArray:
    return g.standard_normal(s, t, device=at)


def _e(g: Source, s: tuple[int, ...], t: np.dtype, at: Place) -> DArray:
    return g.standard_exponential(s, t, device=at)


def _gamma(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, shape: Number) -> DArray:
    return g._sample("standard_gamma", (shape,), s, t, at)


def _log_gamma(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, a: Number) -> DArray:
    """log of standard_gamma(a), finite for tiny ``a`` too: below 1, log G(a + 1) + log(U) / a
    (-inf where ``a`` is 0)."""
    if not isinstance(a, DArray):
        return U.log(_gamma(g, s, t, at, a)) if a >= 1 else U.log(_gamma(g, s, t, at, a + 1)) - _e(g, s, t, at) / a
    small, positive = a < 1, a > 0
    boosted = U.log(_gamma(g, s, t, at, where(small, a + 1, a)))
    return boosted + where(small, where(positive, -_e(g, s, t, at) / where(positive, a, 1), -math.inf), 0)


def _halves(g: Source, s: tuple[int, ...], t: np.dtype, at: Place) -> tuple[DArray, DArray]:
    """(U < 1/2, min(U, 1 - U)) of a uniform U in (0, 1), exactly: U is the middle of a step of
    ``random``'s grid, so both tails reach no 0 and no 1."""
    u = _u(g, s, t, at)
    half_step = 2.0 ** -25 if t == _dt.float32 else 2.0 ** -54
    lower = u < 0.5
    return lower, where(lower, u + half_step, (1 - u) - half_step)


def _symmetric(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, quantile: Callable[[DArray], DArray]) -> DArray:
    """A symmetric distribution by inversion, from its lower half's ``quantile``."""
    lower, m = _halves(g, s, t, at)
    q = quantile(m)
    return where(lower, q, -q)


def _laplace(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, loc: Number, scale: Number) -> DArray:
    return _symmetric(g, s, t, at, lambda m: U.log(m + m)) * scale + loc


def _logistic(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, loc: Number, scale: Number) -> DArray:
    return _symmetric(g, s, t, at, lambda m: U.log(m / (1 - m))) * scale + loc


def _cauchy(g: Source, s: tuple[int, ...], t: np.dtype, at: Place) -> DArray:
    return _symmetric(g, s, t, at, lambda m: -1 / U.tan(m * math.pi))


def _gumbel(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, loc: Number, scale: Number) -> DArray:
    lower, m = _halves(g, s, t, at)
    return loc - U.log(where(lower, -U.log(m), -U.log1p(-m))) * scale


def _weibull(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, a: Number) -> DArray:
    e = _e(g, s, t, at)
    if not isinstance(a, DArray):
        return e ** (1 / a) if a else e * 0
    return where(a == 0, 0, e ** (1 / where(a == 0, 1, a)))


def _wald(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, mean: Number, scale: Number) -> DArray:
    """Michael, Schucany and Haas's transformation (NumPy's)."""
    z = _z(g, s, t, at)
    y = z * z * mean
    x = mean + mean / (2 * scale) * (y - (4 * scale * y + y * y) ** 0.5)
    return where(_u(g, s, t, at) * (mean + x) <= mean, x, mean * mean / x)


def _triangular(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, left: Number, mode: Number,
                right: Number) -> DArray:
    u = _u(g, s, t, at)
    base = right - left
    return where(u * base <= mode - left, left + (u * (mode - left) * base) ** 0.5,
                 right - ((1 - u) * (right - mode) * base) ** 0.5)


def _geometric(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, p: Number) -> DArray:
    """ceil(log(1 - U) / log(1 - p)), at least 1 (p = 1 and U = 0 give 1)."""
    return U.maximum(U.ceil(-_e(g, s, t, at) / _log1p(-p)), 1)


def _chisquare(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, df: Number) -> DArray:
    return _gamma(g, s, t, at, df / 2) * 2


def _noncentral_chisquare(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, df: Number, nonc: Number) -> DArray:
    """NumPy's: ``chisquare(df - 1) + (normal + sqrt(nonc)) ** 2`` where df > 1, else the Poisson
    mixture ``chisquare(df + 2 * poisson(nonc / 2))`` (its mean capped at NumPy's largest)."""
    if not isinstance(nonc, DArray) and nonc == 0:
        return _chisquare(g, s, t, at, df)
    if not isinstance(df, DArray) and df > 1:
        return _chisquare(g, s, t, at, df - 1) + (_z(g, s, t, at) + nonc ** 0.5) ** 2
    half = where(df > 1, 0, nonc / 2) if isinstance(df, DArray) else nonc / 2
    lam = U.minimum(half, LAM_MAX) if isinstance(half, DArray) else min(half, LAM_MAX)
    mixture = _gamma(g, s, t, at, g._sample("poisson", (lam,), s, _dt.int64, at).astype(t) + df / 2) * 2
    if not isinstance(df, DArray):
        return mixture
    big = df > 1
    normal = _chisquare(g, s, t, at, where(big, df - 1, 1)) + (_z(g, s, t, at) + nonc ** 0.5) ** 2
    return where(big, normal, mixture)


def _beta(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, a: Number, b: Number) -> DArray:
    """X / (X + Y) of gammas X, Y, as sigmoid(log X - log Y): no 0 / 0 where both underflow."""
    return E.sigmoid(_log_gamma(g, s, t, at, a) - _log_gamma(g, s, t, at, b))


def _poisson(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, lam: Number) -> DArray:
    return g._sample("poisson", (lam,), s, _dt.int64, at)


def _sampler(kind: str, integer: bool) -> Callable[..., DArray]:
    """The draw of ``Generator._sample(kind)``."""
    def draw(g: Source, s: tuple[int, ...], t: np.dtype, at: Place, *params: Number) -> DArray:
        return g._sample(kind, params, s, _dt.int64 if integer else t, at)
    return draw


def _uniform_check(h: list[np.ndarray]) -> str | None:
    """NumPy's order: a span that is not finite (an infinite or NaN bound too) is an OverflowError
    before low > high is a ValueError."""
    span = finite_range("uniform", h)
    return "low > high (high - low < 0)" if np.any(span < 0) else None


def _triangular_check(h: list[np.ndarray]) -> str | None:
    left, mode, right = h
    return ("left > mode" if np.any(left > mode) else "mode > right" if np.any(mode > right)
            else "left == right" if np.any(left == right) else None)


def _negative_binomial_check(h: list[np.ndarray]) -> str | None:
    with np.errstate(divide="ignore", over="ignore"):
        too_big = np.any(h[0] * ((1 - h[1]) / h[1]) > LAM_MAX)
    return "n too large or p too small, see Generator.negative_binomial Notes" if too_big else None


def _hypergeometric_check(h: list[np.ndarray]) -> str | None:
    return "ngood + nbad < nsample" if np.any(h[0] + h[1] < h[2]) else None


def _p(name: str, default: Any = REQUIRED, *rules: str, integer: bool = False) -> Param:
    return Param(name, default, rules, integer)


_LOC, _SCALE = _p("loc", 0.0), _p("scale", 1.0, "ge0")
_DF, _NONC = _p("df", REQUIRED, "gt0", "notnan"), _p("nonc", REQUIRED, "ge0", "notnan")
_DFS = (_p("dfnum", REQUIRED, "gt0", "notnan"), _p("dfden", REQUIRED, "gt0", "notnan"))
_INV = "inversion of one uniform per element"
ROWS = (
    Dist("uniform", (_p("low", 0.0), _p("high", 1.0)),
         lambda g, s, t, at, low, high: _u(g, s, t, at) * (high - low) + low,
         "Floats in [low, high): ``low + (high - low) * random()``.", _uniform_check, extras=("dtype",),
         differs="a ``dtype``; low > high is a ValueError"),
    Dist("normal", (_LOC, _SCALE), lambda g, s, t, at, loc, scale: _z(g, s, t, at) * scale + loc,
         "``loc + scale * standard_normal()``.", extras=("dtype",), differs="a ``dtype``"),
    Dist("exponential", (_SCALE,), lambda g, s, t, at, scale: _e(g, s, t, at) * scale,
         "``scale * standard_exponential()``."),
    Dist("standard_cauchy", (), _cauchy, f"Cauchy(0, 1): tan(pi (U - 1/2)), by {_INV}."),
    Dist("lognormal", (_p("mean", 0.0), _p("sigma", 1.0, "ge0")),
         lambda g, s, t, at, mean, sigma: U.exp(_z(g, s, t, at) * sigma + mean), "``exp(normal(mean, sigma))``."),
    Dist("laplace", (_LOC, _SCALE), _laplace, f"Laplace (double exponential), by {_INV}."),
    Dist("logistic", (_LOC, _SCALE), _logistic, f"``loc + scale * log(U / (1 - U))``, by {_INV}."),
    Dist("gumbel", (_LOC, _SCALE), _gumbel, f"``loc - scale * log(-log(U))``, by {_INV}."),
    Dist("rayleigh", (_SCALE,), lambda g, s, t, at, scale: (_e(g, s, t, at) * 2) ** 0.5 * scale,
         "``scale * sqrt(2 * standard_exponential())``."),
    Dist("wald", (_p("mean", REQUIRED, "gt0"), _p("scale", REQUIRED, "gt0")), _wald,
         "Inverse Gaussian, by Michael, Schucany and Haas's transformation of a normal and a uniform."),
    Dist("weibull", (_p("a", REQUIRED, "ge0"),), _weibull, "``standard_exponential() ** (1 / a)`` (0 where a is 0)."),
    Dist("pareto", (_p("a", REQUIRED, "gt0"),), lambda g, s, t, at, a: U.expm1(_e(g, s, t, at) / a),
         "Pareto II (Lomax): ``expm1(standard_exponential() / a)``."),
    Dist("power", (_p("a", REQUIRED, "gt0"),), lambda g, s, t, at, a: (-U.expm1(-_e(g, s, t, at))) ** (1 / a),
         "Power function on [0, 1]: ``(1 - exp(-standard_exponential())) ** (1 / a)``."),
    Dist("triangular", (_p("left"), _p("mode"), _p("right")), _triangular,
         f"Triangular on [left, right] peaking at mode, by {_INV}.", _triangular_check),
    Dist("geometric", (_p("p", REQUIRED, "prob_pos"),), _geometric,
         f"Trials to the first success (>= 1), by {_INV}.", integer=True),
    Dist("standard_gamma", (_p("shape", REQUIRED, "ge0", "notnan"),), _gamma,
         "Gamma(shape, 1) by Marsaglia and Tsang's rejection (shape < 1: boosted by U ** (1 / shape)).",
         extras=("dtype", "out")),
    Dist("gamma", (_p("shape", REQUIRED, "ge0", "notnan"), _SCALE),
         lambda g, s, t, at, shape, scale: _gamma(g, s, t, at, shape) * scale, "``scale * standard_gamma(shape)``."),
    Dist("beta", (_p("a", REQUIRED, "gt0", "notnan"), _p("b", REQUIRED, "gt0", "notnan")), _beta,
         "``X / (X + Y)`` for X = standard_gamma(a), Y = standard_gamma(b), in log space (tiny a and b too)."),
    Dist("chisquare", (_DF,), _chisquare, "``2 * standard_gamma(df / 2)``."),
    Dist("noncentral_chisquare", (_DF, _NONC), _noncentral_chisquare,
         "``chisquare(df + 2 * poisson(nonc / 2))``: the Poisson mixture."),
    Dist("f", _DFS,
         lambda g, s, t, at, n, d: _chisquare(g, s, t, at, n) / n / (_chisquare(g, s, t, at, d) / d),
         "``(chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden)``."),
    Dist("noncentral_f", (*_DFS, _NONC),
         lambda g, s, t, at, n, d, c: _noncentral_chisquare(g, s, t, at, n, c) / n / (_chisquare(g, s, t, at, d) / d),
         "``(noncentral_chisquare(dfnum, nonc) / dfnum) / (chisquare(dfden) / dfden)``."),
    Dist("standard_t", (_DF,),
         lambda g, s, t, at, df: _z(g, s, t, at) * (df / 2) ** 0.5 / _gamma(g, s, t, at, df / 2) ** 0.5,
         "``standard_normal() / sqrt(chisquare(df) / df)``."),
    Dist("poisson", (_p("lam", 1.0, "lam", "lam_max"),), _poisson, "Poisson(lam) by darray's sampler.", integer=True),
    Dist("binomial", (_p("n", REQUIRED, "ge0", "notnan", integer=True), _p("p", REQUIRED, "prob")),
         _sampler("binomial", True), "Binomial(n, p) by darray's sampler.", integer=True),
    Dist("negative_binomial", (_p("n", REQUIRED, "gt0", "notnan"), _p("p", REQUIRED, "prob_pos")),
         lambda g, s, t, at, n, p: _poisson(g, s, t, at, U.minimum(_gamma(g, s, t, at, n) * ((1 - p) / p), LAM_MAX)),
         "``poisson(gamma(n, (1 - p) / p))``: failures before the n-th success.", _negative_binomial_check,
         integer=True),
    Dist("hypergeometric", tuple(_p(n, REQUIRED, "ge0", "notnan", "lt1e9", integer=True) for n in ("ngood", "nbad"))
         + (_p("nsample", REQUIRED, "ge0", "notnan", integer=True),), _sampler("hypergeometric", True),
         "Good items among ``nsample`` drawn without replacement, by darray's sampler.", _hypergeometric_check,
         integer=True),
    Dist("vonmises", (_p("mu"), _p("kappa", REQUIRED, "ge0", "notnan")), _sampler("vonmises", False),
         "Von Mises on [-pi, pi] by Best and Fisher's rejection (darray's sampler)."),
    Dist("zipf", (_p("a", REQUIRED, "gt1"),), _sampler("zipf", True), "Zipf(a) by darray's sampler.", integer=True),
    Dist("logseries", (_p("p", REQUIRED, "prob_lt1"),), _sampler("logseries", True),
         "Logarithmic series by darray's sampler.", integer=True),
)

_KEYWORD = inspect.Parameter.KEYWORD_ONLY
_POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


def _signature(row: Dist) -> inspect.Signature:
    """NumPy's signature of ``row``'s method, plus ``device=`` and ``place=``."""
    params = [inspect.Parameter("self", _POSITIONAL)]
    params += [inspect.Parameter(p.name, _POSITIONAL, **({} if p.default is REQUIRED else {"default": p.default}))
               for p in row.params]
    params += [inspect.Parameter(n, _POSITIONAL, default=None) for n in ("size", *row.extras)]
    params += [inspect.Parameter(n, _KEYWORD, default=None) for n in ("device", "place")]
    return inspect.Signature(params, return_annotation=DArray)


def _run(g: Source, row: Dist, a: dict[str, Any]) -> DArray:
    """``row``'s draw for the bound arguments ``a``."""
    op, out = row.name, a.get("out")
    size, dtype, device = out_args(out, a["size"], a.get("dtype"), a["device"], a["place"], op)
    values = [a[p.name] for p in row.params]
    at = place_of(device, a["place"], op, *values)
    dt = float_dtype(dtype, at, op)
    params, shape = resolve(op, row.params, values, size, at, dt, row.check)
    drawn = row.draw(g, shape, dt, at, *params)
    want = _dt.int64 if row.integer else dt
    drawn = drawn if drawn.dtype == want else drawn.astype(want)
    if out is None:
        return drawn
    out[...] = drawn
    return out


def _method(row: Dist) -> Callable[..., DArray]:
    sig = _signature(row)

    def method(self: Source, *args: Any, **kwargs: Any) -> DArray:
        bound = sig.bind(self, *args, **kwargs)
        bound.apply_defaults()
        return _run(self, row, bound.arguments)

    note = f" Differs from NumPy: {row.differs}." if row.differs else ""
    method.__name__ = method.__qualname__ = row.name
    broadcast = " Array-valued parameters broadcast as NumPy's." if row.params else ""
    method.__doc__ = (f"{row.doc}{broadcast}\n\n"
                      f"See also: numpy.random.Generator.{row.name} (darray's streams differ; ``size=None`` with "
                      f"scalar parameters gives a 0-d array).{note}")
    method.__signature__ = sig  # type: ignore[attr-defined]
    return method


class Distributions:
    """The methods of ``ROWS``, made once (a base of :class:`darray.random.Generator`)."""
    if TYPE_CHECKING:  # the methods made below, for type checkers
        def uniform(self, *args: Any, **kwargs: Any) -> DArray: ...
        normal = exponential = standard_cauchy = lognormal = laplace = logistic = gumbel = rayleigh = uniform
        wald = weibull = pareto = power = triangular = geometric = standard_gamma = gamma = beta = uniform
        chisquare = noncentral_chisquare = f = noncentral_f = standard_t = poisson = binomial = uniform
        negative_binomial = hypergeometric = vonmises = zipf = logseries = uniform


for _row in ROWS:
    setattr(Distributions, _row.name, _method(_row))
