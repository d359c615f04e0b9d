"""The API table (``darray/_api.py``) and the generated ``docs/api.md`` (``darray/api_docs.py``)."""
from __future__ import annotations

from pathlib import Path

import darray as da
from darray import _api, api_docs

DOCS = Path(__file__).resolve().parent.parent / "docs" / "api.md"  # the checkout's, also under an installed wheel


def test_docs_are_up_to_date() -> None:
    """Fails when a public function, its docstring or the op table changed without
    ``python -m darray.api_docs`` being run again."""
    assert DOCS.read_text() == api_docs.render(), "docs/api.md is stale: run python -m darray.api_docs"


def test_table_covers_every_public_function() -> None:
    names = {e.name for e in _api.entries(da)}
    public = {n for n in da.__all__ if callable(getattr(da, n)) and not isinstance(getattr(da, n), type)
              and not n.startswith("__") and getattr(da, n).__class__.__name__ == "function"}
    assert public <= names
    assert {f"linalg.{n}" for n in da.linalg.__all__ if not isinstance(getattr(da.linalg, n), type)} <= names
    assert all(e.summary for e in _api.entries(da)), [e.name for e in _api.entries(da) if not e.summary]


def test_numpy_equivalents_exist() -> None:
    for e in _api.entries(da):
        assert not e.numpy or e.numpy_object() is not None, f"{e.name}: {e.numpy} is not in this NumPy"
    rows = {e.name: e for e in _api.entries(da)}
    assert rows["concat"].numpy == "numpy.concatenate" and rows["relu"].numpy == ""
    assert rows["linalg.inv"].differs.startswith("Differs from NumPy: computed by NumPy on the host")


def test_check_mode(capsys) -> None:
    assert api_docs.main(["--check", str(DOCS)]) == 0
    assert "up to date" in capsys.readouterr().out
    assert api_docs.main(["--check", str(DOCS.parent / "missing.md")]) == 1
