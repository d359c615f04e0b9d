"""Every script in examples/ runs with its small sizes (a smoke test; each checks itself against NumPy);
the out-of-core Dask example runs at its full size too."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = sorted(p for p in (Path(__file__).resolve().parent.parent / "examples").glob("*.py")
                  if not p.name.startswith("_"))


def test_examples_exist():
    assert {p.stem for p in EXAMPLES} >= {"mlp", "heat", "fft_convolution", "sparse_cg", "dask_chunks"}


def run_example(path: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python path *args`` from ``cwd``, the script's folder on its path (for ``_cli``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    proc = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=600, env=env,
                          cwd=cwd)
    assert proc.returncode == 0, f"{path.name} failed:\n{proc.stdout}\n{proc.stderr}"
    assert proc.stdout.startswith(f"{path.stem}:"), proc.stdout
    return proc


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_runs(path, tmp_path):
    run_example(path, "--small", cwd=tmp_path)


def test_dask_chunks_at_full_size(tmp_path, monkeypatch):
    """64 MiB in chunks under the example's own 16 MiB device limit, with Dask's threads and on a
    two-process LocalCluster: the device's peak stays within the limit and nothing runs out."""
    pytest.importorskip("dask.distributed")
    monkeypatch.delenv("DARRAY_MEMORY_LIMIT", raising=False)
    proc = run_example(EXAMPLES[0].parent / "dask_chunks.py", cwd=tmp_path)
    m = re.search(r"device limit (\d+) MiB: .* peak device memory (\d+) MiB", proc.stdout)
    assert m and int(m.group(1)) == 16 and int(m.group(2)) <= 16, proc.stdout
    assert "LocalCluster of 2 worker processes" in proc.stdout


NUMPY_PROGRAMS = ["numpy_signal", "numpy_linear"]  # NumPy programs with only the import line changed
_NUMBER = re.compile(r"-?\d+\.?\d*(?:e[+-]?\d+)?")


@pytest.mark.parametrize("stem", NUMPY_PROGRAMS)
def test_numpy_program_prints_what_numpy_prints(stem, tmp_path):
    """The program as written (``import darray as np``) and with NumPy imported instead print the
    same text, numbers equal to 1e-6."""
    source = (EXAMPLES[0].parent / f"{stem}.py").read_text()
    imports = [line for line in source.splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import darray as np"]
    (tmp_path / "with_numpy.py").write_text(source.replace("import darray as np\n", "import numpy as np\n"))
    ours = run_example(EXAMPLES[0].parent / f"{stem}.py", cwd=tmp_path).stdout
    env = {k: v for k, v in os.environ.items() if k != "PYTHONSAFEPATH"}
    theirs = subprocess.run([sys.executable, "with_numpy.py"], capture_output=True, text=True, timeout=600,
                            env=env, cwd=tmp_path, check=True).stdout
    assert _NUMBER.sub("#", ours) == _NUMBER.sub("#", theirs), (ours, theirs)
    for a, b in zip(_NUMBER.findall(ours), _NUMBER.findall(theirs), strict=True):
        assert abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b))), (a, b, ours, theirs)
