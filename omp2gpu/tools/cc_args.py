"""gcc's command line read into what `omp2gpu-cc` is asked to do (docs/drop-in-driver.md).

The words are sorted as gcc sorts them: the mode (-E, -M/-MM, -S, -c, else a link),
the inputs with their language (-x, else the suffix), the compiler's flags (spelt for
omp2gpu's own parser, tools/cli_flags.py), the link's flags (-L -l -Wl, objects omp2gpu
did not make), the dependency-file flags, and a note for each flag accepted without an
effect or not known at all: a warning naming it, never a failure, as a drop-in compiler
must build a project whose Makefile was written for gcc.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from pathlib import Path

from omp2gpu.diagnostics import CompileError

C_SUFFIXES = (".c", ".i")
CXX_SUFFIXES = (".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C", ".ii", ".hpp", ".hxx", ".hh")
ASSEMBLER_SUFFIXES = (".s", ".S", ".sx")
NVPTX_TRIPLES = ("nvptx64", "nvptx64-nvidia-cuda", "nvptx64-nvidia-cuda-ptx", "nvptx-none", "nvptx64-none")

# Flags taking the next word as their value (or joined: -Ifoo, -o out); the key is where it goes.
VALUE_FLAGS = {"-o": "output", "-I": "include", "-isystem": "include", "-iquote": "include",
               "-idirafter": "include", "-D": "define", "-U": "undefine", "-L": "library_dir", "-l": "library",
               "-x": "language", "-MF": "dep_file", "-MT": "dep_target", "-MQ": "dep_quoted_target",
               "-Xopenmp-target": "offload_option", "-Xlinker": "linker",
               "-include": "forced_include", "-imacros": "forced_include",
               "-Xassembler": "assembler", "-Xpreprocessor": "preprocessor_option"}
# Other compilers' flags that take the next word, accepted with a note (their value is
# not an input), and the linker's, passed to cc's link with their value.
IGNORED_VALUE_FLAGS = ("--param", "-Xclang", "-mllvm", "-target", "-B", "-aux-info", "-dumpbase", "-dumpdir",
                       "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-MJ")
LINK_VALUE_FLAGS = ("-T", "-z", "-u", "-e")
# Flags whose value is only ever joined: -std=c99, --offload-arch=sm_80.
JOINED_ONLY = ("-std=", "--offload-arch=", "--scheme=", "--dump=")
# Accepted and passed to cc's link as they are.
LINK_WORDS = ("-shared", "-static", "-rdynamic", "-pie", "-no-pie", "-s", "-pthread", "-nostdlib",
              "-nostartfiles", "-static-libgcc")
# Accepted with no effect and no word: what they ask is what omp2gpu does or needs no action.
QUIET_WORDS = ("-pipe", "-pedantic", "-pedantic-errors", "-C", "-P", "-MG")


@dataclass
class Input:
    path: str
    language: str                # "c", "object" (linked as given), "assembler"


@dataclass
class DependencyRequest:
    """gcc's -M family: -M/-MM (only the rule, to stdout or -MF/-o), -MD/-MMD (beside the
    object), -MP (a phony target per header), -MF FILE, -MT/-MQ TARGET."""
    system_headers: bool = True          # -M/-MD; False: -MM/-MMD
    with_compile: bool = False           # -MD/-MMD: the object too
    phony: bool = False
    file: str | None = None
    targets: list = field(default_factory=list)       # ("-MT" | "-MQ", target)


@dataclass
class CcCommand:
    mode: str = "link"                   # "preprocess" | "dependencies" | "assemble" | "compile" | "link"
    inputs: list = field(default_factory=list)
    output: str | None = None
    flags: list = field(default_factory=list)          # omp2gpu's compiler flags (cli_flags spelling)
    link_flags: list = field(default_factory=list)     # for cc's link, in order
    shared: bool = False
    dependencies: DependencyRequest | None = None
    verbose: bool = False                # -v
    dry_run: bool = False                # -###
    save_temps: bool = False
    print_macros: bool = False           # -dM with -E
    openmp: bool = True                  # -fno-openmp: serial code
    notes: list = field(default_factory=list)          # warnings about flags, in order


def expand_response_files(argv: list[str], depth: int = 0) -> list[str]:
    """@FILE replaced by the words of FILE (shell quoting, nested files too), as gcc does; an
    @word naming no file stays as it is."""
    words = []
    for arg in argv:
        if arg.startswith("@") and len(arg) > 1 and Path(arg[1:]).is_file() and depth < 16:
            words += expand_response_files(shlex.split(Path(arg[1:]).read_text()), depth + 1)
        else:
            words.append(arg)
    return words


def _language_of(path: str, forced: str | None) -> str:
    if forced in ("c", "cpp-output", "c-header"):
        return "c"
    if forced in ("c++", "c++-cpp-output", "c++-header"):
        return "c++"
    if forced in ("assembler", "assembler-with-cpp"):
        return "assembler"
    if forced not in (None, "none"):
        raise CompileError(f"-x {forced}: omp2gpu compiles C (-x c)")
    if path.endswith(C_SUFFIXES):
        return "c"
    if path.endswith(CXX_SUFFIXES):
        return "c++"
    if path.endswith(ASSEMBLER_SUFFIXES):
        return "assembler"
    return "object"                      # .o, .a, .so, anything else: the link's


class _Words:
    def __init__(self, words):
        self.words, self.at = words, 0

    def next(self, flag: str) -> str:
        if self.at >= len(self.words):
            raise CompileError(f"missing argument to '{flag}'")
        self.at += 1
        return self.words[self.at - 1]


def parse(argv: list[str]) -> CcCommand:
    """The command gcc would see in `argv` (response files expanded already)."""
    command = CcCommand()
    words = _Words(argv)
    language: str | None = None
    modes = set()
    while words.at < len(argv):
        arg = words.next("")
        if arg == "-" and language in (None, "none"):
            raise CompileError("-E or -x is required when input is from standard input")
        if not arg.startswith("-") or arg == "-":
            kind = _language_of(arg, language)
            if kind == "c++":
                raise CompileError(f"{arg} is C++; omp2gpu compiles C (compile it with a C++ compiler, "
                                   "or rename it if it is C)")
            command.inputs.append(Input(arg, kind))
            continue
        flag, value = _split_value(arg, words)
        if flag is not None:
            language = _take_value(command, flag, value, language)
            continue
        _take_word(command, arg, modes)
    for mode in ("preprocess", "dependencies", "assemble", "compile"):
        if mode in modes:
            command.mode = mode
            break
    return command


def _split_value(arg: str, words: _Words) -> tuple[str | None, str | None]:
    """(flag, value) of a flag taking a value, else (None, None)."""
    if arg.startswith("-Xopenmp-target="):          # -Xopenmp-target=TRIPLE ARG: ARG for that target
        triple = arg.split("=", 1)[1]
        if not triple.startswith(NVPTX_TRIPLES):
            raise CompileError(f"{arg}: omp2gpu offloads to NVIDIA GPUs (nvptx64-nvidia-cuda) only")
        return "-Xopenmp-target", words.next(arg)
    for prefix in JOINED_ONLY:
        if arg.startswith(prefix):
            return prefix.rstrip("="), arg[len(prefix):]
    if arg in VALUE_FLAGS or arg in IGNORED_VALUE_FLAGS or arg in LINK_VALUE_FLAGS:
        return arg, words.next(arg)
    for flag in ("-I", "-D", "-U", "-L", "-l", "-o", "-x"):
        if arg.startswith(flag) and len(arg) > 2:
            return flag, arg[2:]
    return None, None


def _take_value(command: CcCommand, flag: str, value: str, language):
    kind = VALUE_FLAGS.get(flag, flag)
    if kind == "output":
        command.output = value
    elif kind == "include":
        command.flags += ["-I", value]
    elif kind == "forced_include":
        command.flags += [flag, value]
    elif kind in ("define", "undefine"):
        command.flags.append(f"{flag}{value}")
    elif kind == "library_dir":
        command.flags.append(f"-L{value}")
    elif kind == "library":
        command.flags.append(f"-l{value}")
    elif kind == "language":
        return value
    elif kind in ("dep_file", "dep_target", "dep_quoted_target"):
        request = command.dependencies or DependencyRequest()
        command.dependencies = request
        if kind == "dep_file":
            request.file = value
        else:
            request.targets.append((flag, value))
    elif kind == "linker":
        command.link_flags += ["-Xlinker", value]
    elif flag in LINK_VALUE_FLAGS:
        command.link_flags += [flag, value]
    elif kind in ("-Xopenmp-target", "offload_option"):
        _offload_option(command, value)
    elif flag == "-std":
        command.flags.append(f"-std={_standard(command, value)}")
    elif flag == "--offload-arch":
        command.flags.append(f"--offload-arch={value}")
    elif flag in ("--scheme", "--dump"):
        command.flags.append(f"{flag}={value}")
    else:                                # -Xassembler, -Xpreprocessor, other compilers' (--param ...)
        command.notes.append(f"'{flag} {value}' is not supported by omp2gpu-cc (ignored)")
    return language


def _standard(command: CcCommand, value: str) -> str:
    """gcc's -std spellings onto those omp2gpu has: ISO 9899 names, and the C2x drafts read
    as C17 (with a note: their new features are not in omp2gpu)."""
    aliases = {"iso9899:1990": "c90", "iso9899:199409": "c90", "iso9899:1999": "c99", "iso9899:2011": "c11",
               "iso9899:2017": "c17", "iso9899:2018": "c17", "c9x": "c99", "gnu9x": "gnu99",
               "c1x": "c11", "gnu1x": "gnu11"}
    if value in ("c2x", "gnu2x", "c23", "gnu23"):
        command.notes.append(f"-std={value}: omp2gpu compiles C17; read as -std={value[:-2].replace('2', '')}17")
        return "gnu17" if value.startswith("gnu") else "c17"
    return aliases.get(value, value)


def _offload_option(command: CcCommand, value: str) -> None:
    """-Xopenmp-target[=triple] ARG: the offload architecture (-march=sm_80,
    --offload-arch=sm_80); anything else a note."""
    for prefix in ("-march=", "--offload-arch=", "-mcpu="):
        if value.startswith(prefix):
            command.flags.append(f"--offload-arch={value[len(prefix):]}")
            return
    if value.startswith(NVPTX_TRIPLES) or value.startswith("-fopenmp-targets"):
        return
    command.notes.append(f"-Xopenmp-target {value} is not supported by omp2gpu-cc (ignored)")


def _take_word(command: CcCommand, arg: str, modes: set) -> None:
    """A flag without a value."""
    simple_modes = {"-E": "preprocess", "-S": "assemble", "-c": "compile"}
    if arg in simple_modes:
        modes.add(simple_modes[arg])
    elif arg in ("-M", "-MM", "-MD", "-MMD", "-MP"):
        _dependency_word(command, arg, modes)
    elif arg == "-v":
        command.verbose = True
    elif arg == "-###":
        command.dry_run = True
    elif arg == "-dM":
        command.print_macros = True
    elif arg.startswith("-save-temps"):
        command.save_temps = True
    elif arg == "-ansi":
        command.flags.append("-std=c90")
    elif arg.startswith("-O") or arg == "-w":
        command.flags.append(arg)
    elif arg.startswith("-g"):
        if arg not in ("-g0",):
            command.flags.append("-g")
    elif arg in LINK_WORDS:
        command.shared |= arg == "-shared"
        if arg != "-shared":
            command.link_flags.append(arg)
    elif arg.startswith("-Wl,"):
        command.link_flags.append(arg)
    elif arg.startswith(("-Wa,", "-Wp,")):
        command.notes.append(f"{arg.split(',')[0]}: omp2gpu-cc runs no separate assembler or preprocessor "
                             f"pass; '{arg}' ignored")
    elif arg.startswith("-f"):
        _f_flag(command, arg[2:])
    elif arg.startswith("-m"):
        _machine_flag(command, arg)
    elif arg in QUIET_WORDS or arg.startswith("-W"):
        pass                             # warning options: omp2gpu's own warnings are fixed (-w)
    else:
        command.notes.append(f"unknown flag '{arg}' ignored")


def _dependency_word(command: CcCommand, arg: str, modes: set) -> None:
    request = command.dependencies or DependencyRequest()
    command.dependencies = request
    if arg == "-MP":
        request.phony = True
        return
    request.system_headers = arg in ("-M", "-MD")
    if arg in ("-MD", "-MMD"):
        request.with_compile = True
    else:
        modes.add("dependencies")


def _f_flag(command: CcCommand, flag: str) -> None:
    """-f flags: OpenMP and offloading read here; the rest go to omp2gpu's parser, which
    honours those that change code (cli_flags.CODE_RULE_FLAGS) and warns of the others."""
    if flag in ("openmp", "openmp-simd"):
        command.openmp = True
    elif flag == "no-openmp":
        command.openmp = False
    elif flag.startswith("openmp-targets="):
        for target in flag.split("=", 1)[1].split(","):
            if target not in NVPTX_TRIPLES and not target.startswith("nvptx64-"):
                raise CompileError(f"-fopenmp-targets={target}: omp2gpu offloads to NVIDIA GPUs "
                                   f"(-fopenmp-targets=nvptx64-nvidia-cuda) and its CPU device only")
    elif flag.startswith("offload="):
        target = flag.split("=", 1)[1]
        if target.startswith("-"):       # gcc's -foffload=-lm: options for the offload compiler
            command.notes.append(f"-f{flag}: options for gcc's offload compiler are not used by omp2gpu")
        elif target != "disable" and not all(t in NVPTX_TRIPLES or t == "default" for t in target.split(",")):
            raise CompileError(f"-f{flag}: omp2gpu offloads to nvptx-none only (or -foffload=disable)")
        else:
            command.flags.append(f"-f{flag}")
    else:
        command.flags.append(f"-f{flag}")


def _machine_flag(command: CcCommand, arg: str) -> None:
    if arg == "-m64":
        return
    if arg == "-m32":
        raise CompileError("-m32: omp2gpu compiles for x86-64 only")
    if arg.startswith("-march="):
        command.flags.append(arg)        # the processor of host and CPU-device code
        return
    if arg.startswith(("-mtune=", "-mcpu=")):
        command.notes.append(f"{arg}: omp2gpu tunes for the processor -march names (default native); "
                             "accepted, no effect")
        return
    command.notes.append(f"machine flag '{arg}' ignored")
