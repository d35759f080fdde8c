"""lib.kernels: the GPU kernels of a loaded file's target regions, one per region that
the GPU runs, as Python objects (omp2gpu.tools.gpu_kernels.Kernel, what `omp2gpu report`
prints), by position, PTX name or source location.

    lib = omp2gpu.load("saxpy.c")
    k = lib.kernels["saxpy.c:12"]          # or lib.kernels[0], lib.kernels[k.name]
    k.scheme, k.reason, k.registers, k.occupancy.occupancy, k.limiter, k.best.block_size
    print(k.llvm_ir)

They are the library's own GPU build (its scheme, its kernel names), for the GPU here
or --offload-arch. Nothing is measured until asked: load() runs no ptxas.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import PurePath

from omp2gpu.tools.gpu_kernels import DeviceModule, Kernel, kernels_of
from omp2gpu.tools.report_render import kernel_summary, kernel_tables


class Kernels(Sequence):
    """A library's kernels in source order. `remarks` says where each target region runs
    (a region the GPU does not run, and why)."""

    def __init__(self, kernels: list[Kernel], remarks: list[str]):
        self._kernels = kernels
        self.remarks = remarks

    @classmethod
    def of(cls, loaded, options) -> Kernels:
        """The kernels of a driver.LoadedLibrary compiled with `options`."""
        if loaded.gpu is None or not loaded.gpu_kernels:
            return cls([], loaded.gpu_remarks)
        return cls(kernels_of(loaded.gpu_kernels, DeviceModule(loaded.gpu, options)), loaded.gpu_remarks)

    def __len__(self) -> int:
        return len(self._kernels)

    def __getitem__(self, key):
        """By position, by PTX name, or by where its construct is: "file:line" or
        "file:line:column", the file as a path or its last parts ("saxpy.c:12")."""
        if not isinstance(key, str):
            return self._kernels[key]
        found = [k for k in self._kernels if k.name == key] or [k for k in self._kernels if _at(k.location, key)]
        if len(found) == 1:
            return found[0]
        if found:
            raise KeyError(f"{key} names {len(found)} kernels ({', '.join(k.location for k in found)}): "
                           "give the column too")
        listed = ", ".join(f"{k.name} at {k.location}" for k in self._kernels) or "none"
        raise KeyError(f"no kernel {key!r} (the kernels: {listed})")

    def __contains__(self, key) -> bool:
        if not isinstance(key, str):
            return key in self._kernels
        try:
            self[key]
        except KeyError:
            return False
        return True

    def keys(self) -> list[str]:
        """The kernels' PTX names."""
        return [k.name for k in self._kernels]

    def __repr__(self) -> str:
        lines = [f"<omp2gpu.Kernels: {len(self)} kernel{'' if len(self) == 1 else 's'}>"]
        lines += [f"  {kernel_summary(k)}" for k in self._kernels]
        return "\n".join(lines + [f"  {remark}" for remark in self.remarks if " runs on the host" in remark])

    def __str__(self) -> str:
        """Each kernel's table, as `omp2gpu report` prints it."""
        return kernel_tables(self._kernels) or "no kernels\n"

    def _repr_markdown_(self) -> str:
        return kernel_tables(self._kernels, "markdown") or "no kernels\n"


_PLACE = re.compile(r"(.+?):(\d+)(?::(\d+))?")      # file:line[:column]


def _at(location: str, key: str) -> bool:
    """Whether `key` ("saxpy.c:12", "saxpy.c:12:9", "/path/saxpy.c:12") names the
    construct at `location` (file:line:column)."""
    here, wanted = _PLACE.fullmatch(location), _PLACE.fullmatch(key)
    if here is None or wanted is None or wanted[2] != here[2] or wanted[3] not in (None, here[3]):
        return False
    named = PurePath(wanted[1]).parts
    return PurePath(here[1]).parts[-len(named):] == named
