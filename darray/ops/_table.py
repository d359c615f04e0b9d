"""The elementwise op table: one row per op, feeding the dispatcher, the kernel renderer,
the public functions, their docstrings, ``__all__`` and the tests.

A row names the NumPy reference (whose ufunc loop resolution gives darray's dtypes, so
promotion matches NumPy 2 exactly), and the OpenCL C expression per kind of the loop's
input dtypes: ``b`` bool, ``i`` signed, ``u`` unsigned, ``f`` float, ``c`` complex, ``iu``
and ``ui`` for mixed signed/unsigned pairs, ``*`` any. Placeholders: ``{0}``.. the
arguments, ``{T}`` the C type of the first argument, ``{U}`` its unsigned twin, ``{R}`` the
component type of a complex. Each row's facts (its C expression, whether its float template is
vector-safe, the NumPy function the host engine computes it with) go to ``lazy.table``.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from ..dtypes import ctype
from ..lazy import table as _lazy_table
from ..lazy.spec import Instr

WRAP = "({T})(({U}){0} %s ({U}){1})"   # integer arithmetic with wrap-around (no C signed overflow)
NANMAX = "(({0} > {1} || isnan({0})) ? {0} : {1})"
NANMIN = "(({0} < {1} || isnan({0})) ? {0} : {1})"
_NZ0, _NZ1 = "({0}.x != 0 || {0}.y != 0)", "({1}.x != 0 || {1}.y != 0)"  # truth of a complex


def _clip(x: Any, lo: Any, hi: Any, out: np.ndarray | None = None) -> Any:
    """``clip`` as the kernel computes it, for the host path: ``numpy.clip`` keeps ``x`` on a tie
    with scalar bounds but returns the bound with array bounds (its two loops), which differs at
    signed zeros; the kernel keeps ``x``, NaN in any argument propagating."""
    if np.result_type(x, lo, hi).kind != "f":
        return np.clip(x, lo, hi, out=out)
    t = np.where((x < lo) | np.isnan(lo), lo, x)
    r = np.where((t > hi) | np.isnan(hi), hi, t)
    if out is None:
        return r
    np.copyto(out, r)
    return out


def _power(base: np.ndarray, exp: np.ndarray) -> np.ndarray:
    """numpy.power, but a negative integer exponent gives 0 (+-1 for bases +-1), as the OpenCL kernel."""
    if exp.dtype.kind != "i" or not (exp < 0).any():
        return np.power(base, exp)
    base, exp = np.broadcast_arrays(base, exp)
    out = np.power(base, np.where(exp < 0, 0, exp).astype(exp.dtype))
    neg = np.where(base == 1, 1, np.where(base == -1, np.where(exp % 2 == 0, 1, -1), 0))
    return np.where(exp < 0, neg.astype(out.dtype), out)


def _expm1(x: np.ndarray) -> np.ndarray:
    """numpy.expm1 with the Array API's complex special values where NumPy's formula differs, as
    complex.h's cexpm1: +0 + 0j at +-0 + 0j, NaN + 0j at NaN + 0j, inf + 0j at inf + 0j, -1 +- 0j
    at -inf + iy, inf + NaN j at inf + i(inf or NaN)."""
    out = np.array(np.expm1(x))
    if out.dtype.kind != "c":
        return out
    re, im = x.real, x.imag
    axis = im == 0
    out.real[axis] = np.where(re[axis] == 0, 0, np.expm1(re[axis]))
    out.imag[axis] = im[axis]
    low = np.isneginf(re) & ~axis
    out.real[low] = -1
    out.imag[low] = np.copysign(0, np.where(np.isfinite(im[low]), np.sin(im[low]), im[low]))
    high = np.isposinf(re) & ~np.isfinite(im)
    out.real[high], out.imag[high] = re[high], im[high] - im[high]
    return out


def _floating(x: Any) -> np.ndarray:
    """``x`` converted to the float dtype NumPy's ``exp`` computes it in (before any negation)."""
    x = np.asarray(x)
    return x.astype(np.exp.resolve_dtypes((x.dtype, None))[0])


@dataclass(frozen=True)
class Op:
    """One elementwise op: ``name(args)`` computed by ``c[kind]`` and checked against ``ref``.

    ``types``: ``"ufunc"`` resolves dtypes with ``ref.resolve_dtypes``; ``"same"`` keeps the
    input dtype; ``"round"`` too, but bool gives float16 (``numpy.round``); ``"promote"`` uses
    darray's result_type of all args; ``"real"`` gives the real component dtype;
    ``"like:<ufunc>"`` resolves like another NumPy ufunc. ``host``: the kinds of loop dtypes for
    which :attr:`compute` gives the kernel's bits exactly (IEEE-exact or integer ops), so small
    graphs may run through NumPy on host-backed devices (``darray.lazy.host``). ``kernel_ref``:
    NumPy code giving the kernel's results where ``ref``'s differ (pow's negative integer
    exponents, expm1's complex special values, clip's signed-zero ties), else None.
    """

    name: str
    arity: int
    ref: Callable[..., Any]
    c: dict[str, str]
    types: str = "ufunc"
    doc: str = ""
    kinds: str = "biufc"
    aliases: tuple[str, ...] = field(default=())
    host: str = ""
    kernel_ref: Callable[..., Any] | None = None

    @property
    def compute(self) -> Callable[..., Any]:
        """The one NumPy reference computing the op as the kernels do: for the host engine and the
        CPU place (``ref`` stays NumPy's function: dtype resolution, docs, ufunc attributes)."""
        return self.kernel_ref or self.ref


_TRIG = {"sin", "cos", "tan"}  # through elementwise.h's trig_* (own float/float8 code, faster than PoCL's)


def _unary_math(name: str, ref: Callable[..., Any], doc: str, aliases: tuple[str, ...] = (), host: str = "",
                kernel_ref: Callable[..., Any] | None = None) -> Op:
    f = f"trig_{name}({{0}})" if name in _TRIG else f"{name}({{0}})"
    return Op(name, 1, ref, {"f": f, "c": f"c{name}_{{R}}({{0}})"}, doc=doc, aliases=aliases, host=host,
              kernel_ref=kernel_ref)


def _compare(name: str, ref: Callable[..., Any], sym: str, doc: str) -> Op:  # exact for every real kind
    c = {"*": f"({{0}} {sym} {{1}})", "c": f"c{name}_{{R}}({{0}}, {{1}})",
         "iu": f"(({{0}} < 0) ? (0 {sym} 1) : ((ulong){{0}} {sym} {{1}}))",
         "ui": f"(({{1}} < 0) ? (1 {sym} 0) : ({{0}} {sym} (ulong){{1}}))"}
    return Op(name, 2, ref, c, doc=doc, host="biuf")


OPS: tuple[Op, ...] = (
    # arithmetic
    Op("add", 2, np.add, {"b": "({0} | {1})", "i": WRAP % "+", "u": WRAP % "+", "*": "({0} + {1})"},
       doc="x1 + x2", host="biuf"),
    Op("subtract", 2, np.subtract, {"i": WRAP % "-", "u": WRAP % "-", "*": "({0} - {1})"}, doc="x1 - x2", host="iuf"),
    Op("multiply", 2, np.multiply, {"b": "({0} & {1})", "i": WRAP % "*", "u": WRAP % "*",
                                    "c": "cmul_{R}({0}, {1})", "*": "({0} * {1})"}, doc="x1 * x2", host="biuf"),
    Op("divide", 2, np.true_divide, {"c": "cdiv_{R}({0}, {1})", "*": "({0} / {1})"}, doc="x1 / x2 (true division)",
       aliases=("true_divide",), host="f"),
    Op("floor_divide", 2, np.floor_divide, {"*": "floordiv_{T}({0}, {1})"},
       doc="x1 // x2, NumPy's floor division (for floats, npy_divmod's quotient, bit for bit: -1 // inf is -1, "
           "inf // 2 is NaN); integer division by zero gives 0 (NumPy warns)", host="iuf"),
    Op("remainder", 2, np.remainder, {"*": "pymod_{T}({0}, {1})"}, doc="x1 % x2 with the sign of x2 (NumPy's bits)",
       aliases=("mod",), host="iuf"),
    Op("pow", 2, np.power, {"i": "ipow_{T}({0}, {1})", "u": "ipow_{T}({0}, {1})", "b": "({0} | !{1})",
                            "c": "cpow_{R}({0}, {1})", "f": "pow({0}, {1})"},
       doc="x1 ** x2. Differs from NumPy: a negative integer exponent inside an array gives 0 (or +-1 for "
           "bases +-1) instead of raising; the operator ``x ** 3`` on a real float array is ``x * x * x`` "
           "(within an ulp of pow; ``** 2``, ``** -1`` and ``** 0.5`` are square, reciprocal and sqrt, as in NumPy)",
       aliases=("power",), kernel_ref=_power),
    Op("negative", 1, np.negative, {"i": "({T})(-({U}){0})", "u": "({T})(-({U}){0})", "*": "(-{0})"},
       doc="-x", host="iuf"),
    Op("positive", 1, np.positive, {"*": "{0}"}, doc="+x", host="biuf"),
    Op("abs", 1, np.absolute, {"i": "(({0} < 0) ? ({T})(-({U}){0}) : {0})", "u": "{0}", "b": "{0}",
                               "f": "fabs({0})", "c": "cabs_{R}({0})"}, doc="|x|", aliases=("absolute",), host="biuf"),
    Op("square", 1, np.square, {"b": "({0} & {0})", "i": "({T})(({U}){0} * ({U}){0})", "u": "({T})({0} * {0})",
                                "c": "cmul_{R}({0}, {0})", "*": "({0} * {0})"}, doc="x * x", host="biuf"),
    Op("reciprocal", 1, np.reciprocal, {"i": "recip_{T}({0})", "u": "recip_{T}({0})", "c": "crecip_{R}({0})",
                                        "*": "(({T})1 / {0})"}, doc="1 / x (integer division for integers)",
       host="f"),
    Op("sign", 1, np.sign, {"i": "({T})(({0} > 0) - ({0} < 0))", "u": "({T})({0} > 0)", "c": "csign_{R}({0})",
                            "f": "(isnan({0}) ? {0} : ({T})(({0} > 0) - ({0} < 0)))"}, doc="sign; z/|z| for complex",
       host="iuf"),
    Op("maximum", 2, np.maximum, {"f": NANMAX, "c": "cmaximum_{R}({0}, {1})", "*": "(({0} > {1}) ? {0} : {1})"},
       doc="elementwise maximum, NaN propagates", host="biuf"),
    Op("minimum", 2, np.minimum, {"f": NANMIN, "c": "cminimum_{R}({0}, {1})", "*": "(({0} < {1}) ? {0} : {1})"},
       doc="elementwise minimum, NaN propagates", host="biuf"),
    # exponents, logarithms, roots, trigonometry
    *(_unary_math(n, r, d, a) for n, r, d, a in (
        ("exp", np.exp, "e**x", ()), ("log", np.log, "natural logarithm", ()),
        ("log1p", np.log1p, "log(1 + x)", ()), ("log2", np.log2, "base-2 logarithm", ()),
        ("log10", np.log10, "base-10 logarithm", ()),
        ("sin", np.sin, "sine", ()), ("cos", np.cos, "cosine", ()), ("tan", np.tan, "tangent", ()),
        ("asin", np.arcsin, "inverse sine", ("arcsin",)), ("acos", np.arccos, "inverse cosine", ("arccos",)),
        ("atan", np.arctan, "inverse tangent", ("arctan",)), ("sinh", np.sinh, "hyperbolic sine", ()),
        ("cosh", np.cosh, "hyperbolic cosine", ()), ("tanh", np.tanh, "hyperbolic tangent", ()),
        ("asinh", np.arcsinh, "inverse hyperbolic sine", ("arcsinh",)),
        ("acosh", np.arccosh, "inverse hyperbolic cosine", ("arccosh",)),
        ("atanh", np.arctanh, "inverse hyperbolic tangent", ("arctanh",)))),
    _unary_math("expm1", np.expm1, "e**x - 1. Differs from NumPy for complex at the Array API's special values "
                "(+0 + 0j at -0 + 0j, inf + 0j at inf + 0j, -1 + 0j at -inf + i inf, ...)", kernel_ref=_expm1),
    # correctly rounded in IEEE 754 and NumPy; OpenCL asks it of double, and the host-backed CPU
    # devices give it for float too (test_lazy_host checks the bits of every host-exact row)
    _unary_math("sqrt", np.sqrt, "square root", host="f"),
    Op("atan2", 2, np.arctan2, {"f": "atan2({0}, {1})"}, doc="angle of (x2, x1)", aliases=("arctan2",)),
    Op("hypot", 2, np.hypot, {"f": "hypot({0}, {1})"}, doc="sqrt(x1**2 + x2**2) without overflow"),
    Op("copysign", 2, np.copysign, {"f": "copysign({0}, {1})"}, doc="|x1| with the sign of x2", host="f"),
    Op("nextafter", 2, np.nextafter, {"f": "nextafter({0}, {1})"}, doc="next float after x1 towards x2"),
    Op("logaddexp", 2, np.logaddexp, {"f": "logaddexp_{T}({0}, {1})"}, doc="log(exp(x1) + exp(x2))"),
    Op("logaddexp2", 2, np.logaddexp2, {"f": "logaddexp2_{T}({0}, {1})"}, doc="log2(2**x1 + 2**x2)"),
    Op("fmod", 2, np.fmod, {"i": "cfmod_{T}({0}, {1})", "u": "cfmod_{T}({0}, {1})", "f": "fmod({0}, {1})"},
       doc="C's remainder, with the sign of x1 (integer division by zero gives 0, NumPy warns)", host="iuf"),
    Op("fmax", 2, np.fmax, {"f": "(({0} > {1} || isnan({1})) ? {0} : {1})", "c": "cfmax_{R}({0}, {1})",
                            "*": "(({0} > {1}) ? {0} : {1})"},
       doc="elementwise maximum; NaN only where both are NaN", host="biu"),
    Op("fmin", 2, np.fmin, {"f": "(({0} <= {1} || isnan({1})) ? {0} : {1})", "c": "cfmin_{R}({0}, {1})",
                            "*": "(({0} < {1}) ? {0} : {1})"},
       doc="elementwise minimum; NaN only where both are NaN", host="biu"),
    Op("cbrt", 1, np.cbrt, {"f": "cbrt({0})"}, doc="cube root"),
    Op("exp2", 1, np.exp2, {"f": "exp2({0})", "c": "cexp2_{R}({0})"}, doc="2**x"),
    Op("fabs", 1, np.fabs, {"f": "fabs({0})"}, doc="|x| of real numbers (as floats)", host="f"),
    Op("float_power", 2, np.float_power, {"f": "pow({0}, {1})", "c": "cpow_{R}({0}, {1})"},
       doc="x1 ** x2 in float64 (complex128 for complex)"),
    *(Op(n, 1, r, {"f": f"({{0}} * ({{T}}){k})"}, doc=d, host="") for n, r, k, d in (
        ("degrees", np.degrees, "57.295779513082320876798", "radians to degrees"),
        ("rad2deg", np.rad2deg, "57.295779513082320876798", "radians to degrees"),
        ("radians", np.radians, "0.017453292519943295769237", "degrees to radians"),
        ("deg2rad", np.deg2rad, "0.017453292519943295769237", "degrees to radians"))),
    Op("ldexp", 2, np.ldexp, {"*": "ldexp({0}, (int)clamp((long){1}, -100000L, 100000L))"},
       doc="x1 * 2**x2", kinds="biuf"),
    Op("heaviside", 2, np.heaviside, {"f": "heaviside_{T}({0}, {1})"}, doc="0 for x1 < 0, 1 for x1 > 0, x2 at 0"),
    Op("spacing", 1, np.spacing, {"f": "spacing_{T}({0})"}, doc="the gap to the next float away from zero"),
    Op("gcd", 2, np.gcd, {"i": "gcd_{T}({0}, {1})", "u": "gcd_{T}({0}, {1})"}, doc="greatest common divisor",
       kinds="biu", host="iu"),
    Op("lcm", 2, np.lcm, {"i": "lcm_{T}({0}, {1})", "u": "lcm_{T}({0}, {1})"}, doc="least common multiple",
       kinds="biu", host="iu"),
    Op("bitwise_count", 1, np.bitwise_count, {"i": "popcount(({U})(({0} < 0) ? -({U}){0} : ({U}){0}))",
                                              "u": "popcount({0})"},
       doc="number of 1 bits in |x|", kinds="biu", host="iu"),
    # rounding
    Op("rint", 1, np.rint, {"f": "rint({0})", "c": "({T})(rint({0}.x), rint({0}.y))"},
       doc="round to the nearest integer (half to even), as a float", host="f"),
    Op("ceil", 1, np.ceil, {"f": "ceil({0})", "*": "{0}"}, doc="ceiling", host="f"),
    Op("floor", 1, np.floor, {"f": "floor({0})", "*": "{0}"}, doc="floor", host="f"),
    Op("trunc", 1, np.trunc, {"f": "trunc({0})", "*": "{0}"}, doc="round towards zero", host="f"),
    Op("round", 1, np.round, {"f": "rint({0})", "c": "({T})(rint({0}.x), rint({0}.y))", "*": "{0}"}, types="round",
       doc="round half to even (decimals=0); bool gives float16 as NumPy (float32 without fp16)", host="iuf"),
    # predicates
    Op("isfinite", 1, np.isfinite, {"f": "isfinite({0})", "c": "(isfinite({0}.x) && isfinite({0}.y))", "*": "1"},
       doc="not inf and not NaN", host="biuf"),
    Op("isinf", 1, np.isinf, {"f": "isinf({0})", "c": "(isinf({0}.x) || isinf({0}.y))", "*": "0"},
       doc="+-inf", host="biuf"),
    Op("isnan", 1, np.isnan, {"f": "isnan({0})", "c": "(isnan({0}.x) || isnan({0}.y))", "*": "0"},
       doc="NaN", host="biuf"),
    Op("signbit", 1, np.signbit, {"f": "signbit({0})", "i": "({0} < 0)", "*": "0"}, doc="sign bit set"),
    # complex parts
    Op("conj", 1, np.conjugate, {"c": "({T})({0}.x, -{0}.y)", "*": "{0}"}, doc="complex conjugate",
       aliases=("conjugate",)),
    Op("real", 1, np.real, {"c": "{0}.x", "*": "{0}"}, types="real", doc="real part"),
    Op("imag", 1, np.imag, {"c": "{0}.y", "*": "({T})0"}, types="real", doc="imaginary part"),
    # comparisons
    Op("equal", 2, np.equal, {"*": "({0} == {1})", "c": "({0}.x == {1}.x && {0}.y == {1}.y)",
                              "iu": "({0} >= 0 && (ulong){0} == {1})", "ui": "({1} >= 0 && {0} == (ulong){1})"},
       doc="x1 == x2", host="biuf"),
    Op("not_equal", 2, np.not_equal, {"*": "({0} != {1})", "c": "({0}.x != {1}.x || {0}.y != {1}.y)",
                                      "iu": "({0} < 0 || (ulong){0} != {1})", "ui": "({1} < 0 || {0} != (ulong){1})"},
       doc="x1 != x2", host="biuf"),
    _compare("less", np.less, "<", "x1 < x2 (lexicographic for complex, as NumPy)"),
    _compare("less_equal", np.less_equal, "<=", "x1 <= x2"),
    _compare("greater", np.greater, ">", "x1 > x2"),
    _compare("greater_equal", np.greater_equal, ">=", "x1 >= x2"),
    # logic and bits
    Op("logical_and", 2, np.logical_and, {"*": "({0} && {1})", "c": f"({_NZ0} && {_NZ1})"},
       doc="x1 and x2", host="biuf"),
    Op("logical_or", 2, np.logical_or, {"*": "({0} || {1})", "c": f"({_NZ0} || {_NZ1})"}, doc="x1 or x2", host="biuf"),
    Op("logical_xor", 2, np.logical_xor, {"*": "(!{0} != !{1})", "c": f"({_NZ0} != {_NZ1})"},
       doc="x1 xor x2", host="biuf"),
    Op("logical_not", 1, np.logical_not, {"*": "(!{0})", "c": f"(!{_NZ0})"}, doc="not x", host="biuf"),
    Op("bitwise_and", 2, np.bitwise_and, {"*": "({0} & {1})"}, doc="x1 & x2", host="biu"),
    Op("bitwise_or", 2, np.bitwise_or, {"*": "({0} | {1})"}, doc="x1 | x2", host="biu"),
    Op("bitwise_xor", 2, np.bitwise_xor, {"*": "({0} ^ {1})"}, doc="x1 ^ x2", host="biu"),
    Op("bitwise_invert", 1, np.invert, {"b": "(!{0})", "*": "(~{0})"},
       doc="~x", aliases=("invert", "bitwise_not"), host="biu"),
    Op("bitwise_left_shift", 2, np.left_shift, {"*": "shl_{T}({0}, {1})"}, doc="x1 << x2 (0 past the bit width)",
       aliases=("left_shift",)),
    Op("bitwise_right_shift", 2, np.right_shift, {"*": "shr_{T}({0}, {1})"},
       doc="x1 >> x2 (sign fill past the bit width)", aliases=("right_shift",)),
    # selection and neural-network helpers
    Op("where", 3, np.where, {"*": "({0} ? {1} : {2})"}, types="where", doc="x1 where condition else x2", host="biuf"),
    Op("clip", 3, np.clip, {"f": "clip_{T}({0}, {1}, {2})", "c": "cclip_{R}({0}, {1}, {2})",
                            "*": "min(max({0}, {1}), {2})"}, types="promote",
       doc="x limited to [min, max] (min wins when min > max, NaN propagates)", host="biuf", kernel_ref=_clip),
    Op("relu", 1, lambda x: np.maximum(x, np.zeros((), x.dtype)),
       {"f": "(({0} > 0 || isnan({0})) ? {0} : ({T})0)", "*": "(({0} > 0) ? {0} : ({T})0)"}, types="same",
       kinds="iuf", doc="max(x, 0)"),
    Op("sigmoid", 1, lambda x: (lambda f: 1 / (1 + np.exp(-f)))(_floating(x)),
       {"f": "(({T})1 / (({T})1 + exp(-{0})))"}, types="like:exp", kinds="biuf", doc="1 / (1 + exp(-x))"),
    Op("silu", 1, lambda x: (lambda f: f / (1 + np.exp(-f)))(_floating(x)),
       {"f": "({0} / (({T})1 + exp(-{0})))"}, types="like:exp", kinds="biuf", doc="x * sigmoid(x)"),
)

TABLE: dict[str, Op] = {op.name: op for op in OPS}
ALIASES: dict[str, str] = {a: op.name for op in OPS for a in op.aliases}

_UNSIGNED = {"char": "uchar", "short": "ushort", "int": "uint", "long": "ulong"}


def template(op: Op, kinds: str) -> str:
    """The C template of ``op`` for the loop input kinds (e.g. ``"f"`` or ``"iu"``)."""
    for key in (kinds, kinds[:1], "*"):
        if key in op.c:
            return op.c[key]
    raise TypeError(f"darray {op.name}: not supported for {kinds} inputs")


def expr(op: Op, instr: Instr, arg_dtypes: tuple[np.dtype, ...], args: tuple[str, ...]) -> str:
    """The C expression of one SSA instruction of ``op`` (its ``lazy.table`` row's ``c``)."""
    kinds = "".join(d.kind for d in arg_dtypes) if len({d.kind for d in arg_dtypes}) > 1 else arg_dtypes[0].kind
    if op.name == "where":
        kinds = arg_dtypes[1].kind
    t = ctype(arg_dtypes[1] if op.name == "where" else arg_dtypes[0])
    fields = {"T": t, "U": _UNSIGNED.get(t, t), "R": t[:-1] if arg_dtypes[0].kind == "c" else t}
    return template(op, kinds).format(*args, **fields)


# Ops whose float template is also valid OpenCL C on float4/float8/double8 operands.
VECTOR_OPS = frozenset({
    "add", "subtract", "multiply", "divide", "negative", "positive", "abs", "square", "reciprocal", "exp",
    "expm1", "log", "log1p", "log2", "log10", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
    "cosh", "tanh", "asinh", "acosh", "atanh", "atan2", "hypot", "copysign", "pow", "maximum", "minimum",
    "relu", "sigmoid", "silu", "ceil", "floor", "trunc", "round"})


for _op in OPS:
    _lazy_table.register(_op.name, _lazy_table.OpFacts(partial(expr, _op), vector=_op.name in VECTOR_OPS,
                                                       ref=_op.compute))
