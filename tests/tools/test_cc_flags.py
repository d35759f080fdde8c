"""docs/drop-in-driver.md's flag table, row by row: a *honoured* flag changes the command
omp2gpu-cc runs and is not warned of, an *accepted* one passes without a word, a *warned*
one passes with a warning naming it (tools/cc_args.py, then omp2gpu's own flag parser)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from omp2gpu.tools import cc, cc_args, cli_flags

DOC = Path(__file__).resolve().parents[2] / "docs" / "drop-in-driver.md"
ROW = re.compile(r"^\| `([^`]+)` \| (honoured|accepted|warned) \|", re.MULTILINE)
ROWS = ROW.findall(DOC.read_text())
# A value for the flags the table names alone.
SAMPLE = {"-o": ["-o", "out"], "-I": ["-Iinclude"], "-D": ["-DN=4"], "-U": ["-UN"], "-L": ["-Llib"],
          "-l": ["-lfoo"], "-Xlinker": ["-Xlinker", "-zdefs"], "-MF": ["-MF", "x.d"], "-MT": ["-MT", "t.o"],
          "-include": ["-include", "config.h"], "-imacros": ["-imacros", "config.h"],
          "-x": ["-x", "c"], "-Xopenmp-target": ["-Xopenmp-target", "-march=sm_80"]}


def _notes(words: list[str]) -> list[str]:
    command = cc_args.parse(words)
    parsed = cli_flags.compiler_flags().parse_args(cli_flags.normalise(command.flags))
    return command.notes + cli_flags.ignored_flag_warnings(parsed)


def test_the_table_has_the_flags_the_issue_lists():
    flags = {flag for flag, _ in ROWS}
    for wanted in ("-c", "-S", "-E", "-o", "-I", "-D", "-U", "-L", "-l", "-shared", "-fPIC", "-g", "-v", "-###",
                   "-M", "-MM", "-MD", "-MMD", "-MP", "-MF", "-MT", "-save-temps", "@file", "-x", "-fopenmp",
                   "--offload-arch=sm_80", "-Xopenmp-target", "-foffload=disable", "-fno-openmp", "-fwrapv",
                   "-fno-strict-aliasing", "-ffast-math", "-fno-math-errno", "-Wall", "-pedantic",
                   "-march=native"):
        assert wanted in flags, wanted


@pytest.mark.parametrize("flag,category", [row for row in ROWS if row[0] != "@file"], ids=[r[0] for r in ROWS
                                                                                             if r[0] != "@file"])
def test_flag_category(flag, category):
    words = SAMPLE.get(flag, [flag])
    bare = cc_args.parse(["prog.src"])
    command = cc_args.parse([*words, "prog.src"])
    notes = _notes([*words, "prog.src"])
    if category == "warned":
        assert notes and any(flag.split("=")[0].split(",")[0] in note for note in notes), notes
        return
    assert notes == []
    if category == "honoured":
        assert command != bare


def test_response_files(tmp_path):
    (tmp_path / "args").write_text('-DGREETING="hello world" -O3\n@' + str(tmp_path / "more"))
    (tmp_path / "more").write_text("-c")
    words = cc_args.expand_response_files([f"@{tmp_path / 'args'}", "prog.c"])
    assert words == ["-DGREETING=hello world", "-O3", "-c", "prog.c"]
    assert cc_args.parse(words).mode == "compile"


def test_cxx_sources_and_other_offload_targets_are_errors(capsys):
    assert cc.main(["prog.cpp"]) == 1
    assert "prog.cpp is C++; omp2gpu compiles C" in capsys.readouterr().err
    assert cc.main(["-x", "c++", "prog.c"]) == 1
    assert cc.main(["-fopenmp-targets=amdgcn-amd-amdhsa", "prog.c"]) == 1
    assert "omp2gpu offloads to NVIDIA GPUs" in capsys.readouterr().err


def test_modes_outputs_and_offload_arch():
    assert cc_args.parse(["-c", "-E", "a.c"]).mode == "preprocess"
    assert cc_args.parse(["-MM", "a.c"]).mode == "dependencies"
    assert cc_args.parse(["-MMD", "-c", "a.c"]).mode == "compile"
    command = cc_args.parse(["-Xopenmp-target=nvptx64-nvidia-cuda", "-march=sm_80", "a.c", "-o", "p"])
    assert "--offload-arch=sm_80" in command.flags and command.output == "p"
    assert cc_args.parse(["-std=c2x", "a.c"]).flags == ["-std=c17"]


def test_flags_taking_a_value_never_make_it_an_input():
    """Other compilers' flags with a separate value (--param, -mllvm, -Xclang) are noted and
    their value is not taken for an input file; the linker's (-T, -z, -u) go to cc's link."""
    command = cc_args.parse(["--param", "max-inline-insns=100", "-mllvm", "-x86-asm-syntax=intel", "-z", "now",
                             "prog.c"])
    assert [item.path for item in command.inputs] == ["prog.c"]
    assert command.link_flags == ["-z", "now"]
    assert any("--param max-inline-insns=100" in note for note in command.notes)
