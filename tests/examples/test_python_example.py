"""examples/python/heat.py: the Python API's example runs its C file's target regions
(on the CPU device here), matches NumPy, and shows each region's GPU kernel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from omp2gpu.targets import nvptx

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_the_python_example_matches_numpy():
    env = dict(os.environ, OMP2GPU_DEVICES="cpu", OMP_NUM_THREADS="2")
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    done = subprocess.run([sys.executable, str(REPO_ROOT / "examples" / "python" / "heat.py"), "96", "30"],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("NumPy arrays: 30 steps of 96x96 on CPU device (2 workers) in ")
    assert first.endswith("; matches NumPy")
    kernels = [line for line in done.stdout.splitlines() if "kernel" in line]
    assert len(kernels) == 2
    if nvptx.find_ptxas() is not None:
        assert kernels[0].startswith("kernel at heat.c:5:13: combined scheme, ") and " registers, " in kernels[0]
    else:
        assert "no figures: ptxas not found" in kernels[0]
    assert "CuPy arrays: skipped" in done.stdout
