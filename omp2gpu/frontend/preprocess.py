"""Preprocess a C file against the bundled headers, keeping `#pragma omp` lines.

`gcc -E` does the work when gcc is on PATH, the pure-Python pcpp otherwise.
Either way the result:
- searches the user's -I folders, then runtime/include (never the system's), then
  the folders of libraries that bring their own headers (MPI's),
- defines `_OPENMP` 201511 (OpenMP 4.5) and none of GCC's own macros, so
  user code does not take `__GNUC__` paths into syntax pycparser rejects,
- keeps line markers, so pycparser coords name the original file and line,
- has every `#pragma omp` and `_Pragma("omp ...")` as a `#pragma omp ...`
  line with its macros expanded (OpenMP requires that in C).
Preprocessor errors raise CompileError at `file:line[:col]`.
"""

from __future__ import annotations

import copy
import functools
import io
import os
import re
import shutil
import subprocess

from omp2gpu import config, runtime_files
from omp2gpu.diagnostics import CompileError, SourceLocation

OPENMP_VERSION = "201511"

# Predefined by both back ends. No __GNUC__: the bundled headers need nothing
# GNU, and user code must not switch to __attribute__ and friends.
_PREDEFINED = (
    ("_OPENMP", OPENMP_VERSION),
    ("__OMP2GPU__", "1"),
    ("__x86_64__", "1"),
    ("__LP64__", "1"),
    # GCC's memory orders for the __atomic_* builtins (codegen/atomic_builtins.py), and
    # the __sync_* compare-and-swap sizes it advertises
    *((f"__ATOMIC_{order}", str(value)) for value, order in
      enumerate(("RELAXED", "CONSUME", "ACQUIRE", "RELEASE", "ACQ_REL", "SEQ_CST"))),
    *((f"__GCC_HAVE_SYNC_COMPARE_AND_SWAP_{size}", "1") for size in (1, 2, 4, 8)),
)

# gcc -E finishes any real file in seconds; macro expansions that grow exponentially
# (a few lines of #defines can ask for gigabytes) must not hang the compiler.
PREPROCESS_TIMEOUT_S = 120

_STDC_VERSION = {"99": "199901L", "9x": "199901L", "11": "201112L", "1x": "201112L",
                 "17": "201710L", "18": "201710L"}


# gcc's default -std: a GNU mode, so the headers show POSIX and BSD names (_DEFAULT_SOURCE).
DEFAULT_STD = "gnu17"


def mode_macros(std: str) -> list[tuple[str, str]]:
    """What -std defines beyond __STDC_VERSION__: __STRICT_ANSI__ in the ISO modes (c99,
    c11, iso9899:...), which the headers' feature tests read (features.h); gcc -undef
    drops it with its other predefined macros."""
    return [("__STRICT_ANSI__", "1")] if std.startswith(("c", "iso")) else []


def predefined_macros(std: str = DEFAULT_STD) -> list[tuple[str, str]]:
    """(name, value) of every macro omp2gpu predefines in mode `std`, beyond gcc -undef's."""
    return [*_PREDEFINED, *mode_macros(std)]


def preprocess(path: str, include_dirs=(), defines=(), undefines=(), std: str = DEFAULT_STD,
               *, backend: str | None = None, fallback_dirs=(), forced=()) -> str:
    """Return the preprocessed text of `path`.

    defines are "NAME" or "NAME=VALUE"; backend is "gcc", "pcpp" or None (gcc
    when available); `fallback_dirs` are searched after the bundled headers (a
    library's own headers, such as MPI's); `forced` are ("-include" | "-imacros", FILE)
    pairs read before the file, as gcc's flags of those names.
    """
    include_dirs = [*include_dirs, runtime_files.include_dir(), *fallback_dirs]
    if not os.path.isfile(path):
        raise CompileError(f"{path}: No such file or directory")
    if backend is None:
        backend = "gcc" if shutil.which("gcc") else "pcpp"
    if backend == "gcc":
        return _run_gcc(path, include_dirs, defines, undefines, std, forced=forced)
    if backend == "pcpp":
        return _run_pcpp(path, include_dirs, defines, undefines, std, forced)
    raise ValueError(f"unknown preprocessor back end {backend!r}")


# --------------------------------------------------------------------------- gcc

_GCC_ERROR = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?:(?P<col>\d+):)? (?:fatal )?error: (?P<msg>.*)$")


def _gcc_command(path, include_dirs, defines, undefines, std, system_dirs=(), forced=()) -> list[str]:
    # -fopenmp makes cpp macro-expand `#pragma omp` lines and turn
    # _Pragma("omp ...") into them; -undef drops gcc's own predefined macros.
    command = ["gcc", "-E", "-undef", "-nostdinc", "-fopenmp", f"-std={std}",
               "-fno-diagnostics-show-caret", "-fdiagnostics-color=never"]
    # -I rather than -isystem for the bundled headers: gcc splits expansions of
    # system-header macros over several lines with extra line markers.
    command += [f"-I{d}" for d in include_dirs]
    command += [f"-isystem{d}" for d in system_dirs]
    command += [f"-D{name}={value}" for name, value in predefined_macros(std)]
    command += [f"-D{d}" for d in defines]
    command += [f"-U{u}" for u in undefines]
    command += [word for pair in forced for word in pair]
    command.append(path)
    return command


def _run_gcc(path, include_dirs, defines, undefines, std, extra=(), system_dirs=(), forced=()) -> str:
    command = [*_gcc_command(path, include_dirs, defines, undefines, std, system_dirs, forced), *extra]
    env = config.child_environment(LC_ALL="C", LANG="C")      # gcc's messages as they are parsed
    try:
        result = subprocess.run(command, capture_output=True, encoding="utf-8",
                                errors="replace", env=env, timeout=PREPROCESS_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise CompileError(f"preprocessing took longer than {PREPROCESS_TIMEOUT_S} s (macro "
                           "expansion out of bounds?)", SourceLocation(path, 1, 1)) from None
    if result.returncode != 0:
        raise _gcc_error(result.stderr)
    if not extra and _GCC12_UNEXPANDED.search(result.stdout):     # the text, not -M's rule or -dM
        return _expand_unexpanded_pragmas(result.stdout, command, env)
    return result.stdout


# OpenMP directives gcc 12 does not know, so that -fopenmp leaves their macros unexpanded.
_GCC12_UNEXPANDED = re.compile(r"^\s*#\s*pragma\s+omp\s+interop\b.*$", re.MULTILINE)


def _expand_unexpanded_pragmas(text: str, command: list, env: dict) -> str:
    """Those pragmas' macros expanded with the macros defined at the end of the file
    (gcc -dM): right unless the file redefines one after the pragma. Without pcpp, as they are."""
    try:
        expander = _Pcpp()
    except ImportError:
        return text
    macros = subprocess.run([*command[:-1], "-dM", command[-1]], capture_output=True, encoding="utf-8",
                            errors="replace", env=env, timeout=PREPROCESS_TIMEOUT_S).stdout
    for line in macros.splitlines():
        if line.startswith("#define "):
            expander.define(line[len("#define "):])
    return _GCC12_UNEXPANDED.sub(lambda m: " ".join(expander.expand_text(m.group(0)).split()), text)


def gcc_preprocessor(path: str, include_dirs=(), defines=(), undefines=(), std: str = DEFAULT_STD,
                     extra_flags=(), fallback_dirs=(), forced=()) -> str:
    """gcc's preprocessor run as `preprocess` runs it, with `extra_flags`: -M/-MM and their
    -MF -MT -MQ -MP (the make rule of the headers, written by gcc's own machinery), -dM (the
    macros). The bundled headers count as system headers, so -MM leaves them out."""
    if not shutil.which("gcc"):
        raise CompileError("dependency files (-M, -MD, ...) and -dM are written by gcc's preprocessor, "
                           "and gcc was not found", hint="install gcc (e.g. apt install gcc)")
    system = [runtime_files.include_dir(), *fallback_dirs]
    return _run_gcc(path, include_dirs, defines, undefines, std, extra=list(extra_flags),
                    system_dirs=system, forced=forced)


def _gcc_error(stderr: str) -> CompileError:
    for line in stderr.splitlines():
        match = _GCC_ERROR.match(line)
        if match:
            location = SourceLocation(match["file"], int(match["line"]), int(match["col"] or 0))
            return CompileError(match["msg"], location)
    message = next((line for line in stderr.splitlines() if "error: " in line), stderr.strip())
    message = message.split("error: ", 1)[-1]          # drop "gcc: error: "
    return CompileError(message or "the preprocessor failed")


# -------------------------------------------------------------------------- pcpp

def _run_pcpp(path, include_dirs, defines, undefines, std, forced=()) -> str:
    pre = _Pcpp()
    for directory in include_dirs:
        pre.add_path(str(directory))
    version = _STDC_VERSION.get(std[-2:]) if std.startswith(("c", "gnu", "iso")) else None
    # gcc -fopenmp (-pthread) defines _REENTRANT, which features.h reads as POSIX.1c
    builtin = [("__STDC__", "1"), ("__STDC_HOSTED__", "1"), ("_REENTRANT", "1")]
    if version:
        builtin.append(("__STDC_VERSION__", version))
    for name, value in builtin + predefined_macros(std):
        pre.define(f"{name} {value}")
    for definition in defines:
        name, _, value = definition.partition("=")
        pre.define(f"{name} {value if '=' in definition else '1'}")
    for name in undefines:
        pre.undef(name)
    if any(flag == "-imacros" for flag, _ in forced):
        raise CompileError("-imacros needs gcc's preprocessor, and gcc was not found",
                           hint="install gcc (e.g. apt install gcc)")
    prefix = "".join(f'#include "{name}"\n' for _, name in forced)
    with open(path, encoding="utf-8", errors="replace") as handle:
        pre.parse(prefix + f'#line 1 "{path}"\n' + handle.read() if prefix else handle.read(), path)
    out = io.StringIO()
    pre.write(out)
    if pre.errors:
        file, line, message = pre.errors[0]
        message = " ".join(str(message).split())
        raise CompileError(message, SourceLocation(file or path, int(line or 0)))
    return pragma_operators_to_lines(out.getvalue(), pre.expand_text)


def _make_pcpp_class():
    from pcpp import Preprocessor  # lazy: pcpp is the fallback when gcc is missing; most runs never need it
    from pcpp.parser import (  # lazy: pcpp is the fallback when gcc is missing; most runs never need it
        Action,
        OutputDirective,
    )

    class Pcpp(Preprocessor):
        """pcpp that records errors (instead of printing them) and expands
        macros in `#pragma omp` lines as gcc -fopenmp does."""

        def __init__(self):
            super().__init__()
            self.errors = []

        def undef(self, name):
            # pcpp's undef takes tokens; accept a plain name too.
            if isinstance(name, str):
                self.macros.pop(name, None)
            else:
                super().undef(name)

        def on_error(self, file, line, msg):
            self.errors.append((file, line, msg))
            self.return_code += 1

        def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
            directive = self.lastdirective
            message = (f"malformed #include {includepath}" if is_malformed
                       else f"{includepath}: No such file or directory")
            self.on_error(directive.source, directive.lineno, message)
            raise OutputDirective(Action.IgnoreAndRemove)

        def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
            if directive.value == "error":
                text = "".join(t.value for t in toks).strip()
                self.on_error(directive.source, directive.lineno, f"#error {text}")
                return True
            if directive.value == "warning":
                return True
            if directive.value == "pragma":
                words = [t for t in toks if t.type not in self.t_WS]
                if words and words[0].value == "omp":
                    self._expand_in_place(toks)
            return None

        def _expand_in_place(self, toks):
            # The line is written out from these very token objects, so the
            # expansion goes into the first one and the rest become blanks
            # (not empty: pcpp's writer indexes into whitespace tokens).
            body = [t for t in toks if not (t.type in self.t_WS and "\n" in t.value)]
            if not body:
                return
            expanded = self.expand_macros([copy.copy(t) for t in body])
            text = " ".join("".join(t.value for t in expanded).split())
            body[0].value = text
            for token in body[1:]:
                token.value = " "

        def expand_text(self, text: str) -> str:
            tokens = self.tokenize(text)
            return "".join(t.value for t in self.expand_macros(tokens))

    return Pcpp


@functools.lru_cache(maxsize=None)
def _pcpp_class():
    return _make_pcpp_class()      # built on first use: only the fallback needs pcpp


def _Pcpp():
    return _pcpp_class()()


# ------------------------------------------------------------- _Pragma operators

_MARKER = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)(?:\s+"((?:\\.|[^"\\])*)")?')
_PRAGMA_OR_LITERAL = re.compile(
    r'''(?P<lit>L?"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')'''
    r'''|\b_Pragma\s*\(\s*L?"(?P<body>(?:\\.|[^"\\\n])*)"\s*\)''')


def pragma_operators_to_lines(text: str, expand=None) -> str:
    """Rewrite each `_Pragma("x")` outside string literals as a `#pragma x` line,
    with line markers around it so that later lines keep their numbers.
    `expand` (text -> text) macro-expands the bodies of `omp` pragmas."""
    if "_Pragma" not in text:
        return text
    out = []
    line, file = 1, None
    for raw in text.split("\n"):
        marker = _MARKER.match(raw)
        if marker:
            out.append(raw)
            line = int(marker[1])
            file = marker[2] if marker[2] is not None else file
            continue
        if "_Pragma" in raw and not raw.lstrip().startswith("#"):
            out.extend(_split_pragma_operators(raw, line, file, expand))
        else:
            out.append(raw)
        line += 1
    return "\n".join(out)


def _split_pragma_operators(raw, line, file, expand):
    marker = f'#line {line}' + (f' "{file}"' if file is not None else "")
    pieces, start = [], 0
    for match in _PRAGMA_OR_LITERAL.finditer(raw):
        if match["body"] is None:
            continue
        before = raw[start:match.start()]
        if before.strip():
            pieces.append(before)
        body = match["body"].replace('\\"', '"').replace("\\\\", "\\")
        if expand is not None and re.match(r"omp\b", body.lstrip()):
            body = " ".join(expand(body).split())
        pieces += [marker, f"#pragma {body}", marker]
        start = match.end()
    if not pieces:
        return [raw]
    pieces.append(raw[start:])
    return pieces
