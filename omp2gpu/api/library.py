"""omp2gpu.load: a C file compiled with its target regions, its external functions
called from Python.

    lib = omp2gpu.load("saxpy.c", flags=("-O3",))
    lib.saxpy(n, 2.0, x, y)          # NumPy arrays, CuPy arrays, ... (api/parameters.py)
    lib.kernels                      # its GPU kernels: scheme, registers, ... (api/kernels.py)

Target regions run where `omp2gpu run` runs them: the GPU when there is one, else the
CPU device, else the host (OMP_TARGET_OFFLOAD, OMP_DEFAULT_DEVICE, OMP2GPU_DEVICES say
otherwise, read when the first library loads).
"""

from __future__ import annotations

import itertools
import os
import tempfile
from functools import cached_property
from pathlib import Path

from omp2gpu import config, native_link
from omp2gpu.api.c_function import CFunction
from omp2gpu.api.kernels import Kernels
from omp2gpu.deep_stack import call_with_deep_stack
from omp2gpu.diagnostics import CompileError
from omp2gpu.tools.cc_args import CXX_SUFFIXES
from omp2gpu.tools.cli_flags import options_from_flags

# Each load's kernels get names of their own: the launcher knows kernels by name, for
# the whole process, and a file loaded again (edited in a notebook) has new code.
_load_numbers = itertools.count(1)


class Library:
    """The external functions of a loaded C file, as attributes (`lib.saxpy`) and by name
    (`lib["saxpy"]`). A function Python cannot call (a struct parameter, `...`) raises
    TypeError, saying why, when it is looked up. `lib.kernels`: its target regions' GPU
    kernels (a C function named `kernels` is then `lib["kernels"]`)."""

    def __init__(self, path: str, functions: dict[str, CFunction], refused: dict[str, str], loaded,
                 options):
        self.path = path
        self.functions = functions
        self._refused = refused
        self._loaded = loaded          # native_link.NativeLibrary: its code lives as long as the library
        self._options = options

    @cached_property
    def kernels(self) -> Kernels:
        """The GPU kernels of the file's target regions (api/kernels.py), measured when asked."""
        return Kernels.of(self._loaded, self._options)

    def __getitem__(self, name: str) -> CFunction:
        if name in self.functions:
            return self.functions[name]
        if name in self._refused:
            raise TypeError(self._refused[name])
        raise KeyError(f"{self.path} defines no external function '{name}'")

    def __getattr__(self, name: str) -> CFunction:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as missing:
            raise AttributeError(missing.args[0]) from None

    def __dir__(self):
        return [*super().__dir__(), *self.functions]

    def __repr__(self) -> str:
        return f"<omp2gpu.Library {self.path!r}: {', '.join(self.functions) or 'no functions'}>"


SOURCE_NAME = "<source>"       # how messages name load(source=...)'s text


def load(path: str | os.PathLike | None = None, *, source: str | None = None, flags=()) -> Library:
    """Compile the C file at `path` (or the C text `source`) with compiler `flags` as the
    command line spells them ("-O3", "-DN=4", "-I", "include"), for the devices here.
    A compile error is a CompileError whose message is file:line:col, the line and a caret.
    The file becomes a shared library on the C offload runtime, libomp2gpu
    (docs/native-executables.md), whose offload errors are OffloadError exceptions; device
    arrays (CuPy, Numba) are lent to its present table for each call."""
    if (path is None) == (source is None):
        raise TypeError("load() takes a path or source=..., one of them")
    if path is not None and str(path).endswith(CXX_SUFFIXES):
        raise CompileError(f"{path} is C++; omp2gpu compiles C")
    options = options_from_flags(flags)
    config.check_compiler_settings()
    config.check_for_programs()          # the runtime the library runs on reads them
    kernel_id = f"py{next(_load_numbers)}"
    if source is None:
        return _load(str(path), options, kernel_id)
    with tempfile.TemporaryDirectory(prefix="omp2gpu-") as directory:
        file = Path(directory) / "source.c"
        file.write_text(source, encoding="utf-8")
        return _load(str(file), options, kernel_id, shown_as=SOURCE_NAME)


def _load(path: str, options, kernel_id: str, shown_as: str | None = None) -> Library:
    """`shown_as`: the name messages give the file (source=...'s temporary file is "<source>")."""
    try:
        loaded = call_with_deep_stack(native_link.load_library, path, options, kernel_id)
    except CompileError as error:
        text = error.format()                   # what the command line prints, in the traceback
        error.args = (text.replace(path, shown_as) if shown_as else text,)
        raise
    functions, refused = {}, {}
    for name, prototype in loaded.prototypes.items():
        try:
            functions[name] = CFunction(prototype, loaded.call_address(name), native_link)
        except TypeError as why:
            refused[name] = str(why)
    return Library(shown_as or path, functions, refused, loaded, options)


def target_device(described: bool = False) -> str:
    """Where target regions run now: the default device's name ("NVIDIA H100 80GB HBM3",
    "cpu" for the CPU device), or "host". `described`: as the profile and LIBOMPTARGET_INFO
    name it ("GPU 0 (NVIDIA H100 80GB HBM3)", "CPU device (16 workers)"; "host"). The
    offload runtime's answer (native_link.default_device_name)."""
    return native_link.default_device_name(described) or "host"
