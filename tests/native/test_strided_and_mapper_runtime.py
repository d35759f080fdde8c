"""runtime/offload/strided_copies.c and mappers.c, called through ctypes: the blocks of
rows a discontiguous target update's descriptor gives, and a MAPPER entry expanded into
what its function pushes (after the construct's own entries, whose indexes stay)."""

from __future__ import annotations

import ctypes
from ctypes import POINTER, Structure, c_char_p, c_int, c_int64, c_long, c_size_t, c_void_p

import pytest

from omp2gpu.offload.abi import MapType
from omp2gpu.targets import native_runtime


class CopyBlock(Structure):
    _fields_ = [("offset", c_long), ("width", c_long), ("pitch", c_long), ("height", c_long)]


class EntryList(Structure):
    _fields_ = [("count", c_int), ("capacity", c_int), ("bases", POINTER(c_void_p)), ("begins", POINTER(c_void_p)),
                ("sizes", POINTER(c_int64)), ("types", POINTER(c_int64))]


BLOCK_FUNCTION = ctypes.CFUNCTYPE(c_int, c_void_p, CopyBlock)
PUSH = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_void_p, c_int64, c_int64)
MAPPER = ctypes.CFUNCTYPE(None, c_void_p, PUSH, c_void_p, c_int64, c_int64)


@pytest.fixture(scope="module")
def library():
    lib = ctypes.CDLL(str(native_runtime.build().shared), mode=ctypes.RTLD_GLOBAL)
    lib.for_each_strided_block.argtypes = [POINTER(c_int64), BLOCK_FUNCTION, c_void_p, c_char_p, c_size_t]
    lib.expand_mappers.argtypes = [c_int, POINTER(c_void_p), POINTER(c_void_p), POINTER(c_int64),
                                   POINTER(c_int64), POINTER(EntryList)]
    lib.entry_list_free.argtypes = [POINTER(EntryList)]
    return lib


def blocks(library, descriptor):
    found = []
    callback = BLOCK_FUNCTION(lambda _, block: found.append((block.offset, block.width, block.pitch,
                                                                block.height)) or 0)
    why = ctypes.create_string_buffer(256)
    result = library.for_each_strided_block((c_int64 * len(descriptor))(*descriptor), callback, None, why, 256)
    return result, found, why.value.decode()


def test_a_strided_section_is_one_block_of_rows(library):
    # a[0:32:2] of doubles: 32 rows of 8 bytes, 16 apart
    assert blocks(library, [1, 8, 32, 16]) == (0, [(0, 8, 16, 32)], "")


def test_contiguous_inner_dimensions_merge_into_the_width(library):
    # t[0:2][1:3] of double t[4][5]: rows of 3 doubles, a row of t apart
    assert blocks(library, [2, 8, 2, 40, 3, 8]) == (0, [(0, 24, 40, 2)], "")
    # a whole 2-D block is one row
    assert blocks(library, [2, 8, 4, 40, 5, 8]) == (0, [(0, 160, 160, 1)], "")


def test_outer_dimensions_are_counted_through(library):
    # b[0:2][0:3][0:2:2] of double b[2][3][4]: per (i, j) one block of 2 rows 16 bytes apart
    result, found, _ = blocks(library, [3, 8, 2, 96, 3, 32, 2, 16])
    assert result == 0
    assert found == [(i * 96 + j * 32, 8, 16, 2) for i in range(2) for j in range(3)]


def test_a_stride_that_is_not_positive_is_refused(library):
    result, found, why = blocks(library, [1, 8, 4, -16])
    assert result == -2 and not found and "stride of -16 bytes" in why
    assert blocks(library, [1, 8, 0, 16])[:2] == (0, [])          # an empty section copies nothing


def test_a_mapper_entry_expands_after_the_constructs_own(library):
    pushed_for = []

    def mapper(handle, push, first, count, type_):
        pushed_for.append((first, count, type_))
        for element in range(count):
            push(handle, first + 16 * element, first + 16 * element + 8, 8, int(MapType.TO))

    function = MAPPER(mapper)
    function_address = ctypes.cast(function, c_void_p).value
    bases = (c_void_p * 2)(0x1000, 0x2000)
    begins = (c_void_p * 2)(0x1000, function_address)
    sizes = (c_int64 * 2)(64, 3)
    types = (c_int64 * 2)(int(MapType.TO | MapType.TARGET_PARAM),
                          int(MapType.TO | MapType.MAPPER | MapType.TARGET_PARAM))
    out = EntryList()
    assert library.expand_mappers(2, bases, begins, sizes, types, ctypes.byref(out)) == 1
    try:
        assert pushed_for == [(0x2000, 3, int(MapType.TO))]               # TARGET_PARAM and MAPPER taken off
        assert out.count == 5
        assert [out.bases[i] for i in range(5)] == [0x1000, 0x2000, 0x2000, 0x2010, 0x2020]
        assert out.sizes[1] == 0 and out.types[1] & MapType.MAPPER           # the MAPPER entry maps nothing
        assert [out.begins[i] for i in range(2, 5)] == [0x2008, 0x2018, 0x2028]
    finally:
        library.entry_list_free(ctypes.byref(out))
    assert library.expand_mappers(1, bases, begins, sizes, types, ctypes.byref(EntryList())) == 0
