"""User kernel bodies on the ``cpu`` place: C expressions that are also NumPy expressions.

A body runs there when every statement is ``name = expression`` and the expression uses
only names, numbers (a C ``f`` suffix is dropped), ``+ - * / %``, comparisons, parentheses,
subscripts ``x[j]`` (a raw array, flattened) and the math functions of :data:`FUNCTIONS`;
``name op= expression`` is ``name = name op (expression)``; anything else (``?:``, ``&&``,
casts, loops) is a ValueError naming the kernel, as that C cannot run through NumPy.
Arithmetic follows NumPy (``/`` of integers is true division before the cast to the output's
dtype).
"""
from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

FUNCTIONS: dict[str, Any] = {
    "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2, "log10": np.log10,
    "log1p": np.log1p, "sqrt": np.sqrt, "cbrt": np.cbrt, "sin": np.sin, "cos": np.cos, "tan": np.tan,
    "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "atan2": np.arctan2, "sinh": np.sinh,
    "cosh": np.cosh, "tanh": np.tanh, "fabs": np.abs, "abs": np.abs, "floor": np.floor, "ceil": np.ceil,
    "trunc": np.trunc, "round": np.round, "pow": np.power, "hypot": np.hypot, "fmax": np.fmax, "fmin": np.fmin,
    "max": np.maximum, "min": np.minimum, "copysign": np.copysign, "INFINITY": np.inf, "NAN": np.nan}
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Call, ast.Name, ast.Constant, ast.Load,
          ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.USub, ast.UAdd, ast.Lt, ast.LtE, ast.Gt, ast.GtE,
          ast.Eq, ast.NotEq, ast.Subscript)
_SUFFIX = re.compile(r"(\d\.?\d*(?:[eE][-+]?\d+)?)[fF]\b")
_ASSIGN = re.compile(r"\s*([A-Za-z_]\w*)\s*([-+*/%]?)=(?!=)(.*)\Z", re.S)


def compile_expr(kernel: str, text: str, names: frozenset[str]) -> Any:
    """The compiled NumPy form of C expression ``text`` over ``names``; ValueError naming the
    kernel when it is not one NumPy can evaluate."""
    source = _SUFFIX.sub(r"\1", text.strip())
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        tree = None
    bad = tree is None or next((n for n in ast.walk(tree) if not isinstance(n, _NODES)), None) is not None
    if not bad and tree is not None:
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and n.id not in names and n.id not in FUNCTIONS:
                bad = True
            if isinstance(n, ast.Call) and (not isinstance(n.func, ast.Name) or n.func.id not in FUNCTIONS):
                bad = True
    if bad:
        raise ValueError(f"darray {kernel}: {text.strip()!r} cannot run on the cpu place (there a body must be "
                         "'out = expression' with + - * / %, comparisons and math functions: NumPy evaluates it)")
    return compile(tree, f"<{kernel}>", "eval")  # type: ignore[arg-type]


def compile_body(kernel: str, body: str, inputs: frozenset[str],
                 outputs: frozenset[str]) -> list[tuple[str, Any]]:
    """The statements of ``body`` as (assigned name, compiled expression); each assigns an output
    or a new local that later statements read (outputs have values before: given or zero)."""
    out: list[tuple[str, Any]] = []
    known = set(inputs) | set(outputs)
    for stmt in (s for s in body.split(";") if s.strip()):
        m = _ASSIGN.match(stmt)
        if m is None or m.group(1) in inputs:
            raise ValueError(f"darray {kernel}: {stmt.strip()!r} cannot run on the cpu place (there a body must "
                             "be statements 'out = expression' that NumPy can evaluate)")
        text = f"{m.group(1)} {m.group(2)} ({m.group(3)})" if m.group(2) else m.group(3)
        out.append((m.group(1), compile_expr(kernel, text, frozenset(known))))
        known.add(m.group(1))
    missing = outputs - {name for name, _ in out}
    if missing:
        raise ValueError(f"darray {kernel}: the body never assigns {sorted(missing)} (cpu place)")
    return out


def run(code: Any, values: Mapping[str, Any]) -> Any:
    """Evaluate one compiled expression over ``values`` (NumPy arrays or scalars)."""
    with np.errstate(all="ignore"):
        return eval(code, {"__builtins__": {}, **FUNCTIONS}, dict(values))  # noqa: S307 (checked by compile_expr)


def run_body(body: list[tuple[str, Any]], values: dict[str, Any]) -> dict[str, Any]:
    """Run the statements of :func:`compile_body` over ``values`` (updated with every assignment)."""
    for name, code in body:
        values[name] = run(code, values)
    return values
