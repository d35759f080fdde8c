"""Build and run one generated program with gcc -fopenmp (the reference: target regions
on the host, offloading disabled) and with omp2gpu on the host (--device host) and on
the CPU device (--device cpu, OMP_TARGET_OFFLOAD=MANDATORY; on a machine with a GPU,
the GPU too: DEVICES), and say how they compare, as tests/test_programs.py compares
the corpus."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 60
GCC_FLAGS = ["-std=c99", "-O1", "-fopenmp", "-foffload=disable"]    # tests/test_programs.py's
# omp2gpu's flags per device name; the GPU ones where a GPU is (--devices of the campaign)
DEVICES = {"host": ["--device", "host"], "cpu": ["--device", "cpu"], "gpu": ["--device", "gpu"],
           "gpu-control-loop": ["--device", "gpu", "--scheme", "control-loop"]}
DEFAULT_DEVICES = ("host", "cpu")
_LOCATED_ERROR = re.compile(r"^[^\s:][^:]*:\d+(?::\d+)?: error: .*$", re.MULTILINE)

# Verdicts: agree; differ (silent wrong code: the worst); crash (internal error, signal,
# timeout, an unlocated failure); unsupported (a located error, e.g. "not supported");
# invalid (gcc rejects the program or it fails under gcc: the generator's fault).
AGREE, DIFFER, CRASH, UNSUPPORTED, INVALID = "agree", "differ", "crash", "unsupported", "invalid"


@dataclass(frozen=True)
class Verdict:
    kind: str
    device: str = ""
    detail: str = ""

    @property
    def signature(self) -> tuple[str, str]:
        """What a shrunk program must keep doing: the same kind on the same device."""
        return self.kind, self.device


def _environment(threads: int, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), LC_ALL="C", **(extra or {}))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return env


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, timeout=TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None


def _text(data: bytes | None) -> str:
    return (data or b"").decode(errors="replace")


def check(source: str, work: Path, threads: int = 4, devices=DEFAULT_DEVICES) -> Verdict:
    """Compare omp2gpu with gcc on the C program `source` (written to work/prog.c), on
    each of `devices` (DEVICES' names) in turn."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise RuntimeError("gcc is the reference compiler and is not installed")
    work.mkdir(parents=True, exist_ok=True)
    (work / "prog.c").write_text(source)
    built = _run([gcc, *GCC_FLAGS, "prog.c", "-o", "prog_gcc"], work, _environment(threads))
    if built is None or built.returncode != 0:
        return Verdict(INVALID, "gcc", _text(built.stderr if built else b"gcc timed out"))
    reference = _run([str(work / "prog_gcc")], work, _environment(threads))
    if reference is None or reference.returncode != 0:
        return Verdict(INVALID, "gcc", "the gcc build failed or hung when run")
    for device in devices:
        flags = DEVICES[device]
        extra = {"OMP_TARGET_OFFLOAD": "MANDATORY"} if device != "host" else {}
        got = _run([sys.executable, "-m", "omp2gpu", "run", *flags, "-std=c99", "prog.c"], work,
                   _environment(threads, extra))
        verdict = _compare(device, reference, got)
        if verdict.kind != AGREE:
            return verdict
    return Verdict(AGREE)


def _compare(device: str, reference: subprocess.CompletedProcess,
             got: subprocess.CompletedProcess | None) -> Verdict:
    if got is None:
        return Verdict(CRASH, device, f"timed out after {TIMEOUT_S} s")
    stderr = _text(got.stderr)
    if got.returncode == 1 and not got.stdout and (located := _LOCATED_ERROR.search(stderr)):
        return Verdict(UNSUPPORTED, device, located[0])
    if got.returncode != 0 and "internal compiler error" in stderr or got.returncode < 0:
        return Verdict(CRASH, device, f"exit {got.returncode}: {stderr[-2000:]}")
    if got.stdout == reference.stdout and got.returncode == reference.returncode:
        return Verdict(AGREE, device)
    return Verdict(DIFFER, device, _difference(reference, got))


def _difference(reference: subprocess.CompletedProcess, got: subprocess.CompletedProcess) -> str:
    expected, actual = _text(reference.stdout).splitlines(), _text(got.stdout).splitlines()
    lines = [f"exit status: gcc {reference.returncode}, omp2gpu {got.returncode}"]
    lines += [f"  gcc {e!r}\n  omp2gpu {a!r}" for e, a in zip(expected, actual) if e != a][:6]
    if len(expected) != len(actual):
        lines.append(f"  {len(expected)} lines from gcc, {len(actual)} from omp2gpu")
    stderr = _text(got.stderr).strip()
    return "\n".join(lines + ([f"omp2gpu stderr: {stderr[-800:]}"] if stderr else []))
