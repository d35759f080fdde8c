"""disk_cache: writes that never leave half a file, code entries read back whole or not
at all, the size cap, the switch."""

from __future__ import annotations

import os

import pytest

from omp2gpu import disk_cache

OBJECTS = (b"\x7fELF first", b"\x7fELF second")
NAMES = {"constructors": ["init"]}


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path))
    monkeypatch.delenv(disk_cache.CODE_CACHE_SWITCH, raising=False)
    disk_cache._checked_cache_dir.cache_clear()         # each test checks its directory afresh
    return tmp_path


def test_an_entry_reads_back_as_it_was_written():
    path = disk_cache.entry_path("program", "k1")
    disk_cache.write_entry(path, NAMES, OBJECTS)
    assert disk_cache.read_entry(path) == (NAMES, OBJECTS)
    assert disk_cache.read_entry(disk_cache.entry_path("program", "k2")) is None


@pytest.mark.parametrize("damage", [
    lambda data: data[:-1],                                   # truncated payload
    lambda data: data[:len(data) // 3],                       # truncated header
    lambda data: data[:-3] + b"XYZ",                          # payload changed
    lambda data: b"",
    lambda data: data.replace(b'"lengths": [', b'"lengths": [1, '),
    lambda data: data.replace(b'"names": {', b'"names": [{').replace(b"]}}", b"]}]}"),
    lambda data: b"not an entry at all\n" + data,
])
def test_a_damaged_entry_is_a_miss(damage):
    path = disk_cache.entry_path("program", "k")
    disk_cache.write_entry(path, NAMES, OBJECTS)
    path.write_bytes(damage(path.read_bytes()))
    assert disk_cache.read_entry(path) is None


def test_cached_entry_text_makes_only_what_is_missing_or_damaged():
    made = []

    def make():
        made.append(1)
        return "ptx text"
    assert disk_cache.cached_entry_text("ptx", "k", make) == "ptx text"
    assert disk_cache.cached_entry_text("ptx", "k", make) == "ptx text"
    assert len(made) == 1
    path = disk_cache.entry_path("ptx", "k")
    path.write_bytes(path.read_bytes()[:-2])
    assert disk_cache.cached_entry_text("ptx", "k", make) == "ptx text"
    assert len(made) == 2 and disk_cache.read_entry(path) == ({}, (b"ptx text",))


def test_prune_removes_the_least_recently_used(private_cache):
    paths = [disk_cache.entry_path("program", f"k{number}") for number in range(4)]
    for number, path in enumerate(paths):
        disk_cache.write_entry(path, {}, (b"x" * 1000,))
        os.utime(path, (1000 + number, 1000 + number))
    disk_cache.read_entry(paths[0])                           # used now: the newest
    disk_cache.prune(private_cache, 2 * paths[0].stat().st_size)
    assert [path.exists() for path in paths] == [True, False, False, True]


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(blocked / "cache"))
    disk_cache.write_entry(disk_cache.entry_path("program", "k"), {}, OBJECTS)
    assert disk_cache.read_entry(disk_cache.entry_path("program", "k")) is None
    assert disk_cache.cached_text(blocked / "cache" / "runtime.ll", lambda: "ir") == "ir"


def test_write_atomically_leaves_no_temporary_file(private_cache):
    disk_cache.write_atomically(private_cache / "sub" / "file.ll", b"first")
    disk_cache.write_atomically(private_cache / "sub" / "file.ll", b"second")
    assert [path.name for path in (private_cache / "sub").iterdir()] == ["file.ll"]
    assert (private_cache / "sub" / "file.ll").read_bytes() == b"second"


def test_the_switch(monkeypatch):
    assert disk_cache.code_cache_enabled()
    monkeypatch.setenv(disk_cache.CODE_CACHE_SWITCH, "0")
    assert not disk_cache.code_cache_enabled()


# --- a safe cache: its directory, its owner, the runtimes' checksummed IR -----------

def test_the_cache_directory_is_created_private_even_under_umask_000(tmp_path, monkeypatch):
    wanted = tmp_path / "made" / "omp2gpu"
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(wanted))
    old = os.umask(0)
    try:
        assert disk_cache.cache_dir() == wanted
    finally:
        os.umask(old)
    assert wanted.stat().st_mode & 0o777 == 0o700


def test_a_directory_of_another_owner_is_not_used(tmp_path, monkeypatch, capsys):
    wanted = tmp_path / "theirs"
    wanted.mkdir(mode=0o700)
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(wanted))
    monkeypatch.setattr(disk_cache, "current_uid", lambda: os.geteuid() + 1)   # pretend: not ours
    used = disk_cache.cache_dir()
    assert used != wanted and used.is_dir() and used.stat().st_uid == os.geteuid()
    assert used.stat().st_mode & 0o777 == 0o700
    assert disk_cache.cache_dir() == used            # the same stand-in, warned once
    err = capsys.readouterr().err
    assert err.count("warning") == 1 and str(wanted) in err and "owned by another user" in err


def test_a_directory_writable_by_others_is_not_used(tmp_path, monkeypatch, capsys):
    wanted = tmp_path / "open"
    wanted.mkdir()
    os.chmod(wanted, 0o777)
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(wanted))
    assert disk_cache.cache_dir() != wanted
    err = capsys.readouterr().err
    assert "writable by other users (mode 0777" in err and f"chmod 700 {wanted}" in err
    disk_cache.cached_text(disk_cache.cache_dir() / "x.ll", lambda: "ir")
    assert list(wanted.iterdir()) == []              # nothing written where others could write


def _make(made, text="define void @f() { ret void }\n"):
    def make():
        made.append(1)
        return text
    return make


def test_cached_ir_carries_its_checksum_and_is_read_back():
    made = []
    path = disk_cache.cache_dir() / "host-runtime-k.ll"
    assert disk_cache.cached_text(path, _make(made)) == "define void @f() { ret void }\n"
    assert path.read_text().startswith("; sha256 ")
    assert disk_cache.cached_text(path, _make(made)) == "define void @f() { ret void }\n"
    assert made == [1]


@pytest.mark.parametrize("damage", [
    lambda data: data[:-5],                                          # truncated
    lambda data: data.replace(b"ret void", b"ret vodi"),             # corrupted
    lambda data: data.split(b"\n", 1)[1],                            # no checksum (an old file)
    lambda data: b"; sha256 " + b"0" * 64 + b"\ndefine i32 @omp_get_num_devices() { ret i32 1337 }\n",
    lambda data: b"\xff\xfe" + data,
])
def test_damaged_or_replaced_ir_is_rebuilt_not_fatal(damage):
    made = []
    path = disk_cache.cache_dir() / "cpu-runtime-k.ll"
    disk_cache.cached_text(path, _make(made))
    path.write_bytes(damage(path.read_bytes()))
    assert disk_cache.cached_text(path, _make(made)) == "define void @f() { ret void }\n"
    assert made == [1, 1]
    assert disk_cache.cached_text(path, _make(made)) == "define void @f() { ret void }\n"
    assert made == [1, 1]                            # the rebuilt file is good again


def test_a_file_owned_by_another_user_is_never_read(monkeypatch):
    made = []
    path = disk_cache.cache_dir() / "host-runtime-k.ll"
    disk_cache.cached_text(path, _make(made))
    entry = disk_cache.entry_path("program", "k")
    disk_cache.write_entry(entry, NAMES, OBJECTS)
    monkeypatch.setattr(disk_cache, "current_uid", lambda: os.geteuid() + 1)
    assert disk_cache.read_entry(entry) is None
    assert disk_cache.cached_text(path, _make(made)) and made == [1, 1]
