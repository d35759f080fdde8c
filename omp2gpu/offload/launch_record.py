"""What the launcher tells about its launches, when asked through the environment:

    OMP2GPU_OFFLOAD_LOG=FILE   one line per kernel launch: kernel, device, grid, block
                               (the GPU tests check from it that kernels really ran there)
    OMP2GPU_COPY_LOG=FILE      one line per copy a map clause makes between the host and a
                               device: direction, bytes, device (the Python API's tests check
                               from it that CuPy arguments are not copied)
    OMP2GPU_PROFILE=FILE       the run as a Chrome / Perfetto trace (trace_events.py): each
                               launch timed (CUDA events on a GPU) on its device's track,
                               copies, compile stages; its "otherData" keeps, per kernel,
                               the resources and every launch's configuration and time
                               (what the benchmarks read)
    LIBOMPTARGET_INFO=MASK     libomptarget's launch information on stderr (launch_info.py)
    OMP2GPU_LAUNCH=T,L         every kernel but serial ones runs with T teams of L threads,
                               over its clauses (0: as usual); read by runtime.launch_override
"""

from __future__ import annotations

import os

from omp2gpu import trace_events
from omp2gpu.offload import launch_info


class LaunchRecord:
    def __init__(self, environ=None):
        environ = os.environ if environ is None else environ
        self.log_path = environ.get("OMP2GPU_OFFLOAD_LOG")
        self.copy_log_path = environ.get("OMP2GPU_COPY_LOG")
        self.profile_path = environ.get(trace_events.ENVIRONMENT)
        self.info = launch_info.configure(environ)
        self.kernels: dict[str, dict] = {}
        self.device_name = None
        self.trace = trace_events.start(self.profile_path) if self.profile_path else None
        if self.trace is not None:
            self.trace.add_summary(self.summary)

    @property
    def timing(self) -> bool:
        return self.trace is not None

    @property
    def observes_each_launch(self) -> bool:
        """Whether every launch must come through here (the CPU device's native path skips it)."""
        return self.timing or bool(self.info & launch_info.HONOURED)

    def launched(self, device, function, kernel: str, grid: int, block: int, micros: float | None) -> None:
        if self.log_path:
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(f"{kernel} device={device.name!r} grid={grid} block={block}\n")
        if self.info & launch_info.PLUGIN_KERNEL:
            launch_info.kernel_launch(device.label, kernel, grid, block, getattr(function, "scheme", None))
        if self.trace is not None:
            self.device_name = device.name
            entry = self.kernels.get(kernel)
            if entry is None:
                entry = self.kernels[kernel] = dict(device.function_attributes(function), launches=[])
            entry["launches"].append({"grid": grid, "block": block, "us": micros})
            if micros is not None:          # just ended: it began `micros` ago
                self.trace.complete(kernel, "kernel", self.trace.now() - micros, micros, process=device.label,
                                    track=device.track(), args={"grid": grid, "block": block})

    def copy_observer(self, device):
        """What a data environment calls for each copy to or from `device` (the copy log)."""
        def copied(direction: str, nbytes: int) -> None:
            with open(self.copy_log_path, "a", encoding="utf-8") as log:
                log.write(f"{direction} bytes={nbytes} device={device.name!r}\n")
        return copied

    def summary(self) -> dict:
        """The profile's "otherData": the device, and per kernel its resources and launches."""
        return {"device": self.device_name, "kernels": self.kernels}

    def write_profile(self) -> None:
        if self.trace is not None:
            self.trace.write()
