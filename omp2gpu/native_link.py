"""Native programs (docs/native-executables.md): the inputs compiled and linked by the
system's C compiler into an ELF executable or shared library that runs with no Python.

    host code      the linked program's host module (the omp2gpu host runtime in it),
                   optimised, as one object; an executable keeps only `main` external,
                   as `run` does
    device image   native_image.py: the CPU device's work-group code, the GPU's PTX as
                   data, the kernel table, registered before main
    runtime        libomp2gpu.a (targets/native_runtime.py), linked in whole, so the
                   program needs no file of omp2gpu's at run time
    libraries      the host's OpenMP runtime (libgomp as `gcc -fopenmp` links it, else
                   the one `run` loads), -l libraries, MPI's where the program calls MPI

`omp2gpu run` builds the same executable into the disk cache (keyed by the
compiled program, so an unchanged program is linked once) and runs it as a child.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu import driver, native_image, remote_image, trace_events
from omp2gpu.diagnostics import CompileError
from omp2gpu.disk_cache import cache_dir, code_cache_enabled, compiler_key
from omp2gpu.pipeline import CompileOptions, dump, stage
from omp2gpu.runtime_files import runtime_root
from omp2gpu.targets import (
    host,
    mpi,
    mpi_device_buffers,
    native_runtime,
    openmp_runtime,
    python_call_wrappers,
    shared_libraries,
)
from omp2gpu.targets.native_runtime import SYSTEM_LIBRARIES, WAIT_WRAPPER_FLAGS


def library_flags(options: CompileOptions, host_module: llvm.ModuleRef) -> list[str]:
    """-L/-l as given (the omp2gpu archives among them are inputs already), and MPI's
    libraries where the program calls MPI, after the staging of device buffers for an MPI
    that cannot read them where it calls the functions that take buffers (its calls of them
    renamed to the wrappers in `host_module`: targets/mpi_device_buffers.py)."""
    flags = [f"-L{directory}" for directory in options.library_dirs]
    archives = set(shared_libraries.archives(options.libraries, options.library_dirs))
    for name in options.libraries:
        if shared_libraries.in_directories(name, options.library_dirs) not in archives:
            flags.append(f"-l{name}")
    calls_mpi = any(value.is_declaration and value.name.startswith(mpi.SYMBOL_PREFIXES)
                    for value in (*host_module.functions, *host_module.global_variables))
    if calls_mpi:
        found = mpi.find()
        if found is None:
            raise CompileError("the program calls MPI, and no MPI library was found", hint=mpi.missing_message())
        flags += mpi_device_buffers.wrap_calls(host_module, found)
        flags += [f"-L{directory}" for directory in found.library_dirs]
        flags += [f"-Wl,-rpath,{directory}" for directory in found.library_dirs]
        flags += [f"-l{name}" for name in found.libraries]
    return flags


def _linked_program(paths: list, options: CompileOptions, needs_main: str | None):
    """The inputs linked (driver.load_program); `needs_main`: the hint when main is missing."""
    program = driver.load_program(paths, options)
    if needs_main and host.find_main(program.host) is None:
        where = program.name if len(paths) == 1 else "the linked program"
        raise CompileError(f"{where}: undefined reference to 'main'", hint=needs_main)
    return program


def _objects(program, paths: list, options: CompileOptions,
             image_objects: list | None = None) -> tuple[bytes, bytes | None, list[str]]:
    """(host object, device image object or None, library flags) of a linked program, its
    host module internalised as the caller wants it; --dump's opt-ir, device-ir, ptx, cpu-ir
    and cpu-opt-ir, and OMP2GPU_TIME_STAGES' steps, as `run` has them. `image_objects`: a
    list to which the image's large static objects (the CPU device's copies) are added."""
    module = program.host
    source = str(paths[0])
    flags = library_flags(options, module)
    with stage("optimise"):
        host.optimise(module, options.opt_level, options.march)
    dump(options, "opt-ir", source, lambda: str(module))
    with stage("machine_code"):
        host_object = host.object_code(module, options.opt_level, options.code_rules.fast_math, options.march)
    with stage("device_image"):
        image = native_image.image_module(program.device, program.cpu, options,
                                          lambda name, render: dump(options, name, source, render))
        image_object = None if image is None else host.object_code(
            image, native_image.image_opt_level(options), options.code_rules.fast_math, options.march)
    if image is not None and image_objects is not None:
        image_objects += native_image.large_globals(image)
    return host_object, image_object, flags


def compile_objects(paths: list, options: CompileOptions, shared: bool) -> tuple[bytes, bytes | None, list[str]]:
    """(host object, device image object or None, library flags) of the linked inputs."""
    program = _linked_program(paths, options, None if shared else
                              "an executable needs a main function (-shared makes a library)")
    if not shared:
        host.internalise(program.host, keep=("main",))
    return _objects(program, paths, options)


def link(paths: list, options: CompileOptions, output: str, shared: bool = False, extra_flags=()) -> None:
    """`omp2gpu compile a.c b.o [-shared] -o OUT`: the native executable (or shared
    library) OUT; `extra_flags` (objects of other compilers, -Wl,...) go to cc's link after
    the library flags."""
    host_object, image_object, flags = compile_objects(paths, options, shared)
    link_objects(host_object, image_object, [*flags, *extra_flags], output, shared)


def link_command(objects: list[str], flags: list[str], output: str, shared: bool,
                 runtime_library: list[str] | None = None) -> list[str]:
    """cc's link of `objects` with libomp2gpu (`runtime_library`: how; default its archive,
    whole), the flags, the host's OpenMP runtime and the C library's parts."""
    if runtime_library is None:       # whole: the image's constructor calls into it, a library's users may too
        runtime = native_runtime.build()
        archive = runtime.static_for_shared if shared else runtime.static
        runtime_library = ["-Wl,--whole-archive", str(archive), "-Wl,--no-whole-archive"]
    return [*native_runtime.c_compiler().split(), *(["-shared"] if shared else []), "-o", output, *objects,
            *runtime_library, *WAIT_WRAPPER_FLAGS, *flags, *openmp_runtime.link_flags(), *SYSTEM_LIBRARIES]


def link_objects(host_object: bytes, image_object: bytes | None, flags: list[str], output: str,
                 shared: bool, runtime_library: list[str] | None = None, where=None) -> None:
    """cc's link of the objects with libomp2gpu (`runtime_library`: how; default its archive,
    whole), the flags, the host's OpenMP runtime and the C library's parts; `where(name)`:
    the input using an undefined symbol."""
    with tempfile.TemporaryDirectory(prefix="omp2gpu-link-") as scratch:
        objects = [Path(scratch) / "host.o"]
        objects[0].write_bytes(host_object)
        if image_object is not None:
            objects.append(Path(scratch) / "image.o")
            objects[1].write_bytes(image_object)
            objects += remote_image.remote_objects(objects[1], Path(scratch))     # for remote devices
        run_link(link_command(list(map(str, objects)), flags, output, shared, runtime_library), output, where)


# Called with each link's command line before it runs (omp2gpu-cc -v prints it).
link_observers: list = []


# ld's words for a symbol nobody defines (GNU ld and gold quote it `so', lld 'so').
UNDEFINED = re.compile(r"undefined (?:reference to|symbol:?) [`']?([^'`\s]+)'?")


def run_link(command: list[str], output: str, where=None) -> None:
    """cc's link; a symbol nobody defines is one error naming it and (`where(name)`, when
    given) the file using it, as a C compiler's driver reports it, not ld's whole output."""
    for observe in link_observers:
        observe(command)
    with stage("cc_link"):
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode == 0:
        return
    text = (done.stderr or done.stdout).strip()
    undefined = list(dict.fromkeys(UNDEFINED.findall(text)))
    if undefined:
        name = undefined[0]
        more = f" (and {', '.join(repr(n) for n in undefined[1:])})" if len(undefined) > 1 else ""
        raise CompileError(f"{where(name) if where else output}: undefined reference to '{name}'{more}")
    raise CompileError(f"linking {output} failed: {text[:3000]}")


def compile_object(path, options: CompileOptions) -> bytes:
    """`omp2gpu compile -c`: an omp2gpu object (object_file.py) whose ELF code also
    holds the file's device image, so that another compiler's link (`gcc main.c x.o
    $(omp2gpu link-flags)`) runs its target regions on the devices, not only on the host."""
    unit = driver.compile_unit(path, options, separate=True)
    image_object = native_image.image_object(unit.gpu, unit.cpu, options)
    host_object = driver.unit_object(unit, path, options)
    if image_object is None:
        return host_object
    with tempfile.TemporaryDirectory(prefix="omp2gpu-object-") as scratch:
        parts = [Path(scratch) / "host.o", Path(scratch) / "image.o", Path(scratch) / "joined.o"]
        parts[0].write_bytes(host_object)
        parts[1].write_bytes(image_object)
        done = subprocess.run(["ld", "-r", "-o", str(parts[2]), str(parts[0]), str(parts[1])],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise CompileError(f"joining the device image to {path}'s object failed: {done.stderr.strip()}")
        return parts[2].read_bytes()


def runtime_link_flags(shared: bool = False) -> list[str]:
    """What another compiler's link needs for omp2gpu objects (`omp2gpu link-flags`); with
    `shared`, for a `-shared` link (`link-flags --shared`): the runtime built for a shared
    library, taken whole, as `omp2gpu compile -shared` links it."""
    runtime = native_runtime.build()
    archive = (["-Wl,--whole-archive", str(runtime.static_for_shared), "-Wl,--no-whole-archive"] if shared
               else [str(runtime.static)])
    return [*archive, *WAIT_WRAPPER_FLAGS, *openmp_runtime.link_flags(), *SYSTEM_LIBRARIES]


def cached_executable(paths: list, options: CompileOptions) -> Path:
    """`omp2gpu run`: the program's executable in the disk cache, linked now unless the
    same compiled program was linked before (the key is the compiled code, so an edited
    header makes a new one) and the code cache is on."""
    program = _linked_program(paths, options, "`omp2gpu run` needs a program with a main function")
    module = program.host
    host.internalise(module, keep=("main",))      # first: what main does not reach is not in the key
    digest = hashlib.sha256()
    for part in (str(module), program.device and program.device.module_text, program.cpu and program.cpu.module_text,
                 repr((options.opt_level, options.offload_arch, options.scheme, options.libraries,
                       options.library_dirs, host.processor(options.march)))):
        digest.update((part or "").encode() + b"\0")
    key = compiler_key([*native_runtime.sources(), runtime_root() / mpi_device_buffers.SOURCE],
                       salt=digest.hexdigest())
    executable = cache_dir() / "native" / key[:32] / Path(str(paths[0])).stem
    device_copies = executable.with_name("device-copies.json")   # the image's large objects
    # a dump shows the stages; OMP2GPU_CODE_CACHE=0 links again, as it compiles again
    if executable.is_file() and device_copies.is_file() and not options.dump and code_cache_enabled():
        check_room(program, json.loads(device_copies.read_text()))
        return executable
    copies: list = []
    host_object, image_object, flags = _objects(program, paths, options, copies)
    # `run` finds the -L folders' shared libraries when the program starts (cc's link does not)
    flags += [f"-Wl,-rpath,{Path(directory).resolve()}" for directory in options.library_dirs]
    executable.parent.mkdir(parents=True, exist_ok=True)
    partial = executable.with_name(f".{executable.name}.{os.getpid()}")
    with stage("link"):
        link_objects(host_object, image_object, flags, str(partial), shared=False,
                     where=lambda name: program.referenced_in.get(name, program.name))
    device_copies.write_text(json.dumps([[copy.name, copy.size] for copy in copies]))
    os.replace(partial, executable)
    check_room(program, [[copy.name, copy.size] for copy in copies])
    return executable


def check_room(program, device_copies: list) -> None:
    """Before `run` execs the program: its large static objects, and then the CPU device's
    copies of them (`device_copies`: [name, bytes]) beside those, fit the address space a new
    process gets (targets/host/static_data.py), else a located error naming the largest;
    the kernel would kill the program at exec naming nothing."""
    host.check_room(program.large_objects)
    where = {item.name: item.coord for item in program.large_objects}
    host.check_room([host.StaticObject(name, size, where.get(name)) for name, size in device_copies],
                    beside=sum(item.size for item in program.large_objects), copy_of="the CPU device's copy of ")


# --- the Python API on libomp2gpu (omp2gpu.load) ------------------------------------------

@cache
def shared_runtime() -> ctypes.CDLL:
    """libomp2gpu.so loaded once into this process, its symbols global, so that every library
    the Python API loads shares one runtime (one device table, one present table per device,
    one worker pool); its errors are kept for the caller to raise, never an exit."""
    runtime = ctypes.CDLL(str(native_runtime.build().shared), mode=ctypes.RTLD_GLOBAL)
    runtime.__omp2gpu_raise_errors(1)
    runtime.__omp2gpu_take_error.restype = ctypes.c_int
    runtime.__omp2gpu_take_error.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    runtime.__omp2gpu_call_why.restype = None
    runtime.__omp2gpu_call_why.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    runtime.__omp2gpu_wait_stream.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
    runtime.__omp2gpu_profile_json.restype = ctypes.c_long
    runtime.__omp2gpu_profile_json.argtypes = [ctypes.c_double, ctypes.c_char_p, ctypes.c_long]
    trace_events.sources.append(runtime_profile)     # the launches and copies in this process's trace
    return runtime


def runtime_profile(origin: float) -> dict | None:
    """The runtime's trace so far (OMP2GPU_PROFILE), its starts from `origin` (CLOCK_MONOTONIC
    microseconds), None when the run is not profiled; the runtime leaves the file to this
    process's trace (trace_events) from then on."""
    size = 1 << 16
    while True:
        buffer = ctypes.create_string_buffer(size)
        length = shared_runtime().__omp2gpu_profile_json(origin, buffer, size)
        if length < 0:
            return None
        if length < size:
            return json.loads(buffer.value.decode("utf-8", "replace"))
        size = length + 4096       # and room for events added meanwhile


def take_error() -> str | None:
    """The runtime's pending error (a bad map, a MANDATORY device that cannot run), if any; it
    is then no longer pending."""
    buffer = ctypes.create_string_buffer(1024)
    if not shared_runtime().__omp2gpu_take_error(buffer, len(buffer)):
        return None
    return buffer.value.decode("utf-8", "replace")


def default_device_name(described: bool) -> str | None:
    """The default device's name (`described`: its label), None where target regions run on
    the host (runtime/offload/entry_points.c's __omp2gpu_default_device_name)."""
    buffer = ctypes.create_string_buffer(300)
    if shared_runtime().__omp2gpu_default_device_name(int(described), buffer, len(buffer)) < 0:
        return None
    return buffer.value.decode("utf-8", "replace")


# --- one call of a loaded function (runtime/offload/python_calls.c through the call's
# wrapper, targets/python_call_wrappers.py) --------------------------------------------------
def call_why() -> str:
    """Why this thread's last begin failed."""
    buffer = ctypes.create_string_buffer(1024)
    shared_runtime().__omp2gpu_call_why(buffer, len(buffer))
    return buffer.value.decode("utf-8", "replace")


def wait_stream(stream: int) -> None:
    """The work queued on a CUDA stream (a handle) done before the runtime's; LookupError
    says why it cannot be."""
    why = ctypes.create_string_buffer(1024)
    if shared_runtime().__omp2gpu_wait_stream(stream, why, len(why)):
        raise LookupError(why.value.decode("utf-8", "replace"))


@dataclass
class NativeLibrary:
    """A C file made callable from Python as a shared library on libomp2gpu: its
    functions' addresses, prototypes and GPU build."""
    handle: ctypes.CDLL
    prototypes: dict
    gpu: object = None
    gpu_kernels: list = field(default_factory=list)
    gpu_remarks: list = field(default_factory=list)
    wrapped: frozenset = frozenset()      # the functions with a Python call's wrapper

    def address(self, name: str) -> int:
        return ctypes.cast(self.handle[name], ctypes.c_void_p).value

    def call_address(self, name: str) -> int | None:
        """The address of the function a Python call of `name` makes
        (targets/python_call_wrappers.py), None where it has none."""
        return self.address(python_call_wrappers.wrapper_name(name)) if name in self.wrapped else None


def load_library(path, options: CompileOptions, kernel_id: str) -> NativeLibrary:
    """One C file as a shared library linked against the process's libomp2gpu.so: its
    external functions the only symbols it exports (so its omp_* are its own, never the
    OpenMP runtime's of the same name), its kernel names carrying `kernel_id` (the runtime
    knows kernels by name for the whole process), loaded with ctypes."""
    runtime = shared_runtime()
    unit = driver.compile_unit(path, options, kernel_id=kernel_id)
    program = driver.link_program([unit])
    module = program.host
    wrapped = python_call_wrappers.add_wrappers(module, unit.prototypes)
    host.internalise(module, keep=(*unit.prototypes, *map(python_call_wrappers.wrapper_name, wrapped)))
    flags = library_flags(options, module)
    host.optimise(module, options.opt_level, options.march)
    host_object = host.object_code(module, options.opt_level, options.code_rules.fast_math, options.march)
    image_object = native_image.image_object(program.device, program.cpu, options)
    folder = Path(tempfile.mkdtemp(prefix="omp2gpu-library-"))
    try:
        library = folder / f"lib{kernel_id}.so"
        shared = native_runtime.build().shared
        link_objects(host_object, image_object, flags, str(library), shared=True,
                     runtime_library=[f"-L{shared.parent}", "-lomp2gpu", f"-Wl,-rpath,{shared.parent}"])
        handle = ctypes.CDLL(str(library))      # its constructor registers its image with `runtime`
    finally:
        shutil.rmtree(folder, ignore_errors=True)     # mapped now: the file is not needed
    del runtime
    return NativeLibrary(handle, unit.prototypes, unit.gpu, unit.gpu_kernels, unit.gpu_remarks, frozenset(wrapped))
