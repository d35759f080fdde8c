"""What an array holds, read the three ways Python objects tell it (a buffer's
struct-module format, an array interface's typestr, a DLPack dtype) as one Element,
and whether that is what a pointer parameter's pointee type wants."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from omp2gpu.sema import ctypes as ct

# Kinds of element: "int", "uint", "float", "complex", "bool", "char" (bytes),
# "pointer", "record" (a struct), "other".
_FORMAT_KINDS = {**dict.fromkeys("bhilqn", "int"), **dict.fromkeys("BHILQN", "uint"),
                 **dict.fromkeys("efdg", "float"), "?": "bool", "c": "char", "P": "pointer"}
_TYPESTR_KINDS = {"i": "int", "u": "uint", "f": "float", "c": "complex", "b": "bool", "V": "record"}
_DLPACK_KINDS = {0: "int", 1: "uint", 2: "float", 5: "complex", 6: "bool"}
_FLOAT_NAMES = {2: "float16", 4: "float32", 8: "float64", 16: "longdouble"}


@dataclass(frozen=True)
class Element:
    kind: str
    size: int          # bytes

    def __str__(self) -> str:
        """As NumPy names the dtype."""
        if self.kind in ("int", "uint", "complex"):
            return f"{self.kind}{8 * self.size}"
        if self.kind == "float":
            return _FLOAT_NAMES.get(self.size, f"{8 * self.size}-bit float")
        if self.kind == "char":
            return "bytes"
        if self.kind == "record":
            return f"records of {self.size} bytes"
        return {"bool": "bool", "pointer": "pointers"}.get(self.kind, f"{self.size}-byte items")


def from_format(format_: str, itemsize: int) -> Element:
    """The element of a buffer (PEP 3118 format, e.g. "d", "<i", "T{<d:x:}")."""
    if format_[:1] in ("@", "=", "<"):      # native or little-endian: the host and the GPU agree
        format_ = format_[1:]
    elif format_[:1] in (">", "!"):
        return Element("big-endian", itemsize)
    if len(format_) == 1 and format_ in _FORMAT_KINDS:
        return Element(_FORMAT_KINDS[format_], itemsize)
    if format_.startswith("Z"):
        return Element("complex", itemsize)
    return Element("record" if format_.startswith("T{") else "other", itemsize)


@lru_cache(maxsize=64)
def from_typestr(typestr: str) -> Element:
    """The element of an array interface (e.g. "<f8", "|u1")."""
    order, kind, size = typestr[:1], typestr[1:2], int(typestr[2:] or 0)
    if order == ">" and size > 1:
        return Element("big-endian", size)
    return Element(_TYPESTR_KINDS.get(kind, "other"), size)


def from_dlpack(code: int, bits: int, lanes: int) -> Element:
    """The element of a DLPack tensor (DLDataType)."""
    if lanes != 1:
        return Element("other", bits * lanes // 8)
    return Element(_DLPACK_KINDS.get(code, "other"), bits // 8)


def accepted(pointee: ct.CType) -> tuple[Element, ...] | None:
    """The elements an array passed for a `pointee *` parameter may hold; None: any
    (`void *`). The first is the one to name in a message."""
    while pointee.is_array:            # double (*m)[4]: rows of doubles
        pointee = pointee.element
    if pointee.is_void:
        return None
    if pointee.is_integer:
        if getattr(pointee, "is_bool", False):
            return (Element("bool", 1),)
        own = Element("int" if pointee.signed else "uint", pointee.size)
        if pointee.size != 1:
            return (own,)
        if pointee == ct.CHAR:             # plain char: text or bytes of either sign
            return own, Element("uint", 1), Element("char", 1)
        return own, Element("char", 1)
    if pointee.is_floating:
        return (Element("float", pointee.size),)
    if pointee.is_complex:             # complex64, complex128, clongdouble: C's layout
        return (Element("complex", pointee.size),)
    if pointee.is_pointer:
        return Element("pointer", 8), Element("uint", 8), Element("int", 8)
    if pointee.is_struct:
        return (Element("record", pointee.size),)
    return ()                          # a function: no array holds one


def mismatch(pointee: ct.CType, element: Element) -> str | None:
    """Why an array of `element` cannot be passed for a `pointee *` parameter, or None."""
    wanted = accepted(pointee)
    if wanted is None or element in wanted:
        return None
    if not wanted:
        return f"no array can be passed for a pointer to {pointee}"
    return f"it takes {wanted[0]} data, not {element}"
