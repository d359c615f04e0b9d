"""NumPy's signatures against darray's, for every name darray shares with ``numpy``, ``numpy.linalg``,
``numpy.fft``, ``numpy.random`` (its functions and the methods of ``Generator`` and ``RandomState``) and
``numpy.ndarray`` (DArray's methods).

Two signatures match when they have the same parameters in the same order, of the same kinds
(positional-only, positional-or-keyword, keyword-only, ``*args``, ``**kwargs``) and with the same
defaults. The rules that make room for darray:

- a NumPy default of ``numpy._NoValue`` ("not given") matches any darray default;
- a parameter positional-only in NumPy may be positional-or-keyword in darray (every NumPy call works),
  and its name is not compared (no call can give it by name);
- where NumPy's signature ends in ``**kwargs`` (as ``ndarray.sum``), darray's parameters from there
  on are darray's names for those keywords;
- darray may add the keyword-only parameters of :data:`EXTRAS` (where arrays live, Array API keywords);
- type annotations are not compared.

Any other difference is fixed in darray or listed with its reason in
``darray._exclusions.SIGNATURE_DIFFERENCES``; an entry there whose signatures now match fails too.
A NumPy object with no signature to read is skipped, and the reason names what it is.
"""
from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import darray as da
from darray._exclusions import SIGNATURE_DIFFERENCES

P = inspect.Parameter
EXTRAS = {"device": "the place the result lives on (Array API)",
          "place": "darray's name for device= in darray.random",
          "descending": "Array API sort and argsort"}
SPACES = [("", np, da), ("linalg.", np.linalg, da.linalg), ("fft.", np.fft, da.fft), ("random.", np.random, da.random)]
CLASSES = [("ndarray.", np.ndarray, da.DArray), ("random.Generator.", np.random.Generator, da.random.Generator),
           ("random.RandomState.", np.random.RandomState, da.random.RandomState)]


def _signature(obj: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


def _callable(obj: Any) -> bool:
    return callable(obj) and not isinstance(obj, type) and not inspect.ismodule(obj)


def pairs() -> Iterator[tuple[str, Any, Any, bool]]:
    """(name, NumPy's object, darray's, is a method) for every callable name both have."""
    for prefix, theirs, ours in SPACES:
        for name in sorted(n for n in dir(theirs) if not n.startswith("_")):
            numpy_obj = getattr(theirs, name)
            if _callable(numpy_obj) and hasattr(ours, name) and _callable(getattr(ours, name)):
                yield prefix + name, numpy_obj, getattr(ours, name), False
    for prefix, theirs, ours in CLASSES:
        for name in sorted(n for n in dir(theirs) if not n.startswith("_")):
            numpy_obj = getattr(theirs, name)
            if _callable(numpy_obj) and _callable(getattr(ours, name, None)):
                yield prefix + name, numpy_obj, getattr(ours, name), True


def _same_default(theirs: Any, ours: Any) -> bool:
    if theirs is np._NoValue or theirs is ours:
        return True
    try:
        return type(theirs) is type(ours) and bool(theirs == ours)
    except (TypeError, ValueError):
        return False


def _show(p: P) -> str:
    text = {P.VAR_POSITIONAL: f"*{p.name}", P.VAR_KEYWORD: f"**{p.name}"}.get(p.kind, p.name)
    return text if p.default is P.empty else f"{text}={p.default!r}"


def difference(numpy_obj: Any, darray_obj: Any, method: bool) -> str | None:
    """How darray's signature differs from NumPy's (None: it does not), in words."""
    theirs_sig, ours_sig = _signature(numpy_obj), _signature(darray_obj)
    if ours_sig is None:
        return "darray's object has no signature"
    theirs, ours = list(theirs_sig.parameters.values()), list(ours_sig.parameters.values())
    if method:  # self: positional-only in NumPy's C methods, plain in darray's Python ones
        theirs, ours = theirs[1:], ours[1:]
    problems = []
    for i, t in enumerate(theirs):
        if t.kind is P.VAR_KEYWORD and i == len(theirs) - 1:  # darray names NumPy's **kwargs
            rest, ours = ours[i:], ours[:i]
            problems += [f"{_show(o)} ({o.kind.description}) for NumPy's {_show(t)}" for o in rest
                         if o.kind not in (P.POSITIONAL_OR_KEYWORD, P.KEYWORD_ONLY, P.VAR_KEYWORD)]
            if not rest:
                problems.append(f"lacks {_show(t)}")
            break
        o = ours[i] if i < len(ours) else None
        if o is None:
            problems.append(f"lacks {_show(t)}")
            continue
        kind_ok = o.kind is t.kind or (t.kind is P.POSITIONAL_ONLY and o.kind is P.POSITIONAL_OR_KEYWORD)
        named = o.name == t.name or t.kind is P.POSITIONAL_ONLY
        if not named or not kind_ok or not _same_default(t.default, o.default):
            problems.append(f"{_show(o)} ({o.kind.description}) for NumPy's {_show(t)} ({t.kind.description})")
    for o in ours[len(theirs):]:
        if not (o.kind is P.KEYWORD_ONLY and o.name in EXTRAS):
            problems.append(f"adds {_show(o)} ({o.kind.description})")
    if not problems:
        return None
    return "; ".join(problems) + f"\n    numpy:  {theirs_sig}\n    darray: {ours_sig}"


def walk() -> tuple[dict[str, str], dict[str, str], int]:
    """(differences by name, skipped names with why, how many were compared)."""
    found, skipped, compared = {}, {}, 0
    for name, numpy_obj, darray_obj, method in pairs():
        if _signature(numpy_obj) is None:
            skipped[name] = (f"numpy's {type(numpy_obj).__name__} {getattr(numpy_obj, '__name__', name)} has no "
                             "introspectable signature (no __text_signature__)")
            continue
        compared += 1
        problem = difference(numpy_obj, darray_obj, method)
        if problem is not None:
            found[name] = problem
    return found, skipped, compared


def test_signatures_match_numpy(capsys) -> None:
    found, skipped, compared = walk()
    unexplained = {n: p for n, p in found.items() if n not in SIGNATURE_DIFFERENCES}
    with capsys.disabled():
        print(f"\nsignatures: {compared} compared, {len(found)} listed differences, {len(skipped)} skipped: "
              + "; ".join(f"{n} ({why})" for n, why in skipped.items()))
    assert not unexplained, (f"{len(unexplained)} signatures differ from NumPy's (fix them, or list them with a "
                             "reason in darray._exclusions.SIGNATURE_DIFFERENCES):\n"
                             + "\n".join(f"{n}: {p}" for n, p in sorted(unexplained.items())))


def test_listed_differences_still_differ() -> None:
    found, skipped, _ = walk()
    stale = sorted(n for n in SIGNATURE_DIFFERENCES if n not in found)
    assert not stale, f"darray._exclusions.SIGNATURE_DIFFERENCES lists names whose signatures match now: {stale}"
    assert all(SIGNATURE_DIFFERENCES.values())


def test_skips_say_what_they_are() -> None:
    _, skipped, compared = walk()
    assert compared > 500 and len(skipped) < 10, skipped
    assert all("numpy's" in why for why in skipped.values())


@pytest.mark.parametrize("call", [
    lambda xp, a: xp.diff(a, 2), lambda xp, a: xp.roll(a, 1, 0), lambda xp, a: xp.repeat(a, 2, 0),
    lambda xp, a: xp.take(a, xp.asarray([0, 2]), 0), lambda xp, a: a.repeat(2, 0),
    lambda xp, a: a.take(xp.asarray([1]), 0), lambda xp, a: xp.sum(a=a, axis=0),
    lambda xp, a: xp.add(a, a, xp.empty_like(a)), lambda xp, a: xp.divmod(a, 2)[1],
    lambda xp, a: xp.cumsum(a, 1), lambda xp, a: xp.squeeze(a=a[None]), lambda xp, a: a.sum(0, None, None, True)])
def test_numpy_calling_conventions(call) -> None:
    """Calls written for NumPy's signatures give NumPy's values."""
    x = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(np.asarray(call(da, da.asarray(x))), call(np, x))
