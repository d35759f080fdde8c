"""examples/lulesh/lulesh_kernels.c at s = 8: omp2gpu's output equals gcc's.

The program checks both kernels against its host references and exits 0 only
when they pass; lines starting with "time:" (timings, device count) are the
only ones allowed to differ. Both region layouts (11 regions, 1 region) run, and
the regions as `nowait` target tasks (-n).
The `gpu` variant offloads (--device gpu, OMP_TARGET_OFFLOAD=MANDATORY) and
checks from the launcher's log that both kernels ran on the GPU.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = REPO_ROOT / "examples" / "lulesh" / "lulesh_kernels.c"
TIMEOUT_S = 120
GCC_FLAGS = ["-std=c99", "-fopenmp", "-foffload=disable", "-O2"]


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, OMP_NUM_THREADS="2", **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    return env


def _stable(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if not line.startswith("time:")]


@pytest.fixture(scope="module")
def gcc_binary(tmp_path_factory) -> Path:
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    binary = tmp_path_factory.mktemp("lulesh") / "lulesh_kernels"
    subprocess.run([gcc, *GCC_FLAGS, str(EXAMPLE), "-o", str(binary), "-lm"], check=True,
                   capture_output=True, timeout=TIMEOUT_S)
    return binary


def _gcc_output(binary: Path, args: list[str]) -> list[str]:
    # the host build: a caller's OMP_TARGET_OFFLOAD=MANDATORY would make libgomp refuse it
    done = subprocess.run([str(binary), *args], env=_env(OMP_TARGET_OFFLOAD="DISABLED"), capture_output=True,
                          text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, f"gcc build failed its checks:\n{done.stdout}\n{done.stderr}"
    return _stable(done.stdout)


def _omp2gpu(args: list[str], device: str | None, flags: tuple = (), **env: str) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "omp2gpu", "run", *flags, str(EXAMPLE)]
    if device:
        cmd += ["--device", device]
    return subprocess.run(cmd + ["--", *args], env=_env(**env), capture_output=True, text=True,
                          timeout=TIMEOUT_S)


def _assert_same(done: subprocess.CompletedProcess, expected: list[str]) -> None:
    assert done.returncode == 0, f"omp2gpu run failed (status {done.returncode}):\n{done.stdout}\n{done.stderr}"
    assert _stable(done.stdout) == expected
    assert expected[-1] == "PASSED"


@pytest.mark.parametrize("regions,nowait", [("11", []), ("1", []), ("11", ["-n"]), ("11", ["-p"])])
def test_lulesh_default_device_matches_gcc(gcc_binary, regions, nowait):
    args = ["-s", "8", "-r", regions, "-i", "2", *nowait]
    _assert_same(_omp2gpu(args, None), _gcc_output(gcc_binary, args))


def test_lulesh_speculated_loads_match_gcc(tmp_path):
    """-DLULESH_SPECULATED_LOADS (the loop body with its loads hoisted by hand) prints what
    gcc's build of the same variant prints; its kernels are not the source's as written
    (-fno-speculate-mapped-loads: the boundary-mask switches), and the compiler's own
    speculation (sema/speculation/) leaves no switch either."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc is not installed")
    binary, args = tmp_path / "speculated", ["-s", "8", "-i", "2", "-n"]
    subprocess.run([gcc, *GCC_FLAGS, "-DLULESH_SPECULATED_LOADS", str(EXAMPLE), "-o", str(binary), "-lm"],
                   check=True, capture_output=True, timeout=TIMEOUT_S)
    _assert_same(_omp2gpu(args, None, flags=("-DLULESH_SPECULATED_LOADS",)), _gcc_output(binary, args))

    def device_ir(*flags: str) -> str:
        return subprocess.run([sys.executable, "-m", "omp2gpu", "compile", *flags, str(EXAMPLE), "-o",
                               str(tmp_path / "x"), "--dump", "device-ir"], env=_env(), capture_output=True,
                              text=True, timeout=TIMEOUT_S, check=True).stderr
    as_written = device_ir("-fno-speculate-mapped-loads").count("switch ")
    assert as_written > device_ir("-DLULESH_SPECULATED_LOADS", "-fno-speculate-mapped-loads").count("switch ")
    assert device_ir().count("switch ") == 0 < as_written


@pytest.mark.gpu
@pytest.mark.parametrize("regions,nowait", [("11", []), ("1", []), ("11", ["-n"]), ("11", ["-p"])])
def test_lulesh_gpu_matches_gcc(gcc_binary, regions, nowait, tmp_path):
    args = ["-s", "8", "-r", regions, "-i", "2", *nowait]
    log = tmp_path / "offload.log"
    done = _omp2gpu(args, "gpu", OMP2GPU_OFFLOAD_LOG=str(log))
    _assert_same(done, _gcc_output(gcc_binary, args))
    launched = log.read_text().splitlines()
    # the program's own "ran on" line is a region of its own (print_where_it_ran); -n's
    # launches may run fused (docs/async.md, "Fused launches"): the fused kernel runs them
    kernels = {line.split()[0] for line in launched if "print_where_it_ran" not in line}
    fused = "__omp_offloading_fused_launch"
    assert len(kernels - {fused}) == 2, f"expected the two kernels in the offload log, got {sorted(kernels)}"
    assert fused not in kernels or nowait == ["-n"], sorted(kernels)
