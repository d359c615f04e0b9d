"""Every script in examples/ runs with its small sizes (a smoke test; each checks itself against NumPy)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted(p for p in (Path(__file__).resolve().parent.parent / "examples").glob("*.py")
                  if not p.name.startswith("_"))


def test_examples_exist():
    assert {p.stem for p in EXAMPLES} >= {"mlp", "heat", "fft_convolution", "sparse_cg", "dask_chunks"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs(path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}  # the script's folder on the path: _cli
    proc = subprocess.run([sys.executable, str(path), "--small"], capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode == 0, f"{path.name} failed:\n{proc.stdout}\n{proc.stderr}"
    assert proc.stdout.startswith(f"{path.stem}:"), proc.stdout
