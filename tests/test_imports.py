"""The import graph against the layers written in ``docs/architecture.md``: no module imports a
higher layer (at the top, inside a function or under ``TYPE_CHECKING``), no import loop without a
reason on (or just above) one of its lines, the record imports nothing from inside functions, lazy nothing from
ops, and no module outside the registry and ``darray.place`` branches on ``CPUPlace``.

Parsed with ``ast`` from the installed package (a wheel in CI, the checkout when editable).
"""
from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import darray
import darray.benchmarks
import darray.kernels

DOCS = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"
# darray.kernels and darray.benchmarks live outside darray/ in the checkout (pyproject's package-dir) and inside it in
# the wheel: both are named here so an editable install and the wheel see the same modules.
ROOTS = {name: Path(module.__file__).parent for name, module in
         [("darray", darray), ("darray.benchmarks", darray.benchmarks), ("darray.kernels", darray.kernels)]}
LOOP_REASON = "# import loop:"
REGISTRY = "darray._registry"


def _modules() -> dict[str, Path]:
    found = {}
    for base, folder in ROOTS.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([base, *parts])] = path
    return found


MODULES = _modules()


def _layers() -> list[tuple[int, str]]:
    """(layer, module prefix) from the text block after the marker comment of the docs page."""
    text = DOCS.read_text()
    block = text[text.index("read by tests/test_imports.py"):]
    block = block[block.index("```text") + len("```text"):]
    block = block[:block.index("```")]
    rows = []
    for line in block.strip().splitlines():
        number, rest = line.split(None, 1)
        names = re.split(r"\s{2,}", rest.strip())[0].split()
        rows += [(int(number), "darray" if n == "darray" else f"darray.{n}") for n in names]
    return rows


def layer(module: str, layers: list[tuple[int, str]]) -> int | None:
    """The layer of the longest prefix naming ``module`` (a package name covers its modules)."""
    best = None
    for number, prefix in layers:
        if module == prefix or (prefix != "darray" and module.startswith(prefix + ".")):
            if best is None or len(prefix) > len(best[1]):
                best = (number, prefix)
    return best[0] if best else None


def _imports(module: str) -> Iterator[tuple[str, ast.stmt, bool]]:
    """(imported darray module, the statement, inside a function) for every import in ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    inner = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
             for n in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for t in targets:
            while t not in MODULES and "." in t:
                t = t.rsplit(".", 1)[0]
            if t in MODULES and t != module:
                yield t, node, id(node) in inner


def _lines(module: str, node: ast.stmt) -> str:
    """The import's lines and the one above it (where a reason for a loop is written)."""
    lines = MODULES[module].read_text().splitlines()
    return "\n".join(lines[max(node.lineno - 2, 0):node.end_lineno])


def test_every_module_has_a_layer() -> None:
    layers = _layers()
    assert [m for m in MODULES if layer(m, layers) is None] == []


def test_no_module_imports_a_higher_layer() -> None:
    layers = _layers()
    up = [f"{m}:{node.lineno} imports {t} (layer {layer(m, layers)} -> {layer(t, layers)})"
          for m in MODULES for t, node, _ in _imports(m) if (layer(t, layers) or 0) > (layer(m, layers) or 0)]
    assert up == []


def test_no_import_loops_without_a_reason() -> None:
    graph = {m: {t for t, node, _ in _imports(m) if LOOP_REASON not in _lines(m, node)} for m in MODULES}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    loops: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                loops.append(sorted(part))

    for m in sorted(graph):
        if m not in index:
            visit(m)
    assert loops == []


def test_the_record_imports_nothing_inside_functions() -> None:
    assert [node.lineno for _, node, inner in _imports("darray._array") if inner] == []


def test_lazy_imports_nothing_from_ops() -> None:
    found = [f"{m} -> {t}" for m in MODULES if m.startswith("darray.lazy")
             for t, _, _ in _imports(m) if t.startswith("darray.ops") or t == "darray.transfer.convert"]
    assert found == []


def _place_branches(module: str) -> list[int]:
    """Lines where ``module`` tests for ``CPUPlace`` (``isinstance(..., CPUPlace)`` or
    ``... .kind == "cpu"``)."""
    lines = []
    for node in ast.walk(ast.parse(MODULES[module].read_text())):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance" and len(node.args) == 2:
            kinds = node.args[1].elts if isinstance(node.args[1], ast.Tuple) else [node.args[1]]
            if any(getattr(k, "id", getattr(k, "attr", "")) == "CPUPlace" for k in kinds):
                lines.append(node.lineno)
        elif isinstance(node, ast.Compare) and any(isinstance(c, ast.Constant) and c.value == "cpu"
                                                   for c in node.comparators):
            lines.append(node.lineno)
    return lines


# The demo (CLI layer) only says which place it runs on and why; it computes nothing itself.
@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != REGISTRY and not m.startswith("darray.place")
                                          and m != "darray._demo"))
def test_place_kinds_are_dispatched_by_the_registry(module: str) -> None:
    assert _place_branches(module) == [], f"{module}: register a cpu and a cl implementation in {REGISTRY}"


def test_each_public_name_is_one_object_of_one_family() -> None:
    """``darray/__init__.py`` only gathers names: each name a family module exports (``__all__``) is
    exported by no other, and ``darray.<name>`` is that module's object (no star-import order
    decides which of two a user gets)."""
    source = (ROOTS["darray"] / "__init__.py").read_text()
    families = [importlib.import_module(f"darray{m}") for m in re.findall(r"^from (\.[\w.]+) import \*", source, re.M)]
    homes: dict[str, list[str]] = {}
    for module in families:
        for name in module.__all__:
            homes.setdefault(name, []).append(module.__name__)
    assert {n: h for n, h in homes.items() if len(h) > 1} == {}
    wrong = [n for n, (h,) in homes.items() if getattr(darray, n) is not getattr(importlib.import_module(h), n)]
    assert wrong == []
