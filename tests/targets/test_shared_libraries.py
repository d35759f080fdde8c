"""shared_libraries.py: -l NAME found in -L folders (a static archive there linked as an
input) or the system's, linker scripts
followed (wheels ship libNAME.so as `INPUT(libNAME.so.N)`), a missing one an error."""

from __future__ import annotations

import pytest

from omp2gpu.diagnostics import CompileError
from omp2gpu.targets import shared_libraries


def test_a_library_in_an_l_folder_comes_first(tmp_path):
    (tmp_path / "libdemo.so").write_bytes(b"\x7fELF not really")
    assert shared_libraries.resolve(["demo"], [str(tmp_path)]) == (str(tmp_path / "libdemo.so"),)


def test_an_archive_is_an_input_not_a_library_to_load(tmp_path):
    """In each -L folder in order, libNAME.so before libNAME.a (ld's order); an archive is
    linked as an input (archives), so resolve leaves it out."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    (first / "libdemo.a").write_bytes(b"!<arch>\n")
    (second / "libdemo.so").write_bytes(b"\x7fELF not really")
    (first / "libboth.a").write_bytes(b"!<arch>\n")
    (first / "libboth.so").write_bytes(b"\x7fELF not really")
    folders = [str(first), str(second)]
    assert shared_libraries.archives(["demo", "both", "m"], folders) == (str(first / "libdemo.a"),)
    assert shared_libraries.resolve(["demo", "both"], folders) == (str(first / "libboth.so"),)


def test_a_linker_script_names_the_real_file(tmp_path):
    (tmp_path / "libmpi.so").write_text("INPUT(libmpi.so.12)\n")
    assert shared_libraries.resolve(["mpi"], [str(tmp_path)]) == (str(tmp_path / "libmpi.so.12"),)


def test_system_libraries_are_found():
    assert shared_libraries.resolve(["m"])          # libm, as ld -lm finds it


def test_a_missing_library_is_an_error_with_a_hint(tmp_path):
    with pytest.raises(CompileError) as info:
        shared_libraries.resolve(["no_such_library_anywhere"], [str(tmp_path)])
    assert info.value.message == "cannot find -lno_such_library_anywhere"
    assert "-L DIR" in info.value.hint
