"""The dispatch registry (``darray/ops/_dispatch.py``): every op is registered for both place
kinds, a missing implementation is a clear NotImplementedError, and no module outside the
registry and ``darray/place/`` branches on the kind of a place."""
from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

import darray as da
import darray.interop.pickling  # noqa: F401  (registers its implementations; DArray imports it lazily)
from darray.ops import _dispatch as D

KINDS = {"cpu", "cl"}
ONE_KIND: dict[str, str] = {}  # op name -> why it is registered for one place kind only
ROOT = Path(da.__file__).parent
# Modules that still branch on CPUPlace, with the reason (darray/place/ and the registry may).
PLACE_BRANCHES = {
    "_array.py": "the record (layer 3, below ops): being restructured in issue 25",
    "_convert.py": "moving values between places: being restructured in issue 25",
    "alloc/__init__.py": "the allocator (layer 2, below ops): host memory or an OpenCL buffer",
    "_demo.py": "the demo says why it runs on the cpu place",
}


def _registered() -> dict[str, set[str]]:
    kinds: dict[str, set[str]] = {}
    for name, kind in D._impls:
        kinds.setdefault(name, set()).add(kind)
    return kinds


def test_every_op_is_registered_for_both_place_kinds() -> None:
    registered = _registered()
    assert {"elementwise", "matmul", "reduce", "sort", "getitem", "sparse.matvec", "random.draw",
            "fft.transform", "pickle.place", "from_dlpack"} <= set(registered)
    missing = {name: KINDS - kinds for name, kinds in registered.items() if kinds != KINDS and name not in ONE_KIND}
    assert not missing, f"ops without an implementation for a place kind: {missing}"
    assert set(ONE_KIND) <= set(registered)


def test_a_missing_implementation_names_op_and_place() -> None:
    with pytest.raises(NotImplementedError, match=r"darray no_such_op: no implementation for place cpu$"):
        D.implementation("no_such_op", da.CPUPlace())
    with pytest.raises(NotImplementedError, match=r"darray no_such_op: no implementation for place cl:0$"):
        D.implementation("no_such_op", da.CLPlace(0))
    with pytest.raises(NotImplementedError, match=r"darray sort: no implementation for places of kind 'vk'$"):
        D.kind_implementation("sort", "vk")
    x = np.array([3.0, -1.0, 2.0])  # the next call works
    assert np.array_equal(da.sort(da.asarray(x, device="cpu")).get(), np.sort(x))


def test_lookup_gives_the_implementation_of_the_place_kind() -> None:
    cpu, cl = D.implementation("sort", da.CPUPlace()), D.implementation("sort", da.CLPlace(0))
    assert cpu is D.kind_implementation("sort", "cpu") and cl is D.kind_implementation("sort", "cl") and cpu is not cl


def _branches_on_cpu_place(tree: ast.AST) -> list[int]:
    """Lines of ``isinstance(..., CPUPlace)`` (or a tuple naming it) and of ``<expr>.kind == "cpu"``."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance" and len(node.args) == 2:
            names = {getattr(n, "id", getattr(n, "attr", None)) for n in ast.walk(node.args[1])}
            if "CPUPlace" in names:
                lines.append(node.lineno)
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "kind":
            if any(isinstance(c, ast.Constant) and c.value in KINDS for c in node.comparators):
                lines.append(node.lineno)
    return lines


def test_only_the_registry_and_place_branch_on_the_place_kind() -> None:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("place/") or rel == "ops/_dispatch.py" or rel in PLACE_BRANCHES:
            continue
        lines = _branches_on_cpu_place(ast.parse(path.read_text(), rel))
        if lines:
            found[rel] = lines
    assert not found, f"branches on the place kind outside the registry (register per kind instead): {found}"
