"""C literal constants: integer, floating, character and string (C99 6.4.4, 6.4.5)."""

from __future__ import annotations

from fractions import Fraction

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.x86_fp80 import round_to_fp80

_SIMPLE_ESCAPES = {"n": 10, "t": 9, "r": 13, "0": 0, "a": 7, "b": 8, "f": 12, "v": 11,
                   "\\": 92, "'": 39, '"': 34, "?": 63, "e": 27}


def integer_literal(text: str, coord=None) -> tuple[int, ct.IntType]:
    """Value and type of an integer constant: the first of its candidate types that fits."""
    body = text.rstrip("uUlL")
    suffix = text[len(body):].lower()
    try:
        if body.lower().startswith("0x"):
            value, decimal = int(body, 16), False
        elif body.lower().startswith("0b"):
            value, decimal = int(body[2:], 2), False
        elif len(body) > 1 and body.startswith("0"):
            value, decimal = int(body, 8), False
        else:
            value, decimal = int(body, 10), True
    except ValueError:
        raise CompileError(f"invalid integer constant '{text}'", coord) from None
    unsigned = "u" in suffix
    longs = suffix.count("l")
    if longs == 0:
        candidates = [ct.INT, ct.LONG, ct.LLONG]
    elif longs == 1:
        candidates = [ct.LONG, ct.LLONG]
    else:
        candidates = [ct.LLONG]
    if unsigned:
        candidates = [{ct.INT: ct.UINT, ct.LONG: ct.ULONG, ct.LLONG: ct.ULLONG}[c] for c in candidates]
    elif not decimal:
        # Octal and hex constants may take the unsigned type of each rank (6.4.4.1).
        widened = []
        for candidate in candidates:
            widened += [candidate, {ct.INT: ct.UINT, ct.LONG: ct.ULONG, ct.LLONG: ct.ULLONG}[candidate]]
        candidates = widened
    for candidate in candidates:
        if candidate.min_value <= value <= candidate.max_value:
            return value, candidate
    if value <= ct.ULLONG.max_value:
        return value, ct.ULLONG
    raise CompileError(f"integer constant '{text}' is too large", coord)


def float_literal(text: str, coord=None) -> tuple[float, ct.FloatType]:
    body, ctype = text, ct.DOUBLE
    if body[-1] in "fF" and not body.lower().startswith("0x") or (
            body.lower().startswith("0x") and body[-1] in "fF" and "p" in body.lower()):
        body, ctype = body[:-1], ct.FLOAT
    elif body[-1] in "lL":
        body, ctype = body[:-1], ct.LONG_DOUBLE
    try:
        if ctype == ct.LONG_DOUBLE:
            return round_to_fp80(_exact_value(body)), ctype
        value = float.fromhex(body) if body.lower().startswith("0x") else float(body)
    except ValueError:
        raise CompileError(f"invalid floating constant '{text}'", coord) from None
    return value, ctype


def _exact_value(body: str) -> Fraction:
    """A floating constant's exact value (long double constants are rounded from it)."""
    if not body.lower().startswith("0x"):
        return Fraction(body)
    digits, _, exponent = body[2:].lower().partition("p")
    whole, _, fraction = digits.partition(".")
    return int(whole + fraction or "0", 16) * Fraction(2) ** (int(exponent or "0") - 4 * len(fraction))


def decode_escapes(body: str, coord=None) -> list[int]:
    """Bytes of a character or string literal body (without its quotes), UTF-8 for non-ASCII."""
    out: list[int] = []
    i = 0
    while i < len(body):
        char = body[i]
        if char != "\\":
            out.extend(char.encode("utf-8"))
            i += 1
            continue
        i += 1
        if i >= len(body):
            raise CompileError("incomplete escape sequence", coord)
        char = body[i]
        if char == "x":
            j = i + 1
            while j < len(body) and body[j] in "0123456789abcdefABCDEF":
                j += 1
            if j == i + 1:
                raise CompileError("\\x used with no following hex digits", coord)
            out.append(int(body[i + 1:j], 16) & 0xFF)
            i = j
        elif char in "01234567":
            j = i
            while j < len(body) and j < i + 3 and body[j] in "01234567":
                j += 1
            out.append(int(body[i:j], 8) & 0xFF)
            i = j
        elif char in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[char])
            i += 1
        else:
            raise CompileError(f"unknown escape sequence '\\{char}'", coord)
    return out


def char_literal(text: str, coord=None) -> int:
    """Value of a character constant; type int, value of the (signed) char."""
    if text.startswith(("L", "u", "U")):
        text = text[1:]
    data = decode_escapes(text[1:-1], coord)
    if not data:
        raise CompileError("empty character constant", coord)
    value = 0
    for byte in data:        # multi-character constants, as gcc computes them
        value = (value << 8) | byte
    if len(data) == 1 and value >= 128:
        value -= 256          # char is signed on x86-64
    return value


def string_literal(text: str, coord=None) -> bytes:
    """Bytes of a (possibly concatenated) string literal, without the terminating NUL.

    pycparser joins adjacent literals into one token such as `"ab" "cd"`.
    """
    data: list[int] = []
    i = 0
    while i < len(text):
        if text[i] != '"':
            i += 1
            continue
        j = i + 1
        while j < len(text) and text[j] != '"':
            j += 2 if text[j] == "\\" else 1
        data += decode_escapes(text[i + 1:j], coord)
        i = j + 1
    return bytes(data)


def arithmetic_literal(node) -> tuple[int | float, ct.CType]:
    """(value, type) of a pycparser Constant that is not a string: char constants are int."""
    if node.type == "string":
        raise CompileError("string literal is not an arithmetic constant", node.coord)
    if node.type == "char":
        return char_literal(node.value, node.coord), ct.INT
    if is_imaginary(node.value):
        return imaginary_literal(node.value, node.coord)
    if node.type in ("float", "double", "long double"):
        return float_literal(node.value, node.coord)
    return integer_literal(node.value, node.coord)


def is_imaginary(text: str) -> bool:
    """A GNU imaginary constant, as the lexer spells it (`2.5i`, `1.0iF`); no other
    number has an i or a j."""
    return "i" in text.lower() or "j" in text.lower()


def imaginary_literal(text: str, coord=None) -> tuple[float, ct.ComplexType]:
    """`2.5i` is the complex double 0 + 2.5i, `1.0iF` a complex float (GNU C): the
    imaginary part's value and the complex type."""
    body = text.replace("i", "").replace("I", "").replace("j", "").replace("J", "")
    lower = body.lower()
    floating = "p" in lower if lower.startswith("0x") else any(mark in lower for mark in ".e")
    if not floating:
        raise CompileError(f"imaginary integer constant '{text}' (a GNU extension) is not supported "
                           "(write it as a floating constant)", coord)
    value, real = float_literal(body, coord)
    return value, ct.ComplexType(real)
