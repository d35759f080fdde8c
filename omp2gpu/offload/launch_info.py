"""LIBOMPTARGET_INFO: the launch information LLVM's libomptarget prints, under its name.

The value is libomptarget's bit mask (decimal as there, or 0x hex; -1 turns every bit
on). omp2gpu honours two bits, printing to stderr after what the program printed:

    0x10  (libomptarget's OMP_INFOTYPE_PLUGIN_KERNEL)  each kernel launch: the kernel,
          the device, blocks (teams) and threads, and the CPU device's scheme
    0x20  (OMP_INFOTYPE_DATA_TRANSFER)  each copy between the host and a device: the
          direction, host and device addresses, and bytes

The others (0x01 kernel arguments, 0x02 and 0x08 mapping-table lookups and changes,
0x04 the table's dump, 0x40 empty mappings) are accepted and ignored; README says so.

The mask is process-wide (`current`), set by the launcher's LaunchRecord, because the
devices' copies report through it (devices/base.observed_copy).
"""

from __future__ import annotations

import threading
from contextlib import contextmanager

from omp2gpu.offload.messages import report

ENVIRONMENT = "LIBOMPTARGET_INFO"
PLUGIN_KERNEL = 0x10
DATA_TRANSFER = 0x20
HONOURED = PLUGIN_KERNEL | DATA_TRANSFER

_mask = 0
_own_copies = threading.local()       # the runtime's own copies (a module's device number)


def parse_mask(text: str | None) -> int:
    """The bit mask from the variable's text; 0 (with a warning) when it is not a number."""
    text = (text or "").strip()
    if not text:
        return 0
    try:
        value = int(text, 0)
    except ValueError:
        report("warning", f"{ENVIRONMENT}={text} is not a number (a bit mask such as 0x30); ignored")
        return 0
    return value & 0xFFFFFFFF


def configure(environ) -> int:
    """Read LIBOMPTARGET_INFO from `environ` into the process's mask; returns it."""
    global _mask
    _mask = parse_mask(environ.get(ENVIRONMENT))
    return _mask


def current() -> int:
    return _mask


def wanted(bit: int) -> bool:
    return bool(_mask & bit)


def copy_is_the_runtimes_own() -> bool:
    """Inside runtime_copies(): a copy neither printed (0x20) nor traced."""
    return bool(getattr(_own_copies, "depth", 0))


@contextmanager
def runtime_copies():
    """Copies the runtime makes for itself, not for a map (libomptarget does not print
    its device environment's copy either): no 0x20 line and no profile span for them."""
    _own_copies.depth = getattr(_own_copies, "depth", 0) + 1
    try:
        yield
    finally:
        _own_copies.depth -= 1


def kernel_launch(device_label: str, kernel: str, grid: int, block: int, scheme: str | None) -> None:
    """Bit 0x10's line for one launch."""
    how = f" ({scheme})" if scheme else ""
    say(device_label, f"launching kernel {kernel} with {grid} blocks and {block} threads{how}")


def data_transfer(device_label: str, direction: str, host_address: int, device_address: int,
                  nbytes: int) -> None:
    """Bit 0x20's line for one copy; direction: 'to-device' or 'to-host'."""
    where = "from host to device" if direction == "to-device" else "from device to host"
    say(device_label, f"copying data {where}, HstPtr={host_address:#018x}, "
                      f"TgtPtr={device_address:#018x}, Size={nbytes}")


def say(device_label: str, text: str) -> None:
    report(f"{device_label} info", text)
