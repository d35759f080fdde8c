"""Differential tests: every tests/programs/*.c is built and run with gcc
(OpenMP on the host, offloading disabled) and with omp2gpu; stdout and the
exit status must match exactly.

Environment:
  OMP2GPU_TEST_DEVICES  comma-separated devices to test omp2gpu on
                        (default "host,host-t1,host-t2,cpu,gpu,gpu-control-loop"):
                        "host" runs target regions on the initial device (--device
                        host), "host-t1" and "host-t2" likewise with OMP_NUM_THREADS=1
                        and 2 instead of 4 (gcc's reference then runs at the same
                        count); "cpu" on
                        the CPU device (--device cpu: work-groups on this
                        machine's cores, OMP_TARGET_OFFLOAD=MANDATORY); "gpu"
                        offloads them (--device gpu, OMP_TARGET_OFFLOAD=MANDATORY),
                        "gpu-control-loop" with --scheme control-loop, and
                        checks from the launcher's log that every kernel ran
                        on the GPU. GPU cases carry the `gpu` marker and skip
                        where there is no GPU. Not in the default:
                        "remote-cpu" and "remote-gpu" run target regions on an
                        `omp2gpu serve` of this machine's CPU device or GPU on the
                        loopback (docs/remote.md; one server a test worker,
                        OMP2GPU_DEVICES=remote://..., MANDATORY).

Timing lines: a line of a program's stdout that begins with "timing:" (the
very first characters of the line) is dropped from both outputs before they
are compared, so programs may print wall-clock measurements (gettimeofday,
clock_gettime, omp_get_wtime) the way benchmark codes do. Nothing else is
filtered: a "timing:" anywhere but at the start of a line, or any other line,
is compared byte for byte (comparable_stdout).

Thread counts: every run has OMP_NUM_THREADS=4 (DEFAULT_THREADS) but the host-tN
devices'; a program's output must not depend on it (the same program runs at 1, 2 and 4).

Environment of a program: a line `// env: NAME=VALUE` (at a line's start, in any of its
files) sets NAME for both gcc's run and omp2gpu's, over the thread count above, so a
program can test OMP_SCHEDULE, OMP_NUM_THREADS lists, OMP_MAX_ACTIVE_LEVELS and the like.

Code-changing flags: a line `// flags: -fwrapv` (of CODE_FLAGS: gcc's flags that change what
a program computes) in a program's first file adds them to both compilers' command lines.

C standard: gcc and omp2gpu both compile with -std=c99 (strict ISO C: the headers show only
what glibc shows then); a line `// std: MODE` (gnu99, gnu11, c11...) in a program's first
file picks another mode for both.

Several source files: a directory tests/programs/NAME/ is one program, its *.c
files (in name order) compiled and linked together by gcc and by omp2gpu
(`omp2gpu run a.c b.c ...`); its headers are included from there.
"""

from __future__ import annotations

import atexit
import difflib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from host_regions import unexpected_host_regions
from remote_servers import start_server, url

from omp2gpu import driver

PROGRAMS_DIR = Path(__file__).resolve().parent / "programs"
REPO_ROOT = PROGRAMS_DIR.parent.parent
PROGRAMS = sorted([*PROGRAMS_DIR.glob("*.c"), *(d for d in PROGRAMS_DIR.iterdir() if d.is_dir()
                                                  and any(d.glob("*.c")))])

PROGRAM_ARGS = ["alpha", "42"]
TIMEOUT_S = 60
GCC_FLAGS = ["-O1", "-fopenmp", "-foffload=disable"]
DEFAULT_STD = "c99"
STD_LINE = re.compile(r"^//\s*std:\s*(\w+)\s*$", re.MULTILINE)
DEFAULT_THREADS = 4
HOST_THREAD_DEVICES = {"host-t1": 1, "host-t2": 2}     # the host at other team sizes
FLAGS_LINE = re.compile(r"^//\s*flags:(.*)$", re.MULTILINE)
CODE_FLAGS = ("-fwrapv", "-fno-wrapv", "-ffast-math", "-fno-math-errno", "-fno-strict-aliasing")
ENV_LINE = re.compile(r"^//\s*env:\s*([A-Za-z_]\w*)=(\S*)\s*$", re.MULTILINE)

TIMING_PREFIX = b"timing:"


def comparable_stdout(stdout: bytes | None) -> bytes:
    """`stdout` without its timing lines (those beginning with TIMING_PREFIX)."""
    lines = (stdout or b"").splitlines(keepends=True)
    return b"".join(line for line in lines if not line.startswith(TIMING_PREFIX))


def _device_param(device: str):
    if device.startswith("gpu") or device == "remote-gpu":
        return pytest.param(device, marks=pytest.mark.gpu)      # skipped without a GPU (conftest.py)
    return device


DEFAULT_DEVICES = "host,host-t1,host-t2,cpu,gpu,gpu-control-loop"
DEVICES = [_device_param(d.strip())
           for d in os.environ.get("OMP2GPU_TEST_DEVICES", DEFAULT_DEVICES).split(",") if d.strip()]


# Device values: "host", "host-tN" (N threads), "cpu", "gpu" (schemes chosen automatically),
# "gpu-<scheme>" (forced).
def _scheme(device: str) -> str:
    return device[len("gpu-"):] if device.startswith("gpu-") else "auto"


def thread_count(device: str) -> int:
    """OMP_NUM_THREADS for a run on `device`."""
    return HOST_THREAD_DEVICES.get(device, DEFAULT_THREADS)


def run_env(program: Path, threads: int) -> dict[str, str]:
    """The environment both builds of `program` run with: the thread count, then the
    program's own `// env: NAME=VALUE` lines."""
    env = {"OMP_NUM_THREADS": str(threads)}
    for source in sources(program):
        env.update(ENV_LINE.findall(source.read_text()))
    return env


def std_flag(program: Path) -> str:
    """-std=MODE for both compilers: the program's `// std: MODE` line, else c99."""
    found = STD_LINE.search(sources(program)[0].read_text())
    return f"-std={found.group(1) if found else DEFAULT_STD}"


def code_flags(program: Path) -> list[str]:
    """The program's `// flags:` line's flags, for both compilers (CODE_FLAGS only)."""
    found = FLAGS_LINE.search(sources(program)[0].read_text())
    flags = found.group(1).split() if found else []
    unknown = [flag for flag in flags if flag not in CODE_FLAGS]
    assert not unknown, f"{program.name}: `// flags:` takes {', '.join(CODE_FLAGS)}, not {' '.join(unknown)}"
    return flags


def sources(program: Path) -> list[Path]:
    """A program's C files: the file itself, or a directory's *.c files (several source files)."""
    return sorted(program.glob("*.c")) if program.is_dir() else [program]


def omp2gpu_command(program: Path, device: str) -> list[str]:
    """The command that compiles and runs `program` with omp2gpu on `device`."""
    where = ("gpu" if device.startswith("gpu") else "host" if device.startswith("host")
             else "auto" if device.startswith("remote-") else device)
    cmd = [sys.executable, "-m", "omp2gpu.tools.cli", "run", "--device", where, "--scheme", _scheme(device),
           std_flag(program), *code_flags(program)]
    return cmd + [str(source) for source in sources(program)] + ["--"] + PROGRAM_ARGS


# Where target regions run is each run's own choice (`--device`): a setting another test of
# the same worker left in os.environ must not reach gcc's reference (MANDATORY ends it).
DEVICE_CHOICE = ("OMP_TARGET_OFFLOAD", "OMP_DEFAULT_DEVICE", "OMP2GPU_DEVICES")


def _env() -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in DEVICE_CHOICE}
    # Make the in-tree package importable even when it is not installed.
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    return env


def _run(cmd: list[str], cwd: Path, extra_env: dict | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(cmd, cwd=cwd, env={**_env(), **(extra_env or {})}, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"timed out after {TIMEOUT_S}s: {' '.join(cmd)}\n"
                    f"stderr so far:\n{_text(e.stderr)}")


def _text(b) -> str:
    if b is None:
        return ""
    return b.decode("utf-8", "replace") if isinstance(b, bytes) else b


@pytest.fixture(scope="session")
def gcc_binaries(tmp_path_factory):
    """Builds each program with gcc once per session; maps stem -> binary path
    (or raises the build failure when the program is requested)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not found: the differential tests need it as the reference compiler")
    outdir = tmp_path_factory.mktemp("gcc_ref")
    cache: dict[str, Path | str] = {}

    def build(program: Path) -> Path:
        key = program.stem
        if key not in cache:
            exe = outdir / key
            r = subprocess.run([gcc, *GCC_FLAGS, std_flag(program), *code_flags(program), *map(str, sources(program)),
                                "-o", str(exe), "-lm"],
                               capture_output=True, timeout=TIMEOUT_S)
            cache[key] = exe if r.returncode == 0 else _text(r.stderr)
        got = cache[key]
        if isinstance(got, str):
            pytest.fail(f"the reference gcc could not build {program.name}:\n{got}")
        return got

    return build


@pytest.fixture(scope="session")
def gcc_results(gcc_binaries):
    """Runs the gcc build of each program once per session and environment (run_env: the
    reference output does not depend on the omp2gpu device, only on the thread count)."""
    cache: dict[tuple, subprocess.CompletedProcess] = {}

    def result(program: Path, threads: int = DEFAULT_THREADS) -> subprocess.CompletedProcess:
        env = run_env(program, threads)
        key = (program.stem, tuple(sorted(env.items())))
        if key not in cache:
            exe = gcc_binaries(program)
            cache[key] = _run([str(exe), *PROGRAM_ARGS], cwd=exe.parent, extra_env=env)
        return cache[key]

    return result


REMOTE_TOKEN = "corpus-over-a-server"
_servers: dict[str, subprocess.Popen] = {}


def remote_environment(device: str) -> dict[str, str]:
    """For a "remote-KIND" device: this worker's `omp2gpu serve --devices KIND` (started at
    its first use, ended with the worker) as the program's only device."""
    if not device.startswith("remote-"):
        return {}
    kind = device[len("remote-"):]
    if kind not in _servers:
        worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0")[2:] or 0)   # the workers spread over the GPUs
        server = start_server(REMOTE_TOKEN, kind, worker, base_env=_env())
        atexit.register(server.kill)
        _servers[kind] = server
    return {"OMP2GPU_DEVICES": url(_servers[kind]), "OMP2GPU_REMOTE_TOKEN": REMOTE_TOKEN,
            "OMP_TARGET_OFFLOAD": "MANDATORY"}


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program(program: Path, device: str, gcc_results, tmp_path):
    threads = thread_count(device)
    ref = gcc_results(program, threads)
    log = tmp_path / "offload.log"
    got = _run(omp2gpu_command(program, device), cwd=tmp_path,
               extra_env={**run_env(program, threads), "OMP2GPU_OFFLOAD_LOG": str(log), **remote_environment(device)})

    ref_stdout, got_stdout = comparable_stdout(ref.stdout), comparable_stdout(got.stdout)
    if ref_stdout == got_stdout and ref.returncode == got.returncode:
        if device.startswith("gpu") or device == "remote-gpu":
            _check_kernels_ran_on_gpu(program, log, got, _scheme(device))
        return
    ref_out, got_out = _text(ref_stdout), _text(got_stdout)

    msg = [f"{program.name} on device {device!r} ({threads} threads): omp2gpu differs from gcc"]
    if ref.returncode != got.returncode:
        msg.append(f"exit status: gcc {ref.returncode}, omp2gpu {got.returncode}")
    if ref_stdout != got_stdout:
        diff = difflib.unified_diff(ref_out.splitlines(keepends=True), got_out.splitlines(keepends=True),
                                    fromfile="gcc stdout", tofile="omp2gpu stdout")
        msg.append("stdout diff:\n" + "".join(diff))
    msg.append("omp2gpu stderr:\n" + _text(got.stderr))
    pytest.fail("\n".join(msg), pytrace=False)


def _check_kernels_ran_on_gpu(program: Path, log: Path, got, scheme: str) -> None:
    """No target region was sent to the host by the device build (but those that run there
    by design: tests/host_regions.py), every launch the log records ran on a GPU, none fell
    back, and some ran when the program has GPU kernels."""
    builds = [driver.translate(source, driver.CompileOptions(scheme=scheme)).device for source in sources(program)]
    on_host = unexpected_host_regions(program.stem, [remark for build in builds if build is not None
                                                     for remark in build.remarks])
    assert not on_host, "target regions sent to the host:\n" + "\n".join(on_host)
    launches = log.read_text().splitlines() if log.exists() else []
    assert "offload to device" not in _text(got.stderr), _text(got.stderr)
    if any(build is not None and build.kernels for build in builds):
        assert launches, f"{program.name}: no kernel ran on the GPU"


def test_timing_filter_drops_only_lines_that_begin_with_timing():
    out = b"step 1\ntiming: 0.25 s\nresult timing: 3\n timing: indented\ntiming:x"
    assert comparable_stdout(out) == b"step 1\nresult timing: 3\n timing: indented\n"


def test_env_lines_set_the_programs_environment_over_the_thread_count(tmp_path):
    program = tmp_path / "p.c"
    program.write_text("// env: OMP_SCHEDULE=dynamic,2\n// env: OMP_NUM_THREADS=3,2\n"
                       "int x; // env: NOT_AT_LINE_START=1\n")
    assert run_env(program, 1) == {"OMP_NUM_THREADS": "3,2", "OMP_SCHEDULE": "dynamic,2"}
    assert run_env(tmp_path / "p.c", 2)["OMP_NUM_THREADS"] == "3,2"
    program.write_text("int main(void) { return 0; }\n")
    assert run_env(program, 2) == {"OMP_NUM_THREADS": "2"}
