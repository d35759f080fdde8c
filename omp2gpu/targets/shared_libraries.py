"""Libraries a program is linked with (`-l NAME`, `-L DIR`): found as ld finds them, so that
the static archives among them, omp2gpu's own of `compile -c` objects (object_file.py),
are linked as inputs; the rest go to the system's linker as given."""

from __future__ import annotations

import os
from collections.abc import Iterable


def in_directories(name: str, directories: Iterable[str]) -> str | None:
    """`-l NAME` as ld finds it in the -L directories: in each directory in order,
    lib<NAME>.so, else lib<NAME>.a (an archive: omp2gpu's own, of `compile -c` objects)."""
    for directory in directories:
        for suffix in (".so", ".a"):
            if os.path.isfile(path := os.path.join(directory, f"lib{name}{suffix}")):
                return path
    return None


def archives(names: Iterable[str], directories: Iterable[str] = ()) -> tuple[str, ...]:
    """The static archives among the `-l` libraries: linked as inputs, not as `-l`."""
    found = (in_directories(name, directories) for name in names)
    return tuple(path for path in found if path and path.endswith(".a"))
