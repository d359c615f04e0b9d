"""The convenience classes (``Polynomial``, ``Chebyshev``, ... as NumPy's ``ABCPolyBase``): one generic
:class:`SeriesBase` whose subclasses name only their basis row.

A series holds its coefficients ``coef`` as a DArray (lowest degree first), a ``domain`` mapped onto a
``window`` before evaluation, and a ``symbol``. Differs from NumPy: ``domain`` and ``window`` are NumPy arrays
(two host numbers every evaluation maps with); ``str``, ``format`` and ``_repr_latex_`` are NumPy's own
printers on a host copy of the coefficients (``set_default_printstyle`` applies).
"""
from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from .._array import DArray
from ..ops.creation import linspace as _linspace
from ..transfer.convert import to_numpy
from . import _algebra as A
from . import polyutils as pu
from ._basis import CHEBYSHEV, HERMITE, HERMITE_E, LAGUERRE, LEGENDRE, POWER, Basis
from ._bind import functions, host
from ._evaluate import chebinterpolate


class SeriesBase:
    """A polynomial series in one basis (the subclass's ``_row``). See also: numpy.polynomial.Polynomial."""

    _row: ClassVar[Basis]
    domain: ClassVar[np.ndarray]
    window: ClassVar[np.ndarray]
    basis_name: ClassVar[str | None]
    maxpower: ClassVar[int] = 100
    __hash__ = None  # type: ignore[assignment]
    __array_ufunc__ = None  # NumPy's binary operators defer to ours

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.domain, cls.window, cls.basis_name = np.array(cls._row.domain), np.array(cls._row.window), \
            cls._row.basis_name
        cls._f = functions(cls._row)

    _f: ClassVar[dict[str, Any]]

    def __init__(self, coef: Any, domain: Any = None, window: Any = None, symbol: str = "x") -> None:
        [self.coef] = pu.as_series([coef], trim=False)
        if domain is not None:
            self.domain = _interval(domain, "Domain")  # type: ignore[misc]
        if window is not None:
            self.window = _interval(window, "Window")  # type: ignore[misc]
        try:
            if not symbol.isidentifier():
                raise ValueError(f"{type(self).__name__}: Symbol string must be a valid Python identifier")
        except AttributeError:
            raise TypeError(f"{type(self).__name__}: Symbol must be a non-empty string") from None
        self._symbol = symbol

    @property
    def symbol(self) -> str:
        return self._symbol

    def _new(self, coef: Any) -> Any:
        return type(self)(coef, self.domain, self.window, self.symbol)

    # -- comparisons
    def has_samecoef(self, other: Any) -> bool:
        """Whether the coefficients are the same (length and values)."""
        return len(self.coef) == len(other.coef) and bool(np.all(to_numpy(self.coef) == host(other.coef)))

    def has_samedomain(self, other: Any) -> bool:
        return bool(np.all(self.domain == other.domain))

    def has_samewindow(self, other: Any) -> bool:
        return bool(np.all(self.window == other.window))

    def has_sametype(self, other: Any) -> bool:
        return isinstance(other, type(self))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, type(self)) and self.has_samedomain(other) and self.has_samewindow(other)
                and self.coef.shape == other.coef.shape and self.has_samecoef(other) and self.symbol == other.symbol)

    def __ne__(self, other: object) -> bool:
        return not self == other

    # -- arithmetic
    def _coefficients(self, other: Any) -> Any:
        if not isinstance(other, SeriesBase):
            return other
        if not isinstance(other, type(self)):
            raise TypeError("Polynomial types differ")
        if not self.has_samedomain(other):
            raise TypeError("Domains differ")
        if not self.has_samewindow(other):
            raise TypeError("Windows differ")
        if self.symbol != other.symbol:
            raise ValueError("Polynomial symbols differ")
        return other.coef

    def _binary(self, op: str, a: Any, b: Any) -> Any:
        try:
            return self._new(self._f[op](a, b))
        except Exception:  # NumPy's rule: an operand the algebra cannot take is NotImplemented
            return NotImplemented

    def __add__(self, other: Any) -> Any:
        return self._binary("add", self.coef, self._coefficients(other))

    def __sub__(self, other: Any) -> Any:
        return self._binary("sub", self.coef, self._coefficients(other))

    def __mul__(self, other: Any) -> Any:
        return self._binary("mul", self.coef, self._coefficients(other))

    def __radd__(self, other: Any) -> Any:
        return self._binary("add", other, self.coef)

    def __rsub__(self, other: Any) -> Any:
        return self._binary("sub", other, self.coef)

    def __rmul__(self, other: Any) -> Any:
        return self._binary("mul", other, self.coef)

    def __truediv__(self, other: Any) -> Any:
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: '{type(self)}', '{type(other)}'")
        return self.__floordiv__(other)

    def __rtruediv__(self, other: Any) -> Any:
        return NotImplemented

    def _divmod(self, a: Any, b: Any) -> Any:
        try:
            quo, rem = self._f["div"](a, b)
        except ZeroDivisionError:
            raise
        except Exception:
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __divmod__(self, other: Any) -> Any:
        return self._divmod(self.coef, self._coefficients(other))

    def __rdivmod__(self, other: Any) -> Any:
        return self._divmod(other, self.coef)

    def __floordiv__(self, other: Any) -> Any:
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other: Any) -> Any:
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[1]

    def __rfloordiv__(self, other: Any) -> Any:
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other: Any) -> Any:
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[1]

    def __pow__(self, other: Any) -> Any:
        return self._new(self._f["pow"](self.coef, other, maxpower=self.maxpower))

    def __neg__(self) -> Any:
        return self._new(-self.coef)

    def __pos__(self) -> Any:
        return self

    # -- values
    def __call__(self, arg: Any) -> Any:
        return self._f["val"](pu.mapdomain(arg, self.domain, self.window), self.coef)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.coef)

    def __len__(self) -> int:
        return len(self.coef)

    def copy(self) -> Any:
        return self._new(self.coef.copy())

    def degree(self) -> int:
        return len(self) - 1

    def cutdeg(self, deg: int) -> Any:
        return self.truncate(deg + 1)

    def trim(self, tol: Any = 0) -> Any:
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size: Any) -> Any:
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError(f"{type(self).__name__}.truncate: size must be a positive integer")
        return self._new(self.coef if isize >= len(self.coef) else self.coef[:isize])

    def mapparms(self) -> tuple[Any, Any]:
        """(off, scl) of the map from ``domain`` onto ``window``."""
        return pu.mapparms(self.domain, self.window)

    def convert(self, domain: Any = None, kind: Any = None, window: Any = None) -> Any:
        """This series as one of ``kind`` (default: this class) with the given domain and window."""
        kind = type(self) if kind is None else kind
        return self(kind.identity(kind.domain if domain is None else domain,
                                  window=kind.window if window is None else window, symbol=self.symbol))

    def integ(self, m: int = 1, k: Any = [], lbnd: Any = None) -> Any:  # noqa: B006  (NumPy's default)
        off, scl = self.mapparms()
        return self._new(self._f["int"](self.coef, m, k, 0 if lbnd is None else off + scl * lbnd, 1.0 / scl))

    def deriv(self, m: int = 1) -> Any:
        return self._new(self._f["der"](self.coef, m, self.mapparms()[1]))

    def roots(self) -> DArray:
        return pu.mapdomain(self._f["roots"](self.coef), self.window, self.domain)

    def linspace(self, n: int = 100, domain: Any = None) -> tuple[DArray, DArray]:
        """``n`` evenly spaced x over ``domain`` (default: the series's) and the series's values there."""
        lo, hi = self.domain if domain is None else np.asarray(host(domain))
        x = _linspace(lo, hi, n, device=self.coef.place)
        return x, self(x)

    @classmethod
    def fit(cls, x: Any, y: Any, deg: Any, domain: Any = None, rcond: Any = None, full: bool = False, w: Any = None,
            window: Any = None, symbol: str = "x") -> Any:
        """The least-squares series of degree ``deg`` through (x, y), x mapped from ``domain`` (default: the
        smallest interval holding x; ``[]``: the class's) onto ``window``."""
        if domain is None:
            domain = to_numpy(pu.getdomain(x))
            if domain[0] == domain[1]:
                domain = domain + np.array([-1, 1])
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        window = cls.window if window is None else window
        res = cls._f["fit"](pu.mapdomain(x, domain, window), y, deg, w=w, rcond=rcond, full=full)
        coef, status = res if full else (res, None)
        made = cls(coef, domain=domain, window=window, symbol=symbol)
        return (made, status) if full else made

    @classmethod
    def fromroots(cls, roots: Any, domain: Any = [], window: Any = None, symbol: str = "x") -> Any:  # noqa: B006
        """The series with these roots (and leading x coefficient 1 before the domain map)."""
        [r] = pu.as_series([roots], trim=False)
        if domain is None:
            domain = to_numpy(pu.getdomain(r))
        elif type(domain) is list and len(domain) == 0:
            domain = cls.domain
        window = cls.window if window is None else window
        off, scl = pu.mapparms(domain, window)
        coef = cls._f["fromroots"](off + scl * r) / scl ** len(r)
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """The series of x on ``domain``."""
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        off, scl = pu.mapparms(window, domain)
        return cls(cls._f["line"](off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg: Any, domain: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """The basis function of degree ``deg``."""
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError(f"{cls.__name__}.basis: deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series: Any, domain: Any = None, window: Any = None) -> Any:
        """``series`` (of any kind) converted to this class."""
        return series.convert(domain, cls, window)

    # -- printing
    def _numpy(self) -> Any:
        return getattr(np.polynomial, type(self).__name__)(to_numpy(self.coef), self.domain, self.window,
                                                            self.symbol)

    def __repr__(self) -> str:
        def body(a: np.ndarray) -> str:
            return repr(a)[6:-1]
        return (f"{type(self).__name__}({body(to_numpy(self.coef))}, domain={body(self.domain)}, "
                f"window={body(self.window)}, symbol='{self.symbol}')")

    def __str__(self) -> str:
        return str(self._numpy())

    def __format__(self, fmt_str: str) -> str:
        return format(self._numpy(), fmt_str)

    def _repr_latex_(self) -> str:
        return self._numpy()._repr_latex_()


def _interval(v: Any, what: str) -> np.ndarray:
    [arr] = A.as_series([host(v)], trim=False, name=what)
    if len(arr) != 2:
        raise ValueError(f"{what} has wrong number of elements.")
    return arr


class Polynomial(SeriesBase):
    """A power series. See also: numpy.polynomial.Polynomial."""
    _row = POWER


class Chebyshev(SeriesBase):
    """A Chebyshev series. See also: numpy.polynomial.Chebyshev."""
    _row = CHEBYSHEV

    @classmethod
    def interpolate(cls, func: Any, deg: Any, domain: Any = None, args: tuple[Any, ...] = ()) -> Chebyshev:
        """The Chebyshev series interpolating ``func`` at the Chebyshev points of the first kind of ``domain``."""
        domain = cls.domain if domain is None else domain

        def mapped(x: Any, *a: Any) -> Any:
            return func(pu.mapdomain(x, cls.window, domain), *a)
        return cls(chebinterpolate(mapped, deg, args, cls._f["vander"], "Chebyshev.interpolate"), domain=domain)


class Legendre(SeriesBase):
    """A Legendre series. See also: numpy.polynomial.Legendre."""
    _row = LEGENDRE


class Laguerre(SeriesBase):
    """A Laguerre series. See also: numpy.polynomial.Laguerre."""
    _row = LAGUERRE


class Hermite(SeriesBase):
    """A Hermite (physicists') series. See also: numpy.polynomial.Hermite."""
    _row = HERMITE


class HermiteE(SeriesBase):
    """A HermiteE (probabilists' Hermite) series. See also: numpy.polynomial.HermiteE."""
    _row = HERMITE_E
