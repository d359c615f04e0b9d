"""The Array API 2024.12 standard as ``array_api_strict`` spells it: names, parameter names and
kinds of every function, constant, array method and attribute, and of the ``linalg`` and
``fft`` extensions; and what ``darray`` lacks or spells otherwise.

``python tests/api_standard.py`` prints the report (nothing when darray is complete); the
introspection test (``test_namespace.py``) asserts it is empty. ``fft`` is checked only when
``darray.fft`` exists (built in parallel with this module).
"""
from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

VERSION = "2024.12"
_NOT_STANDARD = {"ArrayAPIStrictFlags", "Device", "get_array_api_strict_flags", "set_array_api_strict_flags",
                 "reset_array_api_strict_flags", "__array_api_version__", "ModuleType"}
_METHOD_SKIP = {"__buffer__", "__class__", "__init__", "__new__", "__repr__", "__str__", "__hash__", "__getattribute__",
                "__setattr__", "__delattr__", "__dir__", "__format__", "__reduce__", "__reduce_ex__", "__sizeof__",
                "__subclasshook__", "__init_subclass__", "__getstate__", "__array__"}


def _since(fn: Any) -> str:
    """The API version ``array_api_strict`` gates ``fn`` at ('' when not gated)."""
    while fn is not None:
        code = getattr(fn, "__code__", None)
        if code is not None and "version" in code.co_freevars and fn.__closure__:
            return fn.__closure__[code.co_freevars.index("version")].cell_contents
        fn = getattr(fn, "__wrapped__", None)
    return ""


Params = list[tuple[str, Any, bool]]  # (name, kind, has a default)


def _params(fn: Callable[..., Any], method: bool = False) -> Params | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    params = list(sig.parameters.values())
    if method:  # the array itself, whatever its name
        params = params[1:]
    return [(p.name, p.kind, p.default is not p.empty) for p in params]


def reference() -> dict[str, dict[str, Params | None]]:
    """{namespace: {name: [(parameter, kind)] or None for constants, dtypes and attributes}} of the
    2024.12 standard; namespaces ``""`` (main), ``"linalg"``, ``"fft"`` and ``"DArray"`` (methods)."""
    import array_api_strict as xp
    from array_api_strict import _array_object, _fft, _linalg

    xp.set_array_api_strict_flags(api_version=VERSION)
    out: dict[str, dict[str, Params | None]] = {}
    for ns, mod in (("", xp), ("linalg", _linalg), ("fft", _fft)):
        table: dict[str, Params | None] = {}
        for name in mod.__all__:
            obj = getattr(mod, name)
            if name in _NOT_STANDARD or (ns and not callable(obj)) or isinstance(obj, type) \
                    or _since(obj) > VERSION:
                continue
            table[name] = _params(obj) if inspect.isfunction(obj) else None
        out[ns] = table
    out[""]["__array_namespace_info__"] = []
    methods: dict[str, Params | None] = {}
    for name, obj in vars(_array_object.Array).items():
        if name in _METHOD_SKIP or (name.startswith("_") and not name.startswith("__")):
            continue
        methods[name] = _params(obj, True) if inspect.isfunction(obj) else None
    out["DArray"] = methods
    return out


def gaps(namespace: Any) -> list[str]:
    """Lines ``namespace.name: problem`` for every standard name ``namespace`` lacks or whose
    parameters have other names or kinds (extra keyword-only parameters with defaults are allowed)."""
    problems = []
    for ns, table in reference().items():
        if ns == "DArray":
            owner: Any = namespace.DArray
        else:
            owner = getattr(namespace, ns, None) if ns else namespace
            if owner is None:
                if ns != "fft":  # the fft extension is optional until darray.fft exists
                    problems.append(f"{ns}: missing extension")
                continue
        for name, want in table.items():
            if not ns and name in ("linalg", "fft"):  # the extensions, checked as namespaces
                continue
            where = f"{ns or 'darray'}.{name}"
            if not hasattr(owner, name):
                problems.append(f"{where}: missing")
                continue
            if want is None:
                continue
            got = _params(getattr(owner, name), ns == "DArray")
            if got is None:
                problems.append(f"{where}: no signature")
            elif not _matches(got, want):
                problems.append(f"{where}: parameters {_fmt(got)}, standard {_fmt(want)}")
    return problems


_P = inspect.Parameter


def _matches(got: Params, want: Params) -> bool:
    """Same positional parameters in order and the same keyword-only ones (in any order), each of
    the standard's kind; darray may add parameters with defaults after them (NumPy-style extras), and
    may take a keyword-only parameter by position too where NumPy does (``sum(x, 0)``), and may name a
    positional-only parameter as NumPy does and take it by keyword too (``all(a, ...)`` for ``all(x, /)``).
    ``array_api_strict`` leaves a few parameters the standard makes positional-only or keyword-only
    (``isdtype``'s, ``to_device``'s ``stream``) positional-or-keyword: either kind passes there."""
    def split(ps: Params) -> tuple[list[tuple[str, Any, bool]], dict[str, Any]]:
        return [p for p in ps if p[1] is not _P.KEYWORD_ONLY], {n: k for n, k, _ in ps if k is _P.KEYWORD_ONLY}

    keyword = {n for n, k, _ in want if k is _P.KEYWORD_ONLY}  # NumPy also takes some of them by position
    got = [(n, _P.KEYWORD_ONLY if k is _P.POSITIONAL_OR_KEYWORD and n in keyword and d else k, d) for n, k, d in got]
    (gpos, gkw), (wpos, wkw) = split(got), split(want)
    loose = [p for p in wpos if p[1] is _P.POSITIONAL_OR_KEYWORD and p[2] and p[0] in gkw]
    wpos, wkw = [p for p in wpos if p not in loose], {**wkw, **{n: k for n, k, _ in loose}}
    if len(gpos) < len(wpos) or any(not d for _, _, d in gpos[len(wpos):]) or any(
            n not in wkw and not d for n, k, d in got if k is _P.KEYWORD_ONLY):
        return False
    for (gn, gk, _), (wn, wk, _) in zip(gpos, wpos):
        if (wk is _P.POSITIONAL_ONLY and gk is _P.POSITIONAL_OR_KEYWORD) or wk is gk is _P.VAR_POSITIONAL:
            continue  # NumPy's name (``a`` for ``x``, ``*args`` for ``*arrays``): every standard call still works
        if gn != wn and gk is not _P.POSITIONAL_ONLY or not _kind_ok(gk, wk):
            return False
    return all(n in gkw for n in wkw)


def _kind_ok(got: Any, want: Any) -> bool:
    return got is want or (want is _P.POSITIONAL_OR_KEYWORD and got in (_P.POSITIONAL_ONLY, _P.KEYWORD_ONLY))


def _fmt(params: Params) -> str:
    marks = {_P.POSITIONAL_ONLY: "/", _P.KEYWORD_ONLY: "*", _P.VAR_POSITIONAL: "*args", _P.VAR_KEYWORD: "**"}
    return "(" + ", ".join(f"{n}{marks.get(k, '')}" for n, k, _ in params) + ")"


if __name__ == "__main__":
    import darray

    found = gaps(darray)
    print("\n".join(found) or f"darray covers the Array API {VERSION} (array_api_strict's spelling)")
    raise SystemExit(1 if found else 0)
