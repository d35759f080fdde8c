"""examples/vadd.c says where its region ran: the CPU device by name (omp2gpu's
omp2gpu_get_device_name), or the host; and omp2gpu_get_device_name itself from C."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
VADD = REPO_ROOT / "examples" / "vadd.c"


def _run(*argv: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, OMP_NUM_THREADS="2")
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    return subprocess.run([sys.executable, "-m", "omp2gpu", "run", *argv], capture_output=True, text=True,
                          env=env, timeout=300)


@pytest.mark.parametrize("device, where", [("cpu", "ran on device 0: CPU device (2 workers),"),
                                           ("host", "ran on the host,")])
def test_vadd_names_where_it_ran(device, where):
    done = _run(str(VADD), "--device", device, "--", "1000")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"vadd: n = 1000, {where} 0 errors, ")


DEVICE_NAMES = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
    char name[64], small[5];
    int length = omp2gpu_get_device_name(0, name, sizeof name);
    int cut = omp2gpu_get_device_name(0, small, sizeof small);
    printf("%s|%d|%s|%d\n", name, length, small, cut);
    length = omp2gpu_get_device_name(omp_get_initial_device(), name, sizeof name);
    printf("%s|%d|%d\n", name, length, omp2gpu_get_device_name(7, name, sizeof name));
    return 0;
}
"""


def test_device_names_from_c(tmp_path):
    source = tmp_path / "names.c"
    source.write_text(DEVICE_NAMES)
    done = _run(str(source), "--device", "cpu")
    assert done.returncode == 0, done.stderr
    label = "CPU device (2 workers)"
    assert done.stdout == f"{label}|{len(label)}|CPU |{len(label)}\nhost|4|-1\n"
