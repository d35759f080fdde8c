"""What the tests of whole programs on the devices share: a C program (text) built and run
as `omp2gpu run` does it, a native executable on libomp2gpu, with the devices and the
environment a test gives."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 300


def run_native(tmp_path: Path, source: str, environ: dict | None = None, args=(), devices: str | None = "cpu",
               name: str = "prog.c") -> subprocess.CompletedProcess:
    """`source` run by `omp2gpu run` with OMP2GPU_DEVICES=`devices` (None: as the machine
    has them) and offloading MANDATORY, `environ` over that; the finished process."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return run_file(path, environ, args, devices)


def run_file(path: Path, environ: dict | None = None, args=(), devices: str | None = "cpu",
             gpus: str | None = None) -> subprocess.CompletedProcess:
    """The C file `path` run as run_native runs a source; `gpus`: CUDA_VISIBLE_DEVICES."""
    env = {**os.environ, "OMP_TARGET_OFFLOAD": "MANDATORY", "OMP_NUM_THREADS": "2",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    env.pop("OMP2GPU_DEVICES", None)
    if devices:
        env["OMP2GPU_DEVICES"] = devices
    if gpus is not None:
        env["CUDA_VISIBLE_DEVICES"] = gpus
    env.update(environ or {})
    return subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(path), "--", *args], cwd=path.parent,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
