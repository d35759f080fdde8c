"""Array elements read from buffer formats, typestrs and DLPack dtypes, and matched
against a pointer parameter's pointee."""

from __future__ import annotations

import pytest

from omp2gpu.api.element_types import Element, accepted, from_dlpack, from_format, from_typestr, mismatch
from omp2gpu.sema import ctypes as ct


@pytest.mark.parametrize("format_, itemsize, element", [
    ("d", 8, Element("float", 8)), ("<f", 4, Element("float", 4)), ("@l", 8, Element("int", 8)),
    ("Q", 8, Element("uint", 8)), ("?", 1, Element("bool", 1)), ("c", 1, Element("char", 1)),
    ("Zd", 16, Element("complex", 16)), ("T{<i:a:4x<d:b:}", 16, Element("record", 16)),
    (">i", 4, Element("big-endian", 4)),
])
def test_buffer_formats(format_, itemsize, element):
    assert from_format(format_, itemsize) == element


def test_typestrs_and_dlpack_dtypes():
    assert from_typestr("<f8") == Element("float", 8)
    assert from_typestr("|u1") == Element("uint", 1)
    assert from_typestr("|b1") == Element("bool", 1)
    assert from_typestr(">i4") == Element("big-endian", 4)
    assert from_dlpack(2, 32, 1) == Element("float", 4)
    assert from_dlpack(0, 64, 1) == Element("int", 8)
    assert from_dlpack(2, 32, 4).kind == "other"          # vector lanes


def test_names_are_numpys():
    assert [str(e) for e in (Element("float", 8), Element("uint", 1), Element("char", 1),
                             Element("record", 16))] == ["float64", "uint8", "bytes", "records of 16 bytes"]


def test_pointees_accept_their_own_elements():
    assert mismatch(ct.DOUBLE, Element("float", 8)) is None
    assert mismatch(ct.DOUBLE, Element("float", 4)) == "it takes float64 data, not float32"
    assert mismatch(ct.UINT, Element("int", 4)) == "it takes uint32 data, not int32"
    assert mismatch(ct.LONG, Element("int", 8)) is None and mismatch(ct.LLONG, Element("int", 8)) is None
    assert mismatch(ct.BOOL, Element("uint", 1)) == "it takes bool data, not uint8"


def test_complex_pointees_take_numpys_complex_arrays_of_their_size():
    assert mismatch(ct.COMPLEX_DOUBLE, Element("complex", 16)) is None
    assert mismatch(ct.COMPLEX_FLOAT, Element("complex", 8)) is None
    assert mismatch(ct.COMPLEX_DOUBLE, Element("complex", 8)) == "it takes complex128 data, not complex64"
    assert mismatch(ct.COMPLEX_DOUBLE, Element("float", 8)) == "it takes complex128 data, not float64"


def test_void_takes_anything_and_chars_take_bytes():
    assert accepted(ct.VOID) is None
    for element in (Element("int", 1), Element("uint", 1), Element("char", 1)):
        assert mismatch(ct.CHAR, element) is None
    assert mismatch(ct.UCHAR, Element("int", 1)) is not None
    assert mismatch(ct.UCHAR, Element("char", 1)) is None


def test_rows_structs_and_pointers():
    assert mismatch(ct.ArrayType(ct.DOUBLE, 4), Element("float", 8)) is None      # double (*m)[4]
    assert mismatch(ct.VOID_PTR, Element("uint", 8)) is None                    # void **
    assert mismatch(ct.PointerType(ct.FunctionType(ct.INT, ())), Element("uint", 8)) is None
