"""omp2gpu's configuration: every environment variable, in one table (VARIABLES).

The compiler (this package) reads its variables here and nowhere else. `settings()` is
the environment as typed settings, a frozen snapshot: each field (`settings().code_cache`,
`.cache_dir`, ...) is one row of the table, parsed when it is read. A value that does not
parse is a SettingError (a CompileError: the command line prints `omp2gpu: error:
OMP2GPU_X=value: why`, exit 1) naming the variable and what it takes, never silently
ignored. Settings are read when a module asks, not at import: the environment may change
between loads, and tests change it.

The other rows are read by the programs omp2gpu builds: libomp2gpu (runtime/offload/*.c's
getenv), the remote server (runtime/remote), the host's OpenMP runtime. They are here so
that README.md's table is complete: `python -m omp2gpu.config` prints it, and
tests/test_config.py checks README.md has exactly that table and that no other module reads
the environment. The compiler checks one of them for the programs it starts
(`check_for_programs`: OMP2GPU_CPU_SCHEDULE, which the runtime would otherwise only warn of).

The environment of a child process the compiler starts (the preprocessor's C locale, the
program `omp2gpu run` starts, `report --run`'s sweeps) is made by `child_environment`, here
too: the process's environment plus what the child must see.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from omp2gpu.diagnostics import CompileError


class SettingError(CompileError):
    """An environment variable whose value does not parse: names it and what it takes."""


# ------------------------------------------------------------------ how values parse
# Each kind parses a set, non-blank value (stripped) or raises ValueError saying what it
# takes; unset or blank is the kind's default.

@dataclass(frozen=True)
class Text:
    """A path, a command or a list the reader splits itself."""
    default: str | None = None
    type = "text"

    def parse(self, text: str) -> str:
        return text


FLAG_WORDS = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False, "off": False}


@dataclass(frozen=True)
class Flag:
    """On or off: 1/0, true/false, yes/no, on/off."""
    default: bool = False
    type = "flag"

    def parse(self, text: str) -> bool:
        if text.lower() not in FLAG_WORDS:
            raise ValueError("must be 1 or 0 (true/false, yes/no, on/off)")
        return FLAG_WORDS[text.lower()]


CPU_SCHEDULE_POLICIES = ("static", "dynamic", "guided", "steal")     # runtime/offload/cpu_device.c's


@dataclass(frozen=True)
class CpuSchedule:
    """`policy[,chunk]` (runtime/offload/cpu_device.c's read_schedule): (policy, chunk)."""
    default: tuple[str, int] = ("steal", 0)
    type = "policy[,chunk]"

    def parse(self, text: str) -> tuple[str, int]:
        policy, _, chunk = text.lower().partition(",")
        policy = "steal" if policy.strip() == "work-stealing" else policy.strip()
        if policy not in CPU_SCHEDULE_POLICIES:
            raise ValueError(f"unknown CPU schedule policy '{policy}' (choose from {', '.join(CPU_SCHEDULE_POLICIES)})")
        try:
            size = int(chunk) if chunk.strip() else 0
        except ValueError:
            raise ValueError(f"the CPU schedule's chunk must be an integer, not '{chunk}'") from None
        if size < 0:
            raise ValueError("the CPU schedule's chunk must not be negative")
        return policy, size


# ------------------------------------------------------------------ the table

@dataclass(frozen=True)
class Variable:
    """One row of the table: a variable (or a few documented together), what it does
    (README.md's line), who reads it, and, for those the compiler reads, how it parses."""
    names: tuple[str, ...]
    doc: str
    program: str | None = None       # which part of a program reads it (a runtime file); None: none
    compiler: str | None = None      # the module(s) of this package that read it; None: none
    kind: Text | Flag | CpuSchedule | None = None    # the compiler's parsing (with `compiler`)

    @property
    def name(self) -> str:
        return self.names[0]

    @property
    def read_by(self) -> str:
        """README's column: the compiler, the program, or both."""
        return ", ".join(part for part, reader in (("compiler", self.compiler), ("program", self.program)) if reader)

    def value(self, environ: Mapping[str, str]):
        """The typed value in `environ` (a tuple, one value a name, for a row of several)."""
        values = tuple(self._one(name, environ.get(name)) for name in self.names)
        return values if len(values) > 1 else values[0]

    def _one(self, name: str, raw: str | None):
        if raw is None or not raw.strip():
            return self.kind.default
        try:
            return self.kind.parse(raw.strip())
        except ValueError as why:
            raise SettingError(f"{name}={raw}: {why}") from None


def _program(*names: str, doc: str, reader: str) -> Variable:
    """A row only programs read: libomp2gpu (`reader`: its file), the host's OpenMP runtime..."""
    return Variable(names, doc, program=reader)


def _compiler(*names: str, doc: str, reader: str, kind, program: str | None = None) -> Variable:
    """A row the compiler reads (`reader`: its module), parsed by `kind`."""
    return Variable(names, doc, program=program, compiler=reader, kind=kind)


LIBOMP2GPU = "libomp2gpu"          # "read by libomp2gpu": runtime/offload/*.c

# README.md's table, in its order: what programs read, then what the compiler reads.
PROGRAM_VARIABLES = (
    _program("OMP_TARGET_OFFLOAD", reader=f"{LIBOMP2GPU}: runtime/offload/policy.c",
             doc="`MANDATORY` (no device is an error), `DISABLED` (target regions on the host), `DEFAULT`"),
    _program("OMP_DEFAULT_DEVICE", reader=f"{LIBOMP2GPU}: runtime/offload/policy.c, runtime/host/omp_api.c",
             doc="the device number of regions without a `device` clause"),
    _program("OMP_NUM_THREADS", reader=f"{LIBOMP2GPU}: runtime/offload/cpu_device.c; the host's OpenMP runtime",
             doc="host OpenMP's threads (the runtime's own variable) and the CPU device's workers (its first value)"),
    _program("OMP_SCHEDULE", "OMP_DYNAMIC", "OMP_PROC_BIND", reader="the host's OpenMP runtime",
             doc="these and OpenMP's others (`OMP_PLACES`, ...) are read by the host's OpenMP runtime itself "
                 "(libgomp or libiomp5), not by omp2gpu"),
    _program("LIBOMPTARGET_INFO", reader=f"{LIBOMP2GPU}: runtime/offload/launch_record.c",
             doc="launch information on stderr, libomptarget's bit mask: `0x10` launches, `0x20` copies (above)"),
    _program("LIBOMPTARGET_DEBUG", reader=f"{LIBOMP2GPU}: runtime/offload/messages.c",
             doc="`1`: the offload runtime's steps on stderr (`omp2gpu: debug: ...`): the devices found and why "
                 "no GPU, images registered and loaded, each launch and copy"),
    _program("LIBOMPTARGET_PROFILE", reader=f"{LIBOMP2GPU}: runtime/offload/profile.c",
             doc="libomptarget's name for `OMP2GPU_PROFILE`: the file the run's Chrome trace is written to"),
    _program("LIBOMPTARGET_HEAP_SIZE", reader=f"{LIBOMP2GPU}: runtime/offload/cuda_device.c",
             doc="bytes of a GPU's device heap (malloc and `omp_alloc` in kernels; the driver's default 8 MiB "
                 "otherwise)"),
    _program("LIBOMPTARGET_STACK_SIZE", reader=f"{LIBOMP2GPU}: runtime/offload/cuda_device.c",
             doc="bytes of each GPU thread's stack (the driver's default 1 KiB otherwise), which recursion deeper "
                 "than that needs"),
    _program("OMP_ALLOCATOR", reader=f"{LIBOMP2GPU}: runtime/offload/env_allocator.c",
             doc="the host threads' initial default allocator: a predefined allocator's name "
                 "(`omp_large_cap_mem_alloc`, ...), or OpenMP 5.1's memory space with traits"),
    _program("OMP_NUM_TEAMS", "OMP_TEAMS_THREAD_LIMIT", reader=f"{LIBOMP2GPU}: runtime/offload/policy.c",
             doc="the most teams, and threads a team, of a target region's teams without "
                 "`num_teams`/`thread_limit` clauses (OpenMP 5.1; the host's teams: libgomp)"),
    _program("OMP_DISPLAY_ENV", reader=f"{LIBOMP2GPU}: runtime/offload/display_env.c; the host's OpenMP runtime",
             doc="`true`/`verbose`: the host runtime's block, then the offload runtime's: the devices in their "
                 "numbering, the variables choosing them"),
    _program("OMP_MAX_ACTIVE_LEVELS", reader="the host's OpenMP runtime",
             doc="nested parallelism on the host (libgomp's); inside target regions a nested parallel region "
                 "runs with one thread (max-active-levels 1)"),
    _compiler("OMP2GPU_DEVICES", kind=Text(), reader="tools/doctor.py",
              program=f"{LIBOMP2GPU}: runtime/offload/policy.c, device_table.c, remote_device.c",
              doc="which kinds of device to use, in numbering order: `gpu`, `cpu`, `gpu,cpu`, `cpu,cpu` (a kind "
                  "twice: its devices twice); unset, the GPUs, or the CPU device where no GPU is (as Clang and "
                  "GCC count devices; `omp2gpu doctor` lists them)"),
    _compiler("OMP2GPU_PROFILE", kind=Text(), reader="trace_events.py",
              program=f"{LIBOMP2GPU}: runtime/offload/profile.c",
              doc="file to write the run's Chrome / Perfetto trace to (above)"),
    _program("OMP2GPU_OFFLOAD_LOG", reader=f"{LIBOMP2GPU}: runtime/offload/launch_record.c",
             doc="file to append a line per kernel launch to: kernel, device, grid, block"),
    _program("OMP2GPU_COPY_LOG", reader=f"{LIBOMP2GPU}: runtime/offload/launch_record.c",
             doc="file to append a line per map-clause copy to: direction, bytes, device"),
    _program("OMP2GPU_LAUNCH", reader=f"{LIBOMP2GPU}: runtime/offload/policy.c",
             doc="`TEAMS,THREADS`: every kernel but serial ones launched so, over its clauses (`report --run` "
                 "sweeps with it)"),
    _compiler("OMP2GPU_CPU_SCHEDULE", kind=CpuSchedule(),
              reader="config.py's check_for_programs, for tools/cli.py and api/library.py",
              program=f"{LIBOMP2GPU}: runtime/offload/cpu_device.c",
              doc="how the CPU device deals work-groups to its workers: `static`, `dynamic`, `guided`, `steal` "
                  "(default) `[,CHUNK]`; another value is an error of `omp2gpu run` and `omp2gpu.load`"),
    _program("OMP2GPU_CPU_UNIFIED", reader=f"{LIBOMP2GPU}: runtime/offload/cpu_device.c",
             doc="`1`: the CPU device uses the host's memory (zero-copy) instead of copying mapped data"),
    _program("OMP2GPU_CPU_SPIN", reader=f"{LIBOMP2GPU}: runtime/offload/cpu_device.c",
             doc="pause-loop iterations a CPU-device worker spins before sleeping (default 20000)"),
    _program("OMP2GPU_CPU_CACHE_BYTES", reader=f"{LIBOMP2GPU}: runtime/offload/cpu_device.c",
             doc="bytes of freed CPU-device buffers kept for reuse (default 1 GiB)"),
    _program("OMP2GPU_MPI_STAGING", reader="runtime/mpi/device_buffers.c",
             doc="`0`: MPI calls given device memory are not staged through host memory; `trace`: each staged "
                 "copy is named on stderr; `all`: the CPU device's buffers are staged too (tests)"),
    _program("OMP2GPU_MPI_CUDA_AWARE", reader="runtime/mpi/device_buffers.c",
             doc="`1`: the MPI reads device memory itself (nothing staged); `0`: staged even where the MPI says "
                 "it is CUDA-aware"),
    _program("MPI_LOCALRANKID", "OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK", "PMI_LOCAL_RANK",
             "SLURM_LOCALID", "PALS_LOCAL_RANKID", reader=f"{LIBOMP2GPU}: runtime/offload/policy.c",
             doc="set by MPI launchers: a rank's number on its node, which chooses its GPU (modulo the node's "
                 "GPUs) unless `OMP_DEFAULT_DEVICE` is set"),
    _program("OMP2GPU_NOWAIT_STREAMS", reader=f"{LIBOMP2GPU}: runtime/offload/target_tasks.c",
             doc="`0`: `target nowait` kernels are waited for as synchronous ones; `1` (the default): on present "
                 "data they run on CUDA streams while the host goes on (docs/async.md)"),
    _program("OMP2GPU_NOWAIT_RUN_AHEAD", reader=f"{LIBOMP2GPU}: runtime/offload/target_tasks.c",
             doc="`1` (the default): a `target nowait` with no `depend` met outside any parallel region leaves "
                 "its kernel running until the thread's next `taskwait`, barrier or end of a `taskgroup`; `0`: "
                 "the task is run at once and waited for (docs/async.md)"),
    _program("OMP2GPU_FUSE_LAUNCHES", reader=f"{LIBOMP2GPU}: runtime/offload/policy.c",
             doc="consecutive run-ahead `target nowait` launches (no `depend`, sequential code) run as one "
                 "launch of the image's fused kernel: `1` (the default) those made while one of the thread's "
                 "kernels runs; `wait`: all of them until the thread's next wait; `0`: none (docs/async.md)"),
    _program("OMP2GPU_WIDE_TWINS", reader=f"{LIBOMP2GPU}: runtime/offload/policy.c",
             doc="`1` (the default): a kernel with a loop in each thread's iteration runs as its wide-register "
                 "twin (`.maxnreg 128`) where the launch's blocks fit on their multiprocessors at the twin's "
                 "registers (a grid too small to fill the GPU); `0`: always the kernel as compiled for full "
                 "occupancy"),
    _program("OMP2GPU_AUTO_ASYNC", reader=f"{LIBOMP2GPU}: runtime/offload/auto_async.c",
             doc="`1`: synchronous target regions on present data whose kernels write only through their mapped "
                 "pointers run beside each other on CUDA streams where their footprints do not conflict; a "
                 "line per overlapped pair in the offload log (docs/async.md, \"Automatic concurrency\"; off by "
                 "default until it has run on a GPU)"),
    _program("OMP2GPU_USM", reader=f"{LIBOMP2GPU}: runtime/offload/cuda_device.c",
             doc="`managed`: a `requires unified_shared_memory` program uses the managed heap and host "
                 "registration on a GPU even where the driver reads pageable host memory itself "
                 "(docs/unified-memory.md)"),
    _program("OMP2GPU_REMOTE_TOKEN", reader=f"{LIBOMP2GPU}: runtime/offload/remote_device.c; runtime/remote/server.c",
             doc="the shared secret of `omp2gpu serve` and of the programs using its devices (`remote://HOST:PORT` "
                 "in `OMP2GPU_DEVICES`; docs/remote.md)"),
    _program("OMP2GPU_REMOTE_PEER", reader=f"{LIBOMP2GPU}: runtime/offload/remote_device.c",
             doc="`0`: `omp_target_memcpy` between two servers' devices goes through the client instead of "
                 "server to server"),
    _program("OMP2GPU_UCX_LIB", reader=f"{LIBOMP2GPU}: runtime/offload/remote_transport.c",
             doc="the UCX `libucp` remote devices use (default: the `libucx-cu12` wheel's, else the system's)"),
    _program("OMP2GPU_SERVE_GRACE", reader="runtime/remote/server.c",
             doc="seconds `omp2gpu serve` keeps a client whose connection dropped before freeing its memory "
                 "(default 10)"),
    _program("OMP2GPU_SERVE_TRACE", reader="runtime/remote/server.c",
             doc="`1`: `omp2gpu serve` prints each kernel's start and end (wall-clock microseconds) on stderr "
                 "(tests/remote)"),
    _program("OMP2GPU_REMOTE_TEST_DROP", "OMP2GPU_REMOTE_TEST_DELAY_US",
             reader=f"{LIBOMP2GPU}: runtime/offload/remote_device.c",
             doc="tests only: drop the connection every N commands; delay each command"),
)

# The compiler's own (omp2gpu run / compile / cc, omp2gpu.load).
COMPILER_VARIABLES = (
    _compiler("OMP2GPU_OPENMP_RUNTIME", kind=Text(), reader="targets/openmp_runtime.py",
              doc="the host's OpenMP runtime: `gomp`, `iomp5` or a path to a shared library"),
    _compiler("OMP2GPU_MPICC", "MPICC", kind=Text(), reader="targets/mpi.py",
              doc="the MPI compiler wrapper whose MPI programs use (`OMP2GPU_MPICC`, else `MPICC`, else this "
                  "environment's `mpicc`, else PATH's)"),
    _compiler("CC", kind=Text(), reader="targets/native_runtime.py",
              doc="the C compiler that builds libomp2gpu and links native programs (default `cc`)"),
    _compiler("OMP2GPU_CACHE_DIR", kind=Text(), reader="disk_cache.py", doc="the cache directory (above)"),
    _compiler("XDG_CACHE_HOME", kind=Text(), reader="disk_cache.py",
              doc="where the cache lives when `OMP2GPU_CACHE_DIR` is unset"),
    _compiler("OMP2GPU_CODE_CACHE", kind=Flag(default=True), reader="disk_cache.py",
              doc="`0`: no compiled code kept between runs (the device code is compiled anew, and `run` "
                  "links its executable anew)"),
    _compiler("OMP2GPU_TIME_STAGES", kind=Flag(), reader="pipeline.py",
              doc="`1`: print how long each compile stage took before `main` starts"),
    _compiler("OMP2GPU_DEBUG", kind=Flag(), reader="tools/command_guard.py",
              doc="`1`: an internal compiler error prints its Python traceback"),
    _compiler("CUDA_HOME", "CUDA_PATH", kind=Text(), reader="targets/nvptx/toolkit.py",
              doc="where to look for the CUDA toolkit (ptxas, libdevice)"),
)

VARIABLES = PROGRAM_VARIABLES + COMPILER_VARIABLES
BY_NAME = {name: variable for variable in VARIABLES for name in variable.names}


# ------------------------------------------------------------------ the settings

class _Field:
    """A field of Settings: its row's typed value in the snapshot; on the class, the row."""

    def __init__(self, name: str):
        self.variable = BY_NAME[name]
        assert self.variable.kind is not None, f"{name} is not read by the compiler"

    def __get__(self, settings, owner):
        return self.variable if settings is None else self.variable.value(settings.environ)


@dataclass(frozen=True, eq=False)
class Settings:
    """The compiler's settings in one environment (`settings()`: the process's now). Each
    field reads its variable when asked, so a bad value of a variable fails only the
    reader of that variable; `Settings.cache_dir` (on the class) is its row of VARIABLES."""
    environ: Mapping[str, str] = field(default_factory=lambda: MappingProxyType(dict(os.environ)))

    devices = _Field("OMP2GPU_DEVICES")                 # str | None
    profile = _Field("OMP2GPU_PROFILE")                 # str | None: the trace file
    cpu_schedule = _Field("OMP2GPU_CPU_SCHEDULE")       # (policy, chunk)
    openmp_runtime = _Field("OMP2GPU_OPENMP_RUNTIME")   # str | None
    mpi_wrappers = _Field("OMP2GPU_MPICC")              # (OMP2GPU_MPICC, MPICC): str | None each
    cc = _Field("CC")                                   # str | None
    cache_dir = _Field("OMP2GPU_CACHE_DIR")             # str | None
    xdg_cache_home = _Field("XDG_CACHE_HOME")           # str | None
    code_cache = _Field("OMP2GPU_CODE_CACHE")           # bool
    time_stages = _Field("OMP2GPU_TIME_STAGES")         # bool
    debug = _Field("OMP2GPU_DEBUG")                     # bool
    cuda_roots = _Field("CUDA_HOME")                    # (CUDA_HOME, CUDA_PATH): str | None each


def settings(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings of `environ`, else of the process's environment as it is now."""
    return Settings() if environ is None else Settings(MappingProxyType(dict(environ)))


def check_compiler_settings(environ: Mapping[str, str] | None = None) -> None:
    """When a command starts (`omp2gpu ...`, omp2gpu-cc, `omp2gpu.load`): every setting only
    the compiler reads, a SettingError for a bad one, before a reader deep in a compilation
    (which may treat an error as a miss of the cache, or never run) meets it."""
    chosen = settings(environ)
    for name, value in vars(Settings).items():
        if isinstance(value, _Field) and not value.variable.program:
            getattr(chosen, name)


def check_for_programs(environ: Mapping[str, str] | None = None) -> None:
    """Before a program starts (`omp2gpu run`, `omp2gpu.load`): the variables its runtime
    reads that the compiler checks for it, a SettingError for a bad one (libomp2gpu would
    only warn, once the program runs)."""
    settings(environ).cpu_schedule      # noqa: B018 -- read to check it


def child_environment(*, prepend_paths: Mapping[str, str] | None = None, **values: str) -> dict[str, str]:
    """The environment of a child process: this process's, with `values` set and each
    `prepend_paths` entry put first on that search-path variable (PYTHONPATH...)."""
    environment = dict(os.environ)
    for name, entry in (prepend_paths or {}).items():
        environment[name] = os.pathsep.join(filter(None, [entry, environment.get(name)]))
    environment.update(values)
    return environment


# ------------------------------------------------------------------ README.md's table

def markdown_table() -> str:
    """README.md's "Environment variables" table."""
    lines = ["| variable | read by | what it does |", "|---|---|---|"]
    for variable in VARIABLES:
        names = ", ".join(f"`{name}`" for name in variable.names)
        lines.append(f"| {names} | {variable.read_by} | {variable.doc} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
