"""Running a small C program with `omp2gpu run` on one device (host, or the CPU device
with offloading mandatory), for codegen tests that check what ran."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent.parent


def run_on(tmp_path, source: str, device: str, *args: str) -> str:
    path = tmp_path / "run.c"
    path.write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    if device != "host":
        env["OMP_TARGET_OFFLOAD"] = "MANDATORY"
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", device, str(path), "--", *args],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout
