"""Run-time checks of a construct's map entries before any byte is copied, so that a
bad section ends in a message naming the construct instead of a SIGSEGV:

- a negative byte count (a section length computed negative at run time);
- a section that runs off the host memory the process has mapped (a section far
  past its allocation: copying it would fault). The host's mappings are read from
  /proc/self/maps; they are cached and read again only when a range is not inside
  the cached ones, so the common case costs no system call.

A section past its allocation but inside other mapped memory cannot be told from a
good one here (the allocation's size is not known for every pointer); that is left
to the program, as libomptarget leaves it.
"""

from __future__ import annotations

import bisect
from contextlib import contextmanager

from omp2gpu.offload.abi import MapType
from omp2gpu.offload.data_environment import MappingError

# Entries whose begin/size are not host memory the launcher reads or writes.
_NOT_HOST_MEMORY = MapType.LITERAL | MapType.IS_DEVICE_PTR | MapType.ATTACH | MapType.RETURN_PARAM


class HostMemory:
    """The process's mapped address ranges, merged where they touch."""

    def __init__(self, maps_path: str = "/proc/self/maps"):
        self._path = maps_path
        self._starts: list[int] = []
        self._ends: list[int] = []

    def _read(self) -> None:
        ranges = []
        try:
            with open(self._path, encoding="ascii", errors="replace") as maps:
                for line in maps:
                    span = line.split(" ", 1)[0]
                    low, _, high = span.partition("-")
                    ranges.append((int(low, 16), int(high, 16)))
        except (OSError, ValueError):
            ranges = [(0, 1 << 64)]          # not knowable here: check nothing
        starts, ends = [], []
        for low, high in sorted(ranges):
            if ends and low <= ends[-1]:
                ends[-1] = max(ends[-1], high)
            else:
                starts.append(low)
                ends.append(high)
        self._starts, self._ends = starts, ends

    def _inside_cached(self, begin: int, end: int) -> bool:
        index = bisect.bisect_right(self._starts, begin) - 1
        return index >= 0 and end <= self._ends[index]

    def contains(self, begin: int, size: int) -> bool:
        if size <= 0 or self._inside_cached(begin, begin + size):
            return True
        self._read()
        return self._inside_cached(begin, begin + size)


_HOST_MEMORY = HostMemory()


def check_entries(entries, where: str, host_memory: HostMemory = _HOST_MEMORY) -> None:
    """Raise MappingError, naming `where` (the construct), at the first bad entry."""
    place = f"{where}: " if where else ""
    for index, entry in enumerate(entries):
        if entry.type & (MapType.MAPPER | MapType.NON_CONTIG):
            what = "a declare mapper over an array of structs" if entry.type & MapType.MAPPER \
                else "a strided or discontiguous target update"
            raise MappingError(f"{place}{what} needs the native runtime (OMP2GPU_NATIVE=1, --native)")
        if entry.type & MapType.PRESENT:        # built only in libomp2gpu (this launcher is going away)
            raise MappingError(f"{place}the 'present' map-type modifier (OpenMP 5.1) needs the native "
                               "runtime: run with --native or OMP2GPU_NATIVE=1")
        if entry.type & _NOT_HOST_MEMORY:
            continue
        if entry.size < 0:
            raise MappingError(f"{place}map entry {index + 1} has a negative length "
                               f"({entry.size} bytes): an array section's length is negative")
        if entry.size and not host_memory.contains(entry.begin, entry.size):
            raise MappingError(f"{place}map entry {index + 1} (host address {entry.begin:#x}, "
                               f"{entry.size} bytes) runs past the host memory of the program: "
                               "an array section goes past its allocation")


@contextmanager
def naming_construct(where: str):
    """A MappingError of the present table (a section sticking out of a mapped one) names
    the construct, "file:line:col", as check_entries' do."""
    try:
        yield
    except MappingError as error:
        if not where:
            raise
        raise MappingError(f"{where}: {error}") from None
