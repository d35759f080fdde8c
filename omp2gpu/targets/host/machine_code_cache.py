"""Machine code kept on disk between runs: a program run again unchanged skips LLVM's
-O pipeline and its code generation, about two thirds of `run`'s start-up for
bench/startup's 2,000-line program.

An entry's key hashes everything its code follows from: the module's IR before
optimisation (so the program, every header it includes, its -D flags and the
runtimes linked into it), the optimisation and code-generation levels, the host's
triple, CPU and CPU features, LLVM's version, and omp2gpu's and llvmlite's
(disk_cache.compiler_key: every module of the package). An entry records its objects'
lengths and a SHA-256 of them, so that a truncated or corrupt file reads as a miss
and is written again; entries are written to a temporary file and renamed
(disk_cache.write_atomically), so a run beside another never reads half of one.
OMP2GPU_CODE_CACHE=0 turns it off: nothing is read or written.

The cache keeps at most MAX_BYTES of entries: a miss that adds one removes the
least recently used beyond that (a hit refreshes its entry's time).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu.disk_cache import cache_dir, compiler_key, write_atomically
from omp2gpu.targets.host.machine import initialise
from omp2gpu.targets.host.two_process_codegen import MachineCode

SWITCH = "OMP2GPU_CODE_CACHE"
MAX_BYTES = 512 << 20
SUFFIX = ".omp2gpu-code"
_MAGIC = b"omp2gpu machine code 1\n"


def enabled() -> bool:
    return os.environ.get(SWITCH, "1") != "0"


def entry_key(ir_text: str, *levels: int) -> str:
    """The key of the machine code made from `ir_text` at `levels` (optimisation, code
    generation) on this host by this compiler."""
    initialise()
    host = "|".join([llvm.get_process_triple(), llvm.get_host_cpu_name(),
                     llvm.get_host_cpu_features().flatten(),
                     ".".join(map(str, llvm.llvm_version_info)), *map(str, levels)])
    digest = hashlib.sha256(compiler_key([], salt=host).encode())
    digest.update(ir_text.encode())
    return digest.hexdigest()[:40]


def entry_path(kind: str, key: str) -> Path:
    return cache_dir() / f"{kind}-{key}{SUFFIX}"


def read_entry(path: Path) -> tuple[dict, tuple[bytes, ...]] | None:
    """(the entry's names, its objects), or None where there is no whole, intact entry."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(_MAGIC):
        return None
    header_end = data.find(b"\n", len(_MAGIC))
    if header_end < 0:
        return None
    try:
        header = json.loads(data[len(_MAGIC):header_end])
        lengths = [int(n) for n in header["lengths"]]
        payload = data[header_end + 1:]
        intact = sum(lengths) == len(payload) \
            and hashlib.sha256(payload).hexdigest() == header["sha256"]
    except (ValueError, KeyError, TypeError):
        return None
    if not intact:
        return None
    objects, start = [], 0
    for length in lengths:
        objects.append(payload[start:start + length])
        start += length
    _touch(path)
    return header["names"], tuple(objects)


def write_entry(path: Path, names: dict, objects: tuple[bytes, ...]) -> None:
    """Write an entry (an unwritable cache is no error), then keep the cache within MAX_BYTES."""
    payload = b"".join(objects)
    header = {"lengths": [len(data) for data in objects],
              "sha256": hashlib.sha256(payload).hexdigest(), "names": names}
    write_atomically(path, _MAGIC + json.dumps(header).encode() + b"\n" + payload)
    prune(path.parent, MAX_BYTES)


def prune(directory: Path, max_bytes: int) -> None:
    """Remove the least recently used entries until those left take at most max_bytes."""
    entries = []
    for path in directory.glob(f"*{SUFFIX}"):
        try:
            status = path.stat()
        except OSError:
            continue                    # removed by another run meanwhile
        entries.append((status.st_mtime, status.st_size, path))
    total = sum(size for _, size, _ in entries)
    for _, size, path in sorted(entries):
        if total <= max_bytes:
            break
        path.unlink(missing_ok=True)
        total -= size


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


# --- a program's machine code for `run` -----------------------------------------------

def program_key(module: llvm.ModuleRef, opt_level: int, codegen_level: int) -> str | None:
    """The key of `module`'s machine code (unoptimised, about to be run), or None when
    the cache is off."""
    return entry_key(str(module), opt_level, codegen_level) if enabled() else None


def cached_program(key: str | None) -> MachineCode | None:
    entry = read_entry(entry_path("program", key)) if key else None
    if entry is None:
        return None
    names, objects = entry
    try:
        return MachineCode(objects, tuple(names["constructors"]), tuple(names["imports"]))
    except (KeyError, TypeError):
        return None


def keep_program(key: str | None, code: MachineCode | None) -> None:
    if key and code is not None:
        write_entry(entry_path("program", key), {"constructors": list(code.constructors),
                                                  "imports": list(code.imports)}, code.objects)
