"""omp2gpu objects (`omp2gpu compile -c`) and static libraries of them.

An omp2gpu object is a real ELF relocatable object for the host, as `cc -c`
writes, plus an offload bundle in a section of its own, as Clang embeds its
offload objects in `.llvm.offloading`:

- the ELF code: the file's host code, optimised, and the omp2gpu host runtime
  as weak definitions (so that `cc *.o launcher.c` links without duplicates);
  `ar`, `nm` and `ld` treat it as any object. Run that way, every target
  region takes its host fallback unless the launcher's entry points
  (offload/abi.py) are provided.
- section `.omp2gpu.offload`: a zip archive holding `host.bc` (the file's host
  module, unoptimised, no runtime), `gpu.bc` and `cpu.bc` (its GPU and CPU
  device modules, when it has target regions or `declare target` definitions)
  and `plan.json` (format version, source name, the launcher's description of
  each kernel: offload.abi.KernelInfo).

`omp2gpu run a.o b.o libfoo.a` reads the bundles back into linker.CompiledUnits
and links them as it links C files (driver.link_program). A static library
(`ar rcs libfoo.a a.o b.o`) is searched as ld searches one: a member joins the
program when it defines a symbol that the program so far uses and nothing
defines (main included), until no member adds one.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
from dataclasses import asdict
from pathlib import Path

import llvmlite.binding as llvm
from llvmlite import ir

from omp2gpu.diagnostics import CompileError
from omp2gpu.linker import CompiledUnit, DeviceCode, external_definitions, references
from omp2gpu.offload.abi import KernelInfo

SECTION = ".omp2gpu.offload"
FORMAT, VERSION = "omp2gpu-object", 1
ELF_MAGIC, AR_MAGIC = b"\x7fELF", b"!<arch>\n"


# ----------------------------------------------------------------- writing
def bundle(unit: CompiledUnit) -> bytes:
    """The offload bundle of one compiled unit (the section's contents)."""
    plan = {"format": FORMAT, "version": VERSION, "source": unit.name, "kernels": {}}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("host.bc", unit.host.as_bitcode())
        for kind in ("gpu", "cpu"):
            code = getattr(unit, kind)
            if code is not None:
                archive.writestr(f"{kind}.bc", code.parse().as_bitcode())
                plan["kernels"][kind] = {name: asdict(info) for name, info in code.kernels.items()}
        archive.writestr("plan.json", json.dumps(plan, indent=1, sort_keys=True))
    return buffer.getvalue()


def embed(module: llvm.ModuleRef, data: bytes) -> llvm.ModuleRef:
    """`module` with `data` as a constant in the SECTION section (it must reach the object file
    unused: it is listed in llvm.used, and the section is not allocated at run time)."""
    carrier = ir.Module(name="omp2gpu.offload")
    carrier.triple, carrier.data_layout = module.triple, module.data_layout
    array = ir.ArrayType(ir.IntType(8), len(data))
    variable = ir.GlobalVariable(carrier, array, name="omp2gpu.offload_bundle")
    variable.linkage, variable.global_constant, variable.section = "private", True, SECTION
    variable.initializer = ir.Constant(array, bytearray(data))
    used = ir.GlobalVariable(carrier, ir.ArrayType(ir.PointerType(), 1), name="llvm.used")
    used.linkage, used.section = "appending", "llvm.metadata"
    used.initializer = ir.Constant(used.value_type, [variable])
    module.link_in(llvm.parse_assembly(str(carrier)))
    return module


# ----------------------------------------------------------------- reading
def kind_of(path) -> str:
    """"object" (an ELF file), "archive" (ar) or "source" (anything else: C)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(AR_MAGIC))
    except OSError:
        return "source"          # the C front end says the file is missing
    return _kind_of_bytes(head)


def _kind_of_bytes(head: bytes) -> str:
    if head.startswith(ELF_MAGIC):
        return "object"
    if head.startswith(AR_MAGIC):
        return "archive"
    return "source"


def is_object_or_archive(path) -> bool:
    return kind_of(path) != "source"


def is_omp2gpu_object(path) -> bool:
    """An omp2gpu object, or an archive whose first member is one (not another compiler's
    object, archive or shared library, which a native link passes to cc as it is)."""
    data = Path(path).read_bytes()
    kind = _kind_of_bytes(data[:len(AR_MAGIC)])
    if kind == "archive":
        members = archive_members(data, str(path))
        data = members[0][1] if members else b""
    elif kind != "object":
        return False
    try:
        elf_section(data, SECTION, str(path))
    except CompileError:
        return False
    return True


def read_unit(data: bytes, name: str) -> CompiledUnit:
    """The CompiledUnit an omp2gpu object carries; a located error for any other file."""
    section = elf_section(data, SECTION, name)
    try:
        archive = zipfile.ZipFile(io.BytesIO(section))
        plan = json.loads(archive.read("plan.json"))
        if plan.get("format") != FORMAT or plan.get("version") != VERSION:
            raise ValueError(f"format {plan.get('format')} version {plan.get('version')}")
        host = llvm.parse_bitcode(archive.read("host.bc"))
        host.name = Path(plan["source"]).name
        codes = {}
        for kind, kernels in plan["kernels"].items():
            module = llvm.parse_bitcode(archive.read(f"{kind}.bc"))
            codes[kind] = DeviceCode(str(module), {k: KernelInfo(**v) for k, v in kernels.items()})
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, RuntimeError) as error:
        raise CompileError(f"{name}: damaged omp2gpu object ({error}); compile it again") from None
    return CompiledUnit(name, host, codes.get("gpu"), codes.get("cpu"))


def elf_section(data: bytes, wanted: str, name: str) -> bytes:
    """The contents of section `wanted` of a 64-bit little-endian ELF file."""
    if not data.startswith(ELF_MAGIC) or data[4:6] != b"\x02\x01":
        raise CompileError(f"{name}: file format not recognized (not a 64-bit little-endian ELF object)")
    try:
        (shoff,) = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
        names_offset = headers[shstrndx][4]
        for sh_name, _, _, _, offset, size in headers:
            end = data.index(b"\0", names_offset + sh_name)
            if data[names_offset + sh_name:end].decode("latin-1") == wanted:
                return data[offset:offset + size]
    except (struct.error, IndexError, ValueError):
        raise CompileError(f"{name}: truncated or damaged ELF object") from None
    raise CompileError(f"{name}: not an omp2gpu object (no {wanted} section)",
                       hint="omp2gpu links the objects `omp2gpu compile -c` writes; compile "
                            "this file's source with omp2gpu")


def archive_members(data: bytes, name: str) -> list[tuple[str, bytes]]:
    """(member name, contents) of a System V / GNU `ar` archive, its symbol tables left out."""
    members, long_names, offset = [], b"", len(AR_MAGIC)
    while offset + 60 <= len(data):
        header = data[offset:offset + 60]
        if header[58:60] != b"`\n":
            raise CompileError(f"{name}: malformed archive")
        member_name = header[:16].decode("latin-1").rstrip()
        size = int(header[48:58].decode("latin-1").strip() or 0)
        body = data[offset + 60:offset + 60 + size]
        offset += 60 + size + (size & 1)
        if member_name == "//":                       # GNU long names
            long_names = body
            continue
        if member_name in ("/", "/SYM64/", "__.SYMDEF", "__.SYMDEF SORTED"):
            continue
        if member_name.startswith("#1/"):             # BSD: the name precedes the contents
            length = int(member_name[3:])
            member_name, body = body[:length].rstrip(b"\0").decode("latin-1"), body[length:]
        elif member_name.startswith("/") and member_name[1:].isdigit():
            start = int(member_name[1:])
            member_name = long_names[start:long_names.index(b"/\n", start)].decode("latin-1")
        members.append((member_name.rstrip("/"), body))
    return members


def load_units(paths: list, compile_source) -> list[CompiledUnit]:
    """The units of `run`'s inputs in order: C files through `compile_source(path)`,
    objects read back, archive members that define what is still undefined."""
    units: list[CompiledUnit] = []
    defined: set[str] = set()
    used: set[str] = {"main"}

    def take(unit: CompiledUnit) -> None:
        units.append(unit)
        defined.update(external_definitions(unit.host))
        used.update(references(unit.host))

    def add(name: str, data: bytes, kind: str) -> None:
        if kind == "object":
            take(read_unit(data, name))
        else:
            pending = [read_unit(body, f"{name}({member})") for member, body in archive_members(data, name)]
            progress = True
            while progress:
                progress = False
                for unit in list(pending):
                    if external_definitions(unit.host) & (used - defined):
                        pending.remove(unit)
                        take(unit)
                        progress = True

    for path in paths:
        kind = kind_of(path)
        if kind == "source":
            take(compile_source(path))
        else:
            add(str(path), Path(path).read_bytes(), kind)
    if not units:
        raise CompileError("no input files: nothing in the archives defines 'main'")
    return units


def archive(members: list[tuple[str, bytes]]) -> bytes:
    """A System V `ar` archive of `members` (names of at most 15 characters)."""
    out = [AR_MAGIC]
    for name, body in members:
        header = f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{644:<8}{len(body):<10}`\n".encode()
        out += [header, body, b"\n" if len(body) & 1 else b""]
    return b"".join(out)
