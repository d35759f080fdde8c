"""Section sizes of a cubin (an ELF file): the constant banks per kernel,
which ptxas -v stopped printing (as cmem[N]) in CUDA 13."""

from __future__ import annotations

import re
import struct

_CONSTANT_SECTION = re.compile(r"\.nv\.constant(\d+)\.(.+)")


def section_sizes(cubin: bytes) -> dict[str, int]:
    """Section name -> size in bytes, for a 64-bit little-endian ELF."""
    if cubin[:4] != b"\x7fELF" or cubin[4] != 2 or cubin[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file")
    # ELF64 header: e_shoff at 0x28; e_shentsize, e_shnum, e_shstrndx at 0x3A.
    (section_offset,) = struct.unpack_from("<Q", cubin, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", cubin, 0x3A)

    def header(index: int) -> tuple[int, int, int]:
        """(name offset, file offset, size) of section `index`."""
        base = section_offset + index * entry_size
        name, = struct.unpack_from("<I", cubin, base)
        offset, size = struct.unpack_from("<QQ", cubin, base + 0x18)
        return name, offset, size

    _, names_offset, _ = header(names_index)
    sizes = {}
    for index in range(1, count):
        name_offset, _, size = header(index)
        end = cubin.index(b"\0", names_offset + name_offset)
        sizes[cubin[names_offset + name_offset:end].decode("ascii", "replace")] = size
    return sizes


def kernel_constant_banks(cubin: bytes) -> dict[str, dict[int, int]]:
    """Kernel -> {constant bank: bytes}, from the `.nv.constantN.<kernel>`
    sections (bank 0 holds the parameters and the driver's reserved words)."""
    banks: dict[str, dict[int, int]] = {}
    for name, size in section_sizes(cubin).items():
        match = _CONSTANT_SECTION.fullmatch(name)
        if match:
            banks.setdefault(match[2], {})[int(match[1])] = size
    return banks
