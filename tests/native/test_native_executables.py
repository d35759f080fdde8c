"""Native programs as a user meets them (docs/native-executables.md): an executable that
runs with an empty environment and no libpython, `omp2gpu run --native` giving the program
its arguments, environment, standard streams, exit status and signals, an omp2gpu object
linked into a gcc-built main, a shared library called from gcc's main and from ctypes, the
runtime's located map errors and its device rules (OMP_TARGET_OFFLOAD, OMP2GPU_DEVICES)."""

from __future__ import annotations

import ctypes
import json
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from omp2gpu.targets import nvptx

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
REPO_ROOT = HERE.parents[1]
TIMEOUT_S = 300

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")


def omp2gpu(*args: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    env.update(kwargs.pop("env", {}))
    return subprocess.run([sys.executable, "-m", "omp2gpu.tools.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=TIMEOUT_S, **kwargs)


def build(tmp_path: Path, source: str, *flags: str, output: str = "prog") -> Path:
    done = omp2gpu("compile", "--native", str(PROGRAMS / source), *flags, "-o", output, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path / output


def gcc_reference(folder: Path, source: Path, *args: str, flags: tuple[str, ...] = ()) -> str:
    """What gcc's host build of `source` prints (offloading disabled): the differential
    tests' reference."""
    subprocess.run(["gcc", *flags, "-fopenmp", "-O1", str(source), "-o", str(folder / "reference")], check=True)
    return subprocess.run([str(folder / "reference"), *args], capture_output=True, text=True, check=True,
                          timeout=TIMEOUT_S, env={**os.environ, "OMP_TARGET_OFFLOAD": "DISABLED"}).stdout


# the GPU tests' program counts its devices: one GPU, whatever the machine has
ONE_GPU = {"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY", "CUDA_VISIBLE_DEVICES": "0"}


def run_bare(program: Path, *args: str, env: dict | None = None, **kwargs) -> subprocess.CompletedProcess:
    """The program with only the environment given (as `env -i`)."""
    return subprocess.run([str(program), *args], env=env or {}, capture_output=True, text=True,
                          timeout=TIMEOUT_S, **kwargs)


@pytest.fixture(scope="module")
def library_object(tmp_path_factory) -> Path:
    """vector_library.c as an omp2gpu object with its device image (compile --native -c)."""
    work = tmp_path_factory.mktemp("object")
    done = omp2gpu("compile", "--native", "-c", str(PROGRAMS / "vector_library.c"), "-o", "vector_library.o",
                   cwd=work)
    assert done.returncode == 0, done.stderr
    return work / "vector_library.o"


@pytest.fixture(scope="module")
def link_flags(tmp_path_factory) -> list[str]:
    done = omp2gpu("link-flags", cwd=tmp_path_factory.mktemp("flags"))
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_executable_runs_with_an_empty_environment_and_no_python(tmp_path):
    program = build(tmp_path, "process_facts.c")
    assert program.read_bytes().startswith(b"\x7fELF")
    done = run_bare(program, "x", input="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1] == "GREETING=(unset) total=55"
    libraries = subprocess.run(["ldd", str(program)], capture_output=True, text=True).stdout
    assert "libpython" not in libraries and "libomp2gpu" not in libraries, libraries


def test_run_native_gives_the_program_its_process(tmp_path):
    source = str(PROGRAMS / "process_facts.c")
    done = omp2gpu("run", "--native", source, "--", "7", "two words", input="line one\nline two\n",
                   cwd=tmp_path, env={"GREETING": "hello"})
    assert done.returncode == 7
    assert done.stdout == (f"argc=3 [{source}] [7] [two words]\nGREETING=hello total=55\n"
                           "read: line one\nread: line two\n")
    assert done.stderr == "to stderr\n"
    aborted = omp2gpu("run", "--native", source, "--", "abort", input="", cwd=tmp_path)
    assert aborted.returncode == -signal.SIGABRT          # exec: the signal is the process's own


def test_run_native_reuses_the_linked_program(tmp_path):
    cache = tmp_path / "cache"
    for _ in range(2):
        done = omp2gpu("run", "--native", str(PROGRAMS / "process_facts.c"), input="", cwd=tmp_path,
                       env={"OMP2GPU_CACHE_DIR": str(cache)})
        assert done.returncode == 0, done.stderr
    assert len(list((cache / "native").iterdir())) == 1


def test_run_native_links_again_with_the_code_cache_off(tmp_path):
    cache = tmp_path / "cache"
    linked = []
    for switch in ("1", "0", "0"):
        done = omp2gpu("run", "--native", str(PROGRAMS / "process_facts.c"), input="", cwd=tmp_path,
                       env={"OMP2GPU_CACHE_DIR": str(cache), "OMP2GPU_CODE_CACHE": switch})
        assert done.returncode == 0, done.stderr
        (executable,) = (cache / "native").glob("*/process_facts")
        linked.append(executable.stat().st_ino)
    assert linked[0] != linked[1] != linked[2]          # each run with the cache off wrote a new one


def test_gcc_main_links_an_omp2gpu_object(tmp_path, library_object, link_flags):
    program = tmp_path / "main"
    done = subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), str(library_object), *link_flags, "-o", str(program)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ran = run_bare(program, env={"OMP2GPU_DEVICES": "cpu"})
    assert ran.stdout == "y[99]=298.0 on_device=1 sum=9900.0 devices=1\n", ran.stderr
    host = run_bare(program, env={"OMP_TARGET_OFFLOAD": "DISABLED"})
    assert host.stdout == "y[99]=298.0 on_device=0 sum=9900.0 devices=0\n", host.stderr


def assert_gcc_main_runs_with_libvector(folder: Path) -> None:
    """gcc_main.c built by gcc against folder/libvector.so runs its regions on the CPU device."""
    program = folder / "main"
    done = subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), f"-L{folder}", "-lvector",
                           f"-Wl,-rpath,{folder}", "-o", str(program)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ran = run_bare(program, env={"OMP2GPU_DEVICES": "cpu"})
    assert ran.stdout == "y[99]=298.0 on_device=1 sum=9900.0 devices=1\n", ran.stderr


def test_shared_library_from_gcc_main_and_from_ctypes(tmp_path):
    library = build(tmp_path, "vector_library.c", "-shared", "-fPIC", output="libvector.so")
    assert_gcc_main_runs_with_libvector(tmp_path)
    # from Python, in a fresh interpreter: the library brings its own runtime
    script = (f"import ctypes\nlib = ctypes.CDLL({str(library)!r})\n"
              "lib.saxpy.argtypes = [ctypes.c_int, ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p]\n"
              "lib.scaled_sum.restype = ctypes.c_double\n"
              "lib.scaled_sum.argtypes = [ctypes.c_int, ctypes.c_void_p]\n"
              "x = (ctypes.c_double * 8)(*range(8)); y = (ctypes.c_double * 8)(*[1.0] * 8)\n"
              "print(lib.saxpy(8, 2.0, x, y), list(y), lib.scaled_sum(8, x), lib.devices())\n")
    called = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "OMP2GPU_DEVICES": "cpu"}, timeout=TIMEOUT_S)
    assert called.stdout == "1 [1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0] 56.0 1\n", called.stderr


def test_gcc_links_a_shared_library_of_omp2gpu_objects_with_link_flags_shared(tmp_path):
    """`cc -c` by omp2gpu, `cc -shared` by gcc with `omp2gpu link-flags --shared` (the
    executable's flags fail such a link: its runtime has a .preinit_array)."""
    done = omp2gpu("compile", "--native", "-c", "-fPIC", str(PROGRAMS / "vector_library.c"), "-o", "vector.o",
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    flags = omp2gpu("link-flags", "--shared", cwd=tmp_path)
    assert flags.returncode == 0, flags.stderr
    library = tmp_path / "libvector.so"
    done = subprocess.run(["gcc", "-shared", str(tmp_path / "vector.o"), *flags.stdout.split(), "-o", str(library)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert_gcc_main_runs_with_libvector(tmp_path)


def test_ctypes_sees_the_library_symbols(tmp_path):
    library = build(tmp_path, "vector_library.c", "-shared", output="libvector.so")
    loaded = ctypes.CDLL(str(library))
    assert hasattr(loaded, "saxpy") and hasattr(loaded, "__omp2gpu_target")


@pytest.mark.parametrize("source, message", [
    ("bad_section.c", "bad_section.c:9:17: map entry 1 'a[0:n]' (line 9) has a negative length (-32 bytes)"),
    ("partly_mapped.c", "partly_mapped.c:9:21: host range"),
    ("zero_stride_update.c", "zero_stride_update.c:10:13: array section dimension 1 has a stride of 0 bytes"),
])
def test_map_errors_are_located_and_fatal(tmp_path, source, message):
    program = build(tmp_path, source)
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu"})
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith("omp2gpu: error: ") and message in done.stderr, done.stderr
    if source == "partly_mapped.c":
        assert "is partially mapped" in done.stderr


def test_device_rules_from_the_environment(tmp_path, library_object, link_flags):
    program = tmp_path / "main"
    subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), str(library_object), *link_flags, "-o", str(program)],
                   check=True)
    two = run_bare(program, env={"OMP2GPU_DEVICES": "cpu,cpu", "OMP_DEFAULT_DEVICE": "1"})
    assert two.stdout.endswith("on_device=1 sum=9900.0 devices=2\n"), two.stderr
    host = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_DEFAULT_DEVICE": "1"})
    assert "on_device=0" in host.stdout, host.stderr            # device 1 is the host here
    typo = run_bare(program, env={"OMP_TARGET_OFFLOAD": "sometimes", "OMP2GPU_DEVICES": "cpu"})
    assert "OMP_TARGET_OFFLOAD=SOMETIMES is not MANDATORY, DISABLED or DEFAULT" in typo.stderr
    assert "on_device=1" in typo.stdout


@pytest.mark.no_gpu
def test_mandatory_gpu_without_one_is_fatal(tmp_path, library_object, link_flags):
    program = tmp_path / "main"
    subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), str(library_object), *link_flags, "-o", str(program)],
                   check=True)
    done = run_bare(program, env={"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert done.returncode == 1
    assert done.stderr.startswith("omp2gpu: error: no device is available, and target regions must run on one "
                                  "(OMP_TARGET_OFFLOAD=MANDATORY, OMP2GPU_DEVICES=gpu): no GPU: "), done.stderr
    assert done.stderr.endswith("; `omp2gpu doctor` lists the devices\n")
    # why: the machine's own reason (no driver here, or no GPU, ...) with its fix
    assert "NVIDIA driver" in done.stderr


@pytest.mark.gpu
def test_gpu_runs_the_embedded_ptx(tmp_path, library_object, link_flags):
    program = tmp_path / "main"
    subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), str(library_object), *link_flags, "-o", str(program)],
                   check=True)
    done = run_bare(program, env=ONE_GPU)
    assert done.stdout == "y[99]=298.0 on_device=1 sum=9900.0 devices=1\n", done.stderr


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_uninitialised_heap_reads_as_in_gccs_binary(tmp_path, device):
    """particle_filter_fresh_heap.c accumulates into malloc'd memory it never wrote: its
    output is gcc's binary's only in a process of its own."""
    source = PROGRAMS / "particle_filter_fresh_heap.c"
    reference = tmp_path / "reference"
    subprocess.run(["gcc", "-std=c99", "-O1", "-fopenmp", "-foffload=disable", str(source), "-o", str(reference),
                    "-lm"], check=True)
    expected = subprocess.run([str(reference)], capture_output=True, text=True, env={"OMP_NUM_THREADS": "4"})
    assert "nan" not in expected.stdout
    done = omp2gpu("run", "--native", "--device", device, str(source), cwd=tmp_path, input="",
                   env={"OMP_NUM_THREADS": "4"})
    assert (done.returncode, done.stdout) == (expected.returncode, expected.stdout), done.stderr


def test_launch_and_copy_records(tmp_path, library_object, link_flags):
    """OMP2GPU_OFFLOAD_LOG, OMP2GPU_COPY_LOG and LIBOMPTARGET_INFO's 0x10 and 0x20."""
    program = tmp_path / "main"
    subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), str(library_object), *link_flags, "-o", str(program)],
                   check=True)
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_NUM_THREADS": "2", "LIBOMPTARGET_INFO": "0x30",
                                  "OMP2GPU_OFFLOAD_LOG": str(tmp_path / "launches"),
                                  "OMP2GPU_COPY_LOG": str(tmp_path / "copies")})
    assert done.stdout == "y[99]=298.0 on_device=1 sum=9900.0 devices=1\n", done.stderr
    launches = (tmp_path / "launches").read_text().splitlines()
    assert len(launches) == 2 and all(re.fullmatch(r"__omp_offloading_\w+ device='cpu' grid=\d+ block=\d+", line)
                                      for line in launches), launches
    copies = (tmp_path / "copies").read_text().splitlines()
    # saxpy: x and y (800 bytes each) and on_device in; y and on_device out; scaled_sum: v in, sum in and out
    assert copies.count("to-device bytes=800 device='cpu'") == 3, copies
    assert copies.count("to-host bytes=800 device='cpu'") == 1, copies
    info = done.stderr.splitlines()
    assert sum("launching kernel __omp_offloading_" in line for line in info) == 2, info
    assert all(line.startswith("omp2gpu: CPU device (2 workers) info: ") for line in info), info
    assert any("copying data from host to device, HstPtr=0x" in line and "Size=800" in line for line in info)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas (the CUDA toolkit)")
def test_offload_arch_embeds_a_cubin(tmp_path):
    """--offload-arch sm_90: the PTX assembled for sm_90 is in the image beside the PTX (a
    GPU of compute capability 9.0 loads it; the CPU device and the host are unchanged)."""
    program = build(tmp_path, "process_facts.c", "--offload-arch", "sm_90")
    plain = build(tmp_path, "process_facts.c", output="plain")
    # plain: the executable and its image for remote devices (remote_image.py); then the cubin
    assert program.read_bytes().count(b"\x7fELF") > plain.read_bytes().count(b"\x7fELF") == 2
    done = run_bare(program, "3", input="", env={"OMP2GPU_DEVICES": "cpu"})
    assert done.returncode == 3 and "total=55" in done.stdout, done.stderr


@pytest.mark.gpu
def test_gpu_loads_the_cubin_for_its_arch(tmp_path, link_flags):
    """The library built for this GPU's architecture (its cubin loaded, no PTX JIT) gives
    the same results on the GPU."""
    done = omp2gpu("compile", "--native", "-c", "--offload-arch", nvptx.default_arch(),
                   str(PROGRAMS / "vector_library.c"), "-o", "vector_library.o", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    program = tmp_path / "main"
    subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), str(tmp_path / "vector_library.o"), *link_flags, "-o",
                    str(program)], check=True)
    ran = run_bare(program, env=ONE_GPU)
    assert ran.stdout == "y[99]=298.0 on_device=1 sum=9900.0 devices=1\n", ran.stderr


def test_run_native_dumps_every_stage(tmp_path):
    """--dump reaches every stage on the native path too (the GPU's made for the dump where
    the program runs elsewhere), and the program still runs."""
    stages = "ast,ir,opt-ir,regions,device-ir,ptx,cpu-regions,cpu-ir,cpu-opt-ir"
    done = omp2gpu("run", "--native", "--device", "cpu", f"--dump={stages}", str(PROGRAMS / "process_facts.c"),
                   input="", cwd=tmp_path)
    assert done.returncode == 0 and "total=55" in done.stdout, done.stderr
    for name in stages.split(","):
        assert f"===== omp2gpu dump: {name} (" in done.stderr, name
    assert "produced no" not in done.stderr


def test_profile_is_a_trace_with_each_launch(tmp_path, library_object, link_flags):
    """OMP2GPU_PROFILE: the Chrome / Perfetto trace trace_events.py writes, from the native
    runtime: each launch and map-clause copy an event on its device's track, otherData's
    kernels with every launch's configuration and time."""
    program = tmp_path / "main"
    subprocess.run(["gcc", str(PROGRAMS / "gcc_main.c"), str(library_object), *link_flags, "-o", str(program)],
                   check=True)
    profile = tmp_path / "trace.json"
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_NUM_THREADS": "2", "OMP2GPU_PROFILE": str(profile)})
    assert done.returncode == 0, done.stderr
    trace = json.loads(profile.read_text())
    assert list(trace) == ["traceEvents", "displayTimeUnit", "otherData"]
    complete = [event for event in trace["traceEvents"] if event["ph"] == "X"]
    kernels = [event for event in complete if event["cat"] == "kernel"]
    assert len(kernels) == 2 and all(event["dur"] >= 0 and event["args"]["block"] > 0 for event in kernels)
    assert {event["name"] for event in complete if event["cat"] == "copy"} == {"copy to-device", "copy to-host"}
    names = {event["args"]["name"] for event in trace["traceEvents"] if event["name"] == "process_name"}
    assert names == {"CPU device (2 workers)"}
    summary = trace["otherData"]
    assert summary["device"] == "cpu" and len(summary["kernels"]) == 2
    assert all(len(entry["launches"]) == 1 and entry["launches"][0]["us"] >= 0 for entry in summary["kernels"].values())
