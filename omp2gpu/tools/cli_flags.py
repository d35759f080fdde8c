"""The compiler flags every `omp2gpu` command takes, spelt as a C compiler user types
them, their help (every flag and every --dump stage listed), and what the command line
says of flags it accepts without acting on them: gcc's flags known to be harmless here
pass quietly, the others are warned of, never silently dropped. The command line
(tools/cli.py) and the Python API's `flags` (options_from_flags) both parse them here.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys

from omp2gpu.codegen.code_rules import CodeRules
from omp2gpu.codegen.openmp.schemes import AUTO, REQUESTS
from omp2gpu.config import CpuSchedule
from omp2gpu.diagnostics import CompileError
from omp2gpu.pipeline import DEFAULT_STD, DUMP_STAGES, CompileOptions
from omp2gpu.targets.host import NATIVE, validate_march
from omp2gpu.targets.nvptx import validate_arch

STANDARDS = ("c89", "c90", "c99", "c11", "c17", "c18", "gnu89", "gnu90", "gnu99", "gnu11", "gnu17", "gnu18")
# gcc's named levels, mapped onto the four LLVM has.
OPT_LEVELS = {"0": 0, "1": 1, "2": 2, "3": 3, "s": 2, "z": 2, "g": 1, "fast": 3}

# -f flags that change nothing a program can see here: OpenMP is always on, code is
# always position-independent, offload targets are omp2gpu's own.
HARMLESS_F_FLAGS = ("openmp", "openmp-simd", "pic", "PIC", "pie", "PIE", "no-omit-frame-pointer",
                    "omit-frame-pointer", "common", "no-common", "diagnostics-color", "no-diagnostics-color")
HARMLESS_F_PREFIXES = ("openmp-targets=", "openmp-version=", "offload=", "diagnostics-color=")
# -f flags that change the code (codegen/code_rules.py): flag -> (CodeRules field, value);
# the last one given wins, as in gcc. -ffast-math also drops errno from the math functions.
CODE_RULE_FLAGS = {"wrapv": ("wrapv", True), "no-wrapv": ("wrapv", False),
                   "fast-math": ("fast_math", True), "no-fast-math": ("fast_math", False),
                   "math-errno": ("math_errno", True), "no-math-errno": ("math_errno", False),
                   "strict-aliasing": ("strict_aliasing", True), "no-strict-aliasing": ("strict_aliasing", False),
                   "speculate-mapped-loads": ("speculate_loads", True),
                   "no-speculate-mapped-loads": ("speculate_loads", False)}
# -l libraries that every program has already: the C library's parts and the OpenMP runtime.
LINKED_ALWAYS = ("m", "c", "pthread", "rt", "dl", "gomp", "omp", "iomp5")


def opt_level(text: str) -> int:
    if text not in OPT_LEVELS:
        raise argparse.ArgumentTypeError(f"unknown optimisation level -O{text}")
    return OPT_LEVELS[text]


def dump_stages(text: str) -> frozenset[str]:
    stages = frozenset(s.strip() for s in text.split(",") if s.strip())
    unknown = stages - set(DUMP_STAGES)
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown stage(s) {', '.join(sorted(unknown))}; choose from {','.join(DUMP_STAGES)}")
    return stages


def stages_help() -> str:
    """The --dump stages, one line each, for a command's help."""
    width = max(map(len, DUMP_STAGES))
    lines = [f"  {name:<{width}}  {what}" for name, what in DUMP_STAGES.items()]
    return ("--dump stages (comma-separated, printed to stderr under a banner; `run` and\n"
            "`report` reach every stage, `compile` those its output goes through and warns of\n"
            "the others):\n" + "\n".join(lines))


# Flags that may be given many times, each time adding to a list: (flag, dest, metavar, help).
SEARCH_AND_MACRO_FLAGS = (
    ("-I", "include_dirs", "DIR", "add DIR to the #include search path"),
    ("-D", "defines", "NAME[=VALUE]", "define a macro"),
    ("-U", "undefines", "NAME", "undefine a macro"),
    ("-include", "include_files", "FILE", "include FILE before the source's first line (as gcc)"),
    ("-imacros", "macro_files", "FILE", "take FILE's macros, not its text, before -include's (as gcc)"),
)
# gcc's, accepted so that existing command lines and makefiles work (ignored_flag_warnings).
GCC_FLAGS = (
    ("-f", "f_flags", "FLAG", "-fopenmp, -fPIC and the like: accepted, no effect (others: a warning)"),
    ("-l", "libraries", "LIB", "run: load shared library libLIB.so into the program (-lm, -lpthread, "
                               "-lgomp: always linked; MPI's: loaded when the program calls MPI)"),
    ("-L", "library_dirs", "DIR", "run: look for -l libraries in DIR first"),
    ("-W", "warning_flags", "WARNING", "-Wall etc.: accepted; omp2gpu's warnings are fixed (see -w)"),
)


def _add_lists(parser: argparse.ArgumentParser, table) -> None:
    for flag, dest, metavar, text in table:
        parser.add_argument(flag, dest=dest, action="append", default=[], metavar=metavar, help=text)


def compiler_flags(parser_class=argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The flags that say how to compile; one line per flag."""
    p = parser_class(add_help=False, allow_abbrev=False)
    _add_lists(p, SEARCH_AND_MACRO_FLAGS)
    p.add_argument("-O", dest="opt_level", type=opt_level, default=2, metavar="LEVEL",
                   help="optimisation level 0-3, s, z, g, fast (default 2)")
    p.add_argument("-std", dest="std", choices=STANDARDS, default=DEFAULT_STD, metavar="STD",
                   help=f"C standard: {', '.join(STANDARDS)} (default {DEFAULT_STD}, as gcc)")
    p.add_argument("-w", dest="no_warnings", action="store_true", help="suppress warnings")
    p.add_argument("--dump", dest="dump", type=dump_stages, action="append", default=[],
                   metavar="STAGES", help=f"print stages to stderr: comma-separated, of {','.join(DUMP_STAGES)} "
                                          "(listed below)")
    p.add_argument("--scheme", choices=REQUESTS, default=AUTO,
                   help="GPU code-generation scheme for target regions (default auto: combined "
                        "where eligible, else serial, SPMDized or the control loop; --explain says which)")
    p.add_argument("--offload-arch", dest="offload_arch", metavar="sm_XX",
                   help="GPU architecture (default: the GPU present, else sm_90)")
    p.add_argument("-march", dest="march", default=NATIVE, metavar="CPU",
                   help="the processor of host and CPU-device code: native (default: this machine's), "
                        "x86-64 (gcc's default: runs on any x86-64), x86-64-v2, -v3, -v4, or a processor "
                        "name (skylake-avx512, znver3, ...)")
    _add_lists(p, GCC_FLAGS)
    p.add_argument("-g", dest="debug_info", action="store_true",
                   help="debug information (DWARF) for gdb, valgrind and the like: host and CPU-device "
                        "code (docs/debugging.md)")
    return p


def forced_includes(macro_files, include_files) -> tuple[tuple[str, str], ...]:
    """-imacros then -include files, each as gcc takes it: a name found in the working
    directory made absolute (the preprocessor runs elsewhere), else searched for as
    #include "FILE" would be."""
    def located(name):
        return os.path.abspath(name) if os.path.isfile(name) else name
    return (tuple(("-imacros", located(name)) for name in macro_files)
            + tuple(("-include", located(name)) for name in include_files))


def compile_options(args: argparse.Namespace) -> CompileOptions:
    """The CompileOptions the parsed flags ask for (-w: this compilation's warnings off)."""
    try:
        if args.offload_arch:
            validate_arch(args.offload_arch)
        validate_march(args.march)
    except ValueError as error:
        raise CompileError(str(error)) from None
    return CompileOptions(
        include_dirs=tuple(args.include_dirs),
        defines=tuple(args.defines),
        undefines=tuple(args.undefines),
        forced_includes=forced_includes(args.macro_files, args.include_files),
        opt_level=args.opt_level,
        std=args.std,
        warnings_enabled=not args.no_warnings,
        dump=frozenset().union(*args.dump),
        scheme=args.scheme,
        offload_arch=args.offload_arch,
        libraries=libraries_to_link(args),
        library_dirs=tuple(args.library_dirs),
        debug_info=args.debug_info,
        code_rules=code_rules(args.f_flags, args.opt_level),
        offload=offload_wanted(args.f_flags),
        march=args.march,
    )


def normalise(argv: list[str]) -> list[str]:
    """gcc's bare -O means -O1; argparse would take the next word as its value."""
    return ["-O1" if arg == "-O" else arg for arg in argv]


def ignored_flag_warnings(args: argparse.Namespace) -> list[str]:
    """What the command line asked for that omp2gpu accepts and does not do."""
    notes = []
    for flag in args.f_flags:
        if flag in CODE_RULE_FLAGS:
            continue
        if flag not in HARMLESS_F_FLAGS and not flag.startswith(HARMLESS_F_PREFIXES):
            notes.append(f"-f{flag} has no effect in omp2gpu (ignored)")
    return notes


def code_rules(f_flags, opt_level: int = 2) -> CodeRules:
    """-fwrapv, -ffast-math, -fno-math-errno, -fno-strict-aliasing and their other forms,
    the last one winning; strict aliasing from -O2 on unless they say, as gcc has it."""
    chosen = {"strict_aliasing": opt_level >= 2, "speculate_loads": opt_level >= 1}
    for flag in f_flags:
        if flag in CODE_RULE_FLAGS:
            field, value = CODE_RULE_FLAGS[flag]
            chosen[field] = value
    return CodeRules(**chosen)


def offload_wanted(f_flags) -> bool:
    """-foffload=disable (gcc): target regions compiled for the host only, run there."""
    offload = True
    for flag in f_flags:
        if flag.startswith("offload="):
            offload = flag != "offload=disable"
    return offload


def libraries_to_link(args: argparse.Namespace) -> tuple[str, ...]:
    """The -l libraries a program is linked with: not those every program has already."""
    return tuple(library for library in args.libraries if library not in LINKED_ALWAYS)


def warn_ignored_flags(args: argparse.Namespace) -> None:
    if args.no_warnings:
        return
    for note in ignored_flag_warnings(args):
        print(f"omp2gpu: warning: {note}", file=sys.stderr)


def misplaced_program_arguments(command: str, inputs: list[str], argv: list[str], exists) -> str | None:
    """The message for `omp2gpu run prog.c 1000`: an input after the first that is no
    file and no source or object name is a program argument missing its `--`. The
    message shows the command line with a caret under it, and the fix."""
    if command not in ("run", "report"):
        return None
    stray = [arg for arg in inputs[1:] if not exists(arg) and not arg.endswith((".c", ".o", ".a", ".i"))]
    if not stray:
        return None
    words = ["omp2gpu", *argv]
    line = shlex.join(words)
    first = words.index(stray[0])
    column = len(shlex.join(words[:first])) + 1
    fixed = [word for word in words if word not in stray] + ["--", *stray]
    return (f"{stray[0]!r} is not a file to compile; program arguments go after `--`\n"
            f"  {line}\n  {' ' * column}{'^' * len(shlex.quote(stray[0]))}\n"
            f"note: {shlex.join(fixed)}")


def check_cpu_schedule(text: str) -> None:
    """--cpu-schedule's `policy[,chunk]` (OMP2GPU_CPU_SCHEDULE, which the CPU device reads:
    config.py parses it); ValueError names what is wrong."""
    CpuSchedule().parse(text.strip())


class _RaisingParser(argparse.ArgumentParser):
    """A parser whose errors are ValueErrors, for flags given from Python."""

    def error(self, message):
        raise ValueError(f"omp2gpu flags: {message}")


def options_from_flags(flags) -> CompileOptions:
    """CompileOptions from compiler flags spelt as on the command line (the Python API's
    `flags`: "-O3", "-DN=4", "-I", "include", "--scheme=combined"); ValueError for a bad one."""
    if isinstance(flags, str):
        raise TypeError("flags: a sequence of strings, e.g. ('-O3', '-DN=4'), not one string")
    args = compiler_flags(_RaisingParser).parse_args(normalise(list(flags)))
    warn_ignored_flags(args)
    return compile_options(args)
