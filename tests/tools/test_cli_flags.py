"""The command line's conventions (omp2gpu/tools/cli_flags.py): every flag and --dump
stage in each command's help, flags accepted without effect warned of, `run -o` refused,
program arguments without `--` told where they go, every stage dumpable."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from omp2gpu.pipeline import DUMP_STAGES
from omp2gpu.tools import cli, cli_flags

REPO = Path(__file__).resolve().parents[2]

TARGET = """
#include <stdio.h>
int main(void) {
    int a[8];
    #pragma omp target teams distribute parallel for map(from: a[0:8])
    for (int i = 0; i < 8; i++) a[i] = i;
    printf("%d\\n", a[7]);
    return 0;
}
"""


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    """The flags --help lists (not those it hides: --native, accepted from older scripts)."""
    return {flag for action in parser._actions if action.help != argparse.SUPPRESS for flag in action.option_strings}


@pytest.mark.parametrize("command", ["run", "compile", "report"])
def test_each_commands_help_lists_every_flag_and_stage(command, capsys):
    assert cli.main([command, "--help"]) == 0
    text = capsys.readouterr().out
    parser = cli.build_parser()._subparsers._group_actions[0].choices[command]
    for flag in _flags(parser):
        assert flag in text, flag
    for stage, what in DUMP_STAGES.items():
        assert f"  {stage}" in text and what.split(" (")[0] in text.replace("\n", " "), stage
    assert "needs no GPU" in text


def test_the_top_level_help_points_to_the_commands(capsys):
    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    assert all(command in text for command in ("run", "compile", "report"))
    assert "COMMAND --help" in text


@pytest.mark.parametrize("output", [["-o", "prog"], ["-oprog"]])
def test_run_refuses_an_output_file(output, capsys):
    assert cli.main(["run", "prog.c", *output]) == 2
    assert "-o: 'run' compiles in memory and writes no file" in capsys.readouterr().err


def test_program_arguments_without_the_separator_get_a_located_hint(tmp_path, capsys):
    source = tmp_path / "prog.c"
    source.write_text("int main(void) { return 0; }\n")
    assert cli.main(["run", str(source), "1000", "x"]) == 2
    err = capsys.readouterr().err
    assert "'1000' is not a file to compile; program arguments go after `--`" in err
    line, caret = [text for text in err.splitlines() if text.startswith("  ")][:2]
    assert line[caret.index("^"):].startswith("1000") and caret.strip() == "^^^^"
    assert f"note: omp2gpu run {source} -- 1000 x" in err


def test_an_option_like_program_argument_gets_the_hint_too(tmp_path, capsys):
    source = tmp_path / "prog.c"
    source.write_text("int main(void) { return 0; }\n")
    assert cli.main(["run", str(source), "-n"]) == 2
    assert "unrecognized arguments: -n; program arguments go after `--`" in capsys.readouterr().err


def _parsed(*flags):
    return cli_flags.compiler_flags().parse_args(cli_flags.normalise(list(flags)))


def test_harmless_gcc_flags_pass_quietly():
    args = _parsed("-fopenmp", "-fPIC", "-fopenmp-targets=nvptx64", "-lm", "-lgomp", "-Wall", "-g")
    assert cli_flags.ignored_flag_warnings(args) == []


def test_flags_without_effect_are_warned_of(capsys):
    args = _parsed("-funroll-loops", "-lfoo", "-L/opt/lib", "-fopenmp", "-ffast-math", "-fwrapv")
    notes = cli_flags.ignored_flag_warnings(args)
    assert len(notes) == 1 and notes[0].startswith("-funroll-loops has no effect")
    cli_flags.warn_ignored_flags(args)
    assert capsys.readouterr().err.count("omp2gpu: warning: ") == 1
    cli_flags.warn_ignored_flags(_parsed("-funroll-loops", "-w"))
    assert capsys.readouterr().err == ""


def test_code_changing_flags_are_honoured():
    """-fwrapv, -ffast-math, -fno-math-errno (the last of a pair winning, as in gcc) and
    -foffload=disable reach CompileOptions; -fno-strict-aliasing is what omp2gpu does."""
    options = cli_flags.compile_options(_parsed("-fwrapv", "-ffast-math", "-fno-fast-math", "-fno-math-errno",
                                                "-fno-strict-aliasing"))
    assert (options.code_rules.wrapv, options.code_rules.fast_math, options.code_rules.math_errno) == \
        (True, False, False)
    assert options.code_rules.math_is_pure() and options.offload
    assert not cli_flags.compile_options(_parsed("-foffload=disable")).offload
    assert cli_flags.compile_options(_parsed("-foffload=disable", "-foffload=nvptx-none")).offload
    assert cli_flags.ignored_flag_warnings(_parsed("-fno-strict-aliasing", "-fwrapv")) == []


def test_libraries_a_program_is_linked_with():
    """-l libraries are linked (native_link.library_flags), but not those every program has
    already (libgomp beside libiomp5 would mix two runtimes)."""
    assert cli_flags.libraries_to_link(_parsed("-lm", "-lfoo", "-lgomp", "-lmpi")) == ("foo", "mpi")


def test_flags_from_python_are_warned_of_as_well(capsys):
    cli_flags.options_from_flags(["-funroll-loops"])
    assert "-funroll-loops has no effect" in capsys.readouterr().err


def test_device_stages_are_dumped_without_a_device(tmp_path):
    source = tmp_path / "prog.c"
    source.write_text(TARGET)
    # In a process of its own: --device sets the launcher's environment variables.
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(source), "--device", "host",
                           "--dump=device-ir,ptx,cpu-ir,cpu-opt-ir"], env=env, capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, done.stdout) == (0, "7\n"), done.stderr
    for stage in ("device-ir", "ptx", "cpu-ir", "cpu-opt-ir"):
        assert f"===== omp2gpu dump: {stage} ({source}) =====" in done.stderr
    assert ".entry __omp_offloading_main_l" in done.stderr          # PTX made by llvmlite's NVPTX target
    assert "warning" not in done.stderr


def test_compile_warns_of_the_stages_its_output_does_not_reach(tmp_path, capfd, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prog.c").write_text(TARGET)
    assert cli.main(["compile", "-c", "prog.c", "--dump=ir,ptx"]) == 0
    err = capfd.readouterr().err
    assert "dump: ir (prog.c)" in err
    assert "omp2gpu: warning: --dump: 'omp2gpu compile' produced no ptx here" in err
    assert cli.main(["compile", "-S", "prog.c", "--dump=ptx"]) == 0
    err = capfd.readouterr().err
    assert "dump: ptx (prog.c)" in err and "warning" not in err


def test_flags_from_python_are_the_command_lines():
    """The Python API's `flags` (omp2gpu.load) parse as the command line's do."""
    options = cli_flags.options_from_flags(["-O3", "-DN=4", "-I", "include", "-Uold", "--scheme=combined",
                                            "-std=gnu11", "-fopenmp"])
    assert (options.opt_level, options.defines, options.include_dirs, options.undefines) == \
        (3, ("N=4",), ("include",), ("old",))
    assert (options.scheme, options.std) == ("combined", "gnu11")
    assert cli_flags.options_from_flags(["-O"]).opt_level == 1
    for bad, message in ((["-O9"], "unknown optimisation level"), (["--fast"], "unrecognized"),
                         (["prog.c"], "unrecognized arguments: prog.c"), (["-o", "x"], "unrecognized")):
        with pytest.raises(ValueError, match=message):
            cli_flags.options_from_flags(bad)
