"""The six bases of ``numpy.polynomial`` as data: one :class:`Basis` row each.

A basis is its three-term recurrence ``delta_k P[k+1] = (alpha_k x + beta_k) P[k] - gamma_k P[k-1]``
(``P[0] = 1``, ``P[-1] = 0``), exact numbers (ints or Fractions). Every algorithm of the package derives
what it needs from the recurrence: multiplication by x, the Vandermonde columns, Clenshaw evaluation,
the derivative and integral matrices, the companion matrix and the Gauss nodes. The rest of a row is
what the recurrence cannot say: the default domain and window, the weight function and its integral
(for Gauss quadrature), and NumPy's names.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..ops import elementwise as E

Exact = int | Fraction
Recurrence = Callable[[int], tuple[Exact, Exact, Exact, Exact]]


@dataclass(frozen=True, eq=False)
class Basis:
    """One polynomial basis: ``prefix`` of NumPy's function names (``"cheb"``), its module and class names,
    the recurrence (``k -> (alpha, beta, gamma, delta)``), the default domain and window, the weight function
    (``None`` for the power basis) with its integral ``mu0`` over the domain of orthogonality, whether the
    weight is even (nodes and weights symmetric), an optional closed form of the Gauss rule, the symbol NumPy
    prints for basis functions, the largest power ``pow`` takes by default (``None``: no limit), and ``widens``:
    NumPy's mul of this basis returns double precision for single-precision input when a factor is a constant
    (so do its pow of a constant and its division's remainder); darray's results take the same dtypes."""

    prefix: str
    module: str
    cls: str
    recurrence: Recurrence
    domain: tuple[float, float]
    window: tuple[float, float]
    weight: Callable[[Any], Any] | None = None
    mu0: float = 0.0
    even: bool = False
    gauss: Callable[[int], tuple[np.ndarray, np.ndarray]] | None = None
    basis_name: str | None = None
    maxpower: int | None = 16
    widens: bool = True

    def step(self, k: int) -> tuple[Exact, Exact, Exact, Exact]:
        """The recurrence numbers (alpha, beta, gamma, delta) that give ``P[k+1]``."""
        return self.recurrence(k)

    def x_terms(self, k: int) -> tuple[Fraction, Fraction, Fraction]:
        """``x P[k] = up P[k+1] + mid P[k] + down P[k-1]``: (up, mid, down), exactly."""
        alpha, beta, gamma, delta = self.step(k)
        return Fraction(delta) / alpha, Fraction(-beta) / alpha, Fraction(gamma) / alpha


def _power(k: int) -> tuple[Exact, Exact, Exact, Exact]:
    return 1, 0, 0, 1                      # x^(k+1) = x x^k


def _chebyshev(k: int) -> tuple[Exact, Exact, Exact, Exact]:
    return (1, 0, 0, 1) if k == 0 else (2, 0, 1, 1)  # T1 = x; T(k+1) = 2x Tk - T(k-1)


def _legendre(k: int) -> tuple[Exact, Exact, Exact, Exact]:
    return 2 * k + 1, 0, k, k + 1          # (k+1) P(k+1) = (2k+1) x Pk - k P(k-1)


def _laguerre(k: int) -> tuple[Exact, Exact, Exact, Exact]:
    return -1, 2 * k + 1, k, k + 1         # (k+1) L(k+1) = (2k+1 - x) Lk - k L(k-1)


def _hermite(k: int) -> tuple[Exact, Exact, Exact, Exact]:
    return 2, 0, 2 * k, 1                  # H(k+1) = 2x Hk - 2k H(k-1)


def _hermite_e(k: int) -> tuple[Exact, Exact, Exact, Exact]:
    return 1, 0, k, 1                      # He(k+1) = x He_k - k He(k-1)


def _chebyshev_gauss(deg: int) -> tuple[np.ndarray, np.ndarray]:
    """Gauss-Chebyshev: nodes cos((2k - 1) pi / (2 deg)), k = 1..deg (descending, as NumPy's), weights pi / deg."""
    return np.cos(np.pi * np.arange(1, 2 * deg, 2) / (2.0 * deg)), np.full(deg, np.pi / deg)


def _exp(x: Any) -> Any:
    return E.apply("exp", x)


def _sqrt(x: Any) -> Any:
    return E.apply("sqrt", x)


POWER = Basis("poly", "polynomial", "Polynomial", _power, (-1.0, 1.0), (-1.0, 1.0), maxpower=None,
              widens=False)
CHEBYSHEV = Basis("cheb", "chebyshev", "Chebyshev", _chebyshev, (-1.0, 1.0), (-1.0, 1.0),
                  weight=lambda x: 1.0 / (_sqrt(1.0 + x) * _sqrt(1.0 - x)), mu0=np.pi, even=True,
                  gauss=_chebyshev_gauss, basis_name="T", widens=False)
LEGENDRE = Basis("leg", "legendre", "Legendre", _legendre, (-1.0, 1.0), (-1.0, 1.0),
                 weight=lambda x: x * 0.0 + 1.0, mu0=2.0, even=True, basis_name="P")
LAGUERRE = Basis("lag", "laguerre", "Laguerre", _laguerre, (0.0, 1.0), (0.0, 1.0),
                 weight=lambda x: _exp(-x), mu0=1.0, basis_name="L")
HERMITE = Basis("herm", "hermite", "Hermite", _hermite, (-1.0, 1.0), (-1.0, 1.0),
                weight=lambda x: _exp(-(x * x)), mu0=float(np.sqrt(np.pi)), even=True, basis_name="H")
HERMITE_E = Basis("herme", "hermite_e", "HermiteE", _hermite_e, (-1.0, 1.0), (-1.0, 1.0),
                  weight=lambda x: _exp(-0.5 * (x * x)), mu0=float(np.sqrt(2 * np.pi)), even=True,
                  basis_name="He")

BASES = (POWER, CHEBYSHEV, LEGENDRE, LAGUERRE, HERMITE, HERMITE_E)
