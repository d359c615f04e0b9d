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
from typing import Any

import numpy as np
import pytest

import darray as da
from darray import _array, _methods
from darray.ops import elementwise
from darray.ops import ufunc as ufunc_module
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
    """The op table's functions NumPy has no ufunc for are declared in ``ops/elementwise.py``, every
    ufunc (``ops.ufunc.UFUNCS``) in ``ops/ufunc.py``: each name once, where its object is made."""
    declared = _declared(inspect.getsource(elementwise))
    made = {name: op.arity for op in OPS if op.name not in ("clip", "round") and not isinstance(op.ref, np.ufunc)
            for name in (op.name, *[a for a, n in ALIASES.items() if n == op.name])}
    kinds = {1: "_unary", 2: "_binary", 3: "where"}
    want = {n: kinds[a] for n, a in made.items()}
    got = {n: d for n, d in declared.items() if n not in ("_unary", "_binary")}
    assert got == want, "update the TYPE_CHECKING block of darray/ops/elementwise.py"
    ufuncs = {n for n, d in _declared(inspect.getsource(ufunc_module)).items() if d == "_ufunc"}
    assert ufuncs == set(ufunc_module.UFUNCS), "update the TYPE_CHECKING block of darray/ops/ufunc.py"


def _stubs(module: Any) -> set[str]:
    """The names a module's ``if TYPE_CHECKING:`` blocks declare (functions, properties, assignments)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for stmt in node.body:
                if isinstance(stmt, ast.Assign):
                    found.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
                elif isinstance(stmt, ast.FunctionDef):
                    found.add(stmt.name)
    return found - {"_binary", "_unary", "_reduce", "_delegated"}


def test_record_declarations_match_the_installed_tables() -> None:
    """Every name ``darray._methods`` installs is declared for type checkers in the record, and
    every declaration has its method or property on DArray at run time."""
    declared = _stubs(_array)
    installed = set(_methods.ALL_METHODS) | set(_methods.ALL_PROPERTIES)
    assert declared == installed, (sorted(declared - installed), sorted(installed - declared))
    assert all(name in vars(da.DArray) for name in declared), [n for n in declared if n not in vars(da.DArray)]
    assert all(isinstance(vars(da.DArray)[n], property) for n in _methods.ALL_PROPERTIES)
