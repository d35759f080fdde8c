"""What the launcher tells about its launches, when asked through the environment:

    OMP2GPU_OFFLOAD_LOG=FILE   one line per kernel launch: kernel, device, grid, block
                               (the GPU tests check from it that kernels really ran there)
    OMP2GPU_COPY_LOG=FILE      one line per copy a map clause makes between the host and a
                               device: direction, bytes, device (the Python API's tests check
                               from it that CuPy arguments are not copied)
    OMP2GPU_PROFILE=FILE       JSON at exit: per kernel its resources and every launch's
                               configuration and time, from CUDA events (benchmarks use it)
    OMP2GPU_LAUNCH=T,L         every kernel but serial ones runs with T teams of L threads,
                               over its clauses (0: as usual); read by runtime.launch_override
"""

from __future__ import annotations

import atexit
import json
import os


class LaunchRecord:
    def __init__(self, environ=None):
        environ = os.environ if environ is None else environ
        self.log_path = environ.get("OMP2GPU_OFFLOAD_LOG")
        self.copy_log_path = environ.get("OMP2GPU_COPY_LOG")
        self.profile_path = environ.get("OMP2GPU_PROFILE")
        self.kernels: dict[str, dict] = {}
        self.device_name = None
        if self.profile_path:
            atexit.register(self.write_profile)

    @property
    def timing(self) -> bool:
        return bool(self.profile_path)

    def launched(self, device, function, kernel: str, grid: int, block: int, micros: float | None) -> None:
        if self.log_path:
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(f"{kernel} device={device.name!r} grid={grid} block={block}\n")
        if self.profile_path:
            self.device_name = device.name
            entry = self.kernels.get(kernel)
            if entry is None:
                entry = self.kernels[kernel] = dict(device.function_attributes(function), launches=[])
            entry["launches"].append({"grid": grid, "block": block, "us": micros})

    def copy_observer(self, device):
        """What a data environment calls for each copy to or from `device` (the copy log)."""
        def copied(direction: str, nbytes: int) -> None:
            with open(self.copy_log_path, "a", encoding="utf-8") as log:
                log.write(f"{direction} bytes={nbytes} device={device.name!r}\n")
        return copied

    def write_profile(self) -> None:
        with open(self.profile_path, "w", encoding="utf-8") as out:
            json.dump({"device": self.device_name, "kernels": self.kernels}, out, indent=1)
