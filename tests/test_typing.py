"""Typing (``darray/_typing.py``, ``py.typed``): mypy accepts ``typing_example.py``, and the
declarations for type checkers match what is made at run time (DArray's operators, the op
table's functions)."""
from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

import pytest

import darray as da
from darray.ops import _operators, elementwise
from darray.ops._table import ALIASES, OPS

HERE = Path(__file__).resolve().parent


def test_package_ships_py_typed() -> None:
    assert (Path(da.__file__).parent / "py.typed").exists()


def test_mypy_accepts_the_example(tmp_path) -> None:
    pytest.importorskip("mypy")
    root = Path(da.__file__).resolve().parent.parent  # a checkout (editable install) or site-packages
    env = dict(os.environ) if root.name == "site-packages" else {**os.environ, "MYPYPATH": str(root)}
    run = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-error-summary",
                          "--cache-dir", str(tmp_path / "cache"), str(HERE / "typing_example.py")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def _declared(source: str) -> dict[str, str]:
    """Names assigned under ``if TYPE_CHECKING:`` -> the declaration they are bound to."""
    found: dict[str, str] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name):
                    found.update({t.id: stmt.value.id for t in stmt.targets if isinstance(t, ast.Name)})
                elif isinstance(stmt, ast.FunctionDef):
                    found[stmt.name] = stmt.name
    return found


def test_elementwise_declarations_match_the_table() -> None:
    declared = _declared(inspect.getsource(elementwise))
    made = {name: op.arity for op in OPS if op.name not in ("clip", "round")
            for name in (op.name, *[a for a, n in ALIASES.items() if n == op.name])}
    kinds = {1: "_unary", 2: "_binary", 3: "where"}
    want = {n: kinds[a] for n, a in made.items()}
    got = {n: d for n, d in declared.items() if n not in ("_unary", "_binary")}
    assert got == want, "update the TYPE_CHECKING block of darray/ops/elementwise.py"


def test_operator_declarations_match_the_installed_ones() -> None:
    declared = set(_declared(inspect.getsource(da.DArray))) - {"_binary", "_unary", "_reduce"}
    installed = {f"__{p}{d}__" for d in _operators._BINARY for p in ("", "r", "i")}
    installed |= {f"__{d}__" for d in [*_operators._COMPARE, *_operators._UNARY]}
    installed |= {"sum", "prod", "max", "min", "mean", "any", "all", "argmax", "argmin", "var", "std", "argsort",
                  "sort", "__getitem__", "__setitem__", "__matmul__", "__rmatmul__", "__imatmul__"}
    assert declared == installed
