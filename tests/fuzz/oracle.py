"""Compile one input with omp2gpu (and gcc) in a child process and say what happened.

An input must give either a program (exit 0) or a located `file:line:col: error:`
(exit 1). Anything else is a finding: an internal compiler error (exit 2), a
signal (LLVM's abort), a timeout, a memory blow-up, or exit 1 with no location.
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 60
# Address space for the child: the compile thread's 1 GiB stack reservation, LLVM,
# and the front end's trees of a large file fit well inside it; a runaway does not.
MEMORY_LIMIT_BYTES = 6 << 30

GOOD = ("accepted", "rejected")
_LOCATED_ERROR = re.compile(r"^[^\s:][^:]*:\d+(?::\d+)?: error: ", re.MULTILINE)
_INTERNAL = re.compile(r"internal compiler error: (?P<what>[^\n]*)")


@dataclass(frozen=True)
class Outcome:
    kind: str        # accepted, rejected, unlocated, internal-error, signal, hang, memory
    status: int      # exit status (negative: the signal), or None's stand-in -1 for a hang
    stderr: str
    command: str     # which compile step: host object (-c) or device assembly (-S)

    @property
    def is_finding(self) -> bool:
        return self.kind not in GOOD

    @property
    def signature(self) -> str:
        """What a reduced input must keep doing: the kind, and for an internal
        error the exception's type and where its message starts."""
        if self.kind == "internal-error":
            match = _INTERNAL.search(self.stderr)
            what = match["what"] if match else ""
            return f"{self.kind}: {re.sub(r'[0-9]+', 'N', what)[:60]}"
        if self.kind == "signal":
            return f"{self.kind}: {-self.status}"
        return self.kind


def _limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


def _environment() -> dict[str, str]:
    env = dict(os.environ, LC_ALL="C")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return env


def _classify(status: int, stderr: str, command: str) -> Outcome:
    if status == 0:
        kind = "accepted"
    elif status == 1:       # the source line under a located error may say anything
        kind = "rejected" if _LOCATED_ERROR.search(stderr) else "unlocated"
    elif "MemoryError" in stderr or "std::bad_alloc" in stderr or "out of memory" in stderr.lower():
        kind = "memory"
    elif status < 0:
        kind = "signal"
    else:
        kind = "internal-error"
    return Outcome(kind, status, stderr, command)


def _omp2gpu(arguments: list[str], cwd: Path, timeout: float, label: str) -> Outcome:
    try:
        done = subprocess.run([sys.executable, "-m", "omp2gpu", *arguments], cwd=cwd,
                              env=_environment(), capture_output=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, preexec_fn=_limit_memory)
    except subprocess.TimeoutExpired as expired:
        stderr = (expired.stderr or b"").decode(errors="replace")
        return Outcome("hang", -1, stderr, label)
    return _classify(done.returncode, done.stderr.decode(errors="replace"), label)


def compile_with_omp2gpu(source: Path, timeout: float = TIMEOUT_S) -> Outcome:
    """`compile --emit-llvm` (front end, host and CPU-device codegen, the kernels' IR,
    LLVM's optimiser); where that works and the input has target regions, `compile -S`
    too (the NVPTX back end)."""
    work = source.parent
    std = f"-std={c_standard(source)}"
    outcome = _omp2gpu(["compile", std, source.name, "--emit-llvm", "-o", "fuzz.ll"], work, timeout,
                       "compile --emit-llvm")
    if outcome.kind == "accepted" and b"target" in source.read_bytes():
        device = _omp2gpu(["compile", std, source.name, "-S", "-o", "fuzz.ptx"], work, timeout, "compile -S")
        # "no target region runs on the GPU" is a located, honest answer here too.
        if device.is_finding and not (device.kind == "unlocated" and "no target region" in device.stderr):
            return device
    return outcome


_STD_LINE = re.compile(rb"^// std: (\S+)")


def c_standard(source: Path) -> str:
    """The C standard both compilers get: a corpus program's `// std: MODE` first line
    (tests/test_programs.py), else c99, as the corpus is compared (omp2gpu's own default
    is gcc's, gnu17: left to itself it saw names, M_PI, that gcc -std=c99 hides)."""
    match = _STD_LINE.match(source.read_bytes())
    return match[1].decode() if match else "c99"


@dataclass(frozen=True)
class GccVerdict:
    accepted: bool
    first_error: str | None      # gcc's first `NAME:LINE:COL: error: ...` line, where it rejected

    @property
    def error_line(self) -> int | None:
        return error_line(self.first_error)


def first_error(stderr: str, source_name: str) -> str | None:
    """The first `NAME:LINE:COL: error: ...` line about the input file itself."""
    match = re.search(rf"^{re.escape(source_name)}:\d+(?::\d+)?: (?:fatal )?error: .*$", stderr, re.MULTILINE)
    return match[0] if match else None


def error_line(message: str | None) -> int | None:
    """The LINE of a `NAME:LINE:COL: error: ...` line."""
    match = re.match(r"[^:]*:(\d+)", message or "")
    return int(match[1]) if match else None


def first_error_line(stderr: str, source_name: str) -> int | None:
    """The line of the first `NAME:LINE:COL: error:` about the input file itself."""
    return error_line(first_error(stderr, source_name))


def gcc_verdict(source: Path, timeout: float = TIMEOUT_S) -> GccVerdict | None:
    """Whether gcc compiles the input (as the corpus is compared: C99, OpenMP), and where
    its first error is; None without gcc, and where gcc refuses the input only because it
    does not implement what it uses ("sorry, unimplemented": gcc 12 and `requires
    unified_shared_memory`), which judges nothing."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    try:
        # a whole compile (-c), not -fsyntax-only: gcc checks OpenMP nesting after parsing
        done = subprocess.run([gcc, f"-std={c_standard(source)}", "-fopenmp", "-c", "-o", os.devnull, "-w",
                               source.name],
                              cwd=source.parent, capture_output=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None
    stderr = done.stderr.decode(errors="replace")
    error = first_error(stderr, source.name)
    if done.returncode != 0 and error is None and re.search(r": sorry, unimplemented: ", stderr):
        return None
    return GccVerdict(done.returncode == 0, error)


def gcc_accepts(source: Path, timeout: float = TIMEOUT_S) -> bool | None:
    verdict = gcc_verdict(source, timeout)
    return None if verdict is None else verdict.accepted
