"""The bundled headers show a name in exactly the modes glibc's show it: under each
-std and feature-test macro (_GNU_SOURCE, _DEFAULT_SOURCE, _POSIX_C_SOURCE,
_XOPEN_SOURCE, strict ISO C's __STRICT_ANSI__; runtime/include/features.h), for each
bundled header.

The names compared are the ones omp2gpu promises: those a bundled header declares
(functions, objects, typedefs, tags, enumerators, macros; reserved names aside) in any
of the modes (mostly gcc's default mode with _GNU_SOURCE; <sched.h> includes <time.h>
only before POSIX.1-2001, as glibc's does). In each mode M:
    bundled(H, M) == promised(H) & glibc(H, M)
glibc's side is every public identifier in `gcc -fopenmp -E -dD` of `#include <H>` (glibc
spells parameters and internals with reserved names, so what remains is what it
declares and defines); ours is what pycparser finds declared in omp2gpu's preprocessing
of the same file, and the macros gcc -dM lists. Both sides preprocess with -fopenmp,
which defines _REENTRANT (POSIX.1c names), as gcc -fopenmp does for programs.

A few headers still bring in more of their neighbours than glibc's do (they show names
glibc keeps to another header): for those the promise is the half that makes programs
compile, every name glibc shows is shown (SHOWS_MORE, with why)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from pycparser import c_ast

from omp2gpu import runtime_files
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.preprocess import predefined_macros, preprocess

INCLUDE = runtime_files.include_dir()
HEADERS = sorted(str(p.relative_to(INCLUDE)) for p in INCLUDE.rglob("*.h")
                 if p.name not in ("omp.h", "features.h") and p.parts[-2:-1] != ("types",)
                 and not str(p.relative_to(INCLUDE)).startswith("bits/"))

# (-std, feature-test macros): gcc's modes and each switch glibc reads
MODES = [
    ("c89", ()), ("c99", ()), ("c11", ()), ("gnu99", ()), ("gnu17", ()),
    ("c99", ("_POSIX_C_SOURCE=199309L",)), ("c99", ("_POSIX_C_SOURCE=200112L",)),
    ("c99", ("_POSIX_C_SOURCE=200809L",)), ("c99", ("_XOPEN_SOURCE",)), ("c99", ("_XOPEN_SOURCE=500",)),
    ("c11", ("_XOPEN_SOURCE=700",)), ("c99", ("_DEFAULT_SOURCE",)), ("c99", ("_GNU_SOURCE",)),
    ("gnu17", ("_POSIX_C_SOURCE=200112L",)),
]
WIDEST = ("gnu17", ("_GNU_SOURCE",))

SHOWS_MORE = {
    # the whole of <sys/types.h>, <sys/stat.h> or <time.h> where glibc's takes a few types
    "fcntl.h": "includes <sys/stat.h> and <sys/types.h>",
    "signal.h": "includes <time.h> and <sys/types.h>", "setjmp.h": "includes <signal.h>",
    "sys/resource.h": "includes <sys/time.h> and <sys/types.h>",
    "sys/stat.h": "includes <time.h> and <sys/types.h>", "sys/wait.h": "includes <sys/types.h>",
    "uchar.h": "includes <stdint.h> and <stddef.h>", "wchar.h": "includes <stdio.h>, <stdint.h> and <time.h>",
}

_IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")
_STRING = re.compile(r'"(?:\\.|[^"\\])*"')
_KEYWORDS = frozenset(
    "auto break case char const continue default do double else enum extern float for goto if inline "
    "int long register restrict return short signed sizeof static struct switch typedef union unsigned "
    "void volatile while".split())

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")


def _public(name: str) -> bool:
    return not (name.startswith("__") or re.match(r"_[A-Z]", name)) and name not in _KEYWORDS


def _mode_flags(std: str, defines) -> list[str]:
    return ["-fopenmp", f"-std={std}", *(f"-D{d}" for d in defines)]


def glibc_names(header: str, std: str, defines) -> set[str]:
    result = subprocess.run(["gcc", "-E", "-dD", "-P", *_mode_flags(std, defines), "-x", "c", "-"],
                            input=f"#include <{header}>\n", capture_output=True, text=True, check=True)
    names = set()
    for line in result.stdout.splitlines():
        if line.startswith("#define"):
            names.add(line.split()[1].split("(")[0])
        elif not line.startswith("#"):
            names.update(_IDENTIFIER.findall(_STRING.sub("", line)))
    return {name for name in names if _public(name)}


class _Declared(c_ast.NodeVisitor):
    """Names a translation unit declares: not parameters, not members."""

    def __init__(self):
        self.names = set()

    def visit_Decl(self, node):
        if node.name:
            self.names.add(node.name)
        self.generic_visit(node)

    def visit_FuncDecl(self, node):
        self.visit(node.type)                       # the result type, not the parameters

    def visit_Typedef(self, node):
        self.names.add(node.name)
        self.generic_visit(node)

    def visit_Struct(self, node):
        if node.name:
            self.names.add(node.name)

    visit_Union = visit_Struct

    def visit_Enum(self, node):
        if node.name:
            self.names.add(node.name)
        for enumerator in (node.values.enumerators if node.values else ()):
            self.names.add(enumerator.name)


def bundled_names(header: str, std: str, defines, tmp_path) -> set[str]:
    path = tmp_path / "one.c"
    path.write_text(f"#include <{header}>\n")
    declared = _Declared()
    declared.visit(parse(preprocess(str(path), defines=list(defines), std=std), str(path)))
    command = ["gcc", "-E", "-dM", "-undef", "-nostdinc", f"-I{INCLUDE}", *_mode_flags(std, defines),
               *(f"-D{name}={value}" for name, value in predefined_macros(std))]
    ours = subprocess.run([*command, str(path)], capture_output=True, text=True, check=True).stdout
    builtin = subprocess.run([*command, "-x", "c", "/dev/null"], capture_output=True, text=True, check=True).stdout
    macros = set(re.findall(r"#define (\w+)", ours)) - set(re.findall(r"#define (\w+)", builtin))
    return {name for name in declared.names | macros if _public(name)}


@needs_gcc
@pytest.mark.parametrize("header", HEADERS)
def test_visible_names_follow_glibc(header, tmp_path):
    ours_by_mode = {mode: bundled_names(header, *mode, tmp_path) for mode in (*MODES, WIDEST)}
    promised = set().union(*ours_by_mode.values())
    problems = []
    for std, defines in MODES:
        ours = ours_by_mode[std, defines]
        theirs = promised & glibc_names(header, std, defines)
        hidden = theirs - ours
        shown = set() if header in SHOWS_MORE else ours - theirs
        if hidden or shown:
            problems.append(f"-std={std} {' '.join(defines)}: hides {sorted(hidden)}, shows {sorted(shown)}")
    assert not problems, f"<{header}>:\n" + "\n".join(problems)


def test_the_widest_mode_shows_every_mode_s_names(tmp_path):
    """GNU mode is the union: a name no mode hides from it (what `promised` relies on)."""
    for header in ("stdlib.h", "unistd.h", "sys/types.h"):
        widest = bundled_names(header, *WIDEST, tmp_path)
        for std, defines in MODES:
            assert bundled_names(header, std, defines, tmp_path) <= widest, (header, std, defines)


def test_stdlib_shows_the_posix_types_in_gcc_s_default_mode(tmp_path):
    """TeaLeaf's case: struct timespec through <stdlib.h> under gnu99, not under c99."""
    assert {"timespec", "timeval", "fd_set", "select", "pid_t"} <= bundled_names("stdlib.h", "gnu99", (), tmp_path)
    assert not {"timespec", "fd_set", "pid_t", "random"} & bundled_names("stdlib.h", "c99", (), tmp_path)
