"""shared_libraries.py: -l NAME found in the -L folders as ld finds it, so that a static
archive there is linked as an input."""

from __future__ import annotations

from omp2gpu.targets import shared_libraries


def test_a_library_in_an_l_folder_is_found_there(tmp_path):
    (tmp_path / "libdemo.so").write_bytes(b"\x7fELF not really")
    assert shared_libraries.in_directories("demo", [str(tmp_path)]) == str(tmp_path / "libdemo.so")
    assert shared_libraries.in_directories("other", [str(tmp_path)]) is None


def test_the_archives_are_those_ld_would_take(tmp_path):
    """In each -L folder in order, libNAME.so before libNAME.a (ld's order)."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir(), second.mkdir()
    (first / "libdemo.a").write_bytes(b"!<arch>\n")
    (second / "libdemo.so").write_bytes(b"\x7fELF not really")
    (first / "libboth.a").write_bytes(b"!<arch>\n")
    (first / "libboth.so").write_bytes(b"\x7fELF not really")
    folders = [str(first), str(second)]
    assert shared_libraries.archives(["demo", "both", "m"], folders) == (str(first / "libdemo.a"),)
