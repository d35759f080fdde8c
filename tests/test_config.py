"""omp2gpu/config.py: the one table of environment variables. Its typed settings and their
errors; that no other module reads the environment; that the table holds every variable
the sources name (Python string literals, runtime C string literals) and that README.md's
"Environment variables" table is the table's own."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from omp2gpu import config
from omp2gpu.config import SettingError, Settings, settings

REPO = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------ typed settings

def test_unset_and_blank_are_the_defaults():
    for environ in ({}, {name: "  " for name in config.BY_NAME}):
        chosen = settings(environ)
        assert chosen.code_cache is True and chosen.time_stages is False and chosen.debug is False
        assert chosen.cpu_schedule == ("steal", 0)
        assert chosen.cache_dir is None and chosen.cuda_roots == (None, None)


def test_values_parse_to_their_types():
    chosen = settings({"OMP2GPU_CODE_CACHE": "0", "OMP2GPU_TIME_STAGES": "yes", "OMP2GPU_DEBUG": "1",
                       "OMP2GPU_CPU_SCHEDULE": " Dynamic,4 ",
                       "CUDA_PATH": "/opt/cuda", "OMP2GPU_MPICC": "/x/mpicc", "CC": " gcc "})
    assert chosen.code_cache is False and chosen.time_stages is True and chosen.debug is True
    assert chosen.cpu_schedule == ("dynamic", 4)
    assert chosen.cuda_roots == (None, "/opt/cuda") and chosen.mpi_wrappers == ("/x/mpicc", None)
    assert chosen.cc == "gcc"
    assert settings({"OMP2GPU_CPU_SCHEDULE": "work-stealing"}).cpu_schedule == ("steal", 0)


@pytest.mark.parametrize("name,value,field,says", [
    ("OMP2GPU_CPU_SCHEDULE", "fastest", "cpu_schedule",
     "OMP2GPU_CPU_SCHEDULE=fastest: unknown CPU schedule policy 'fastest' (choose from static, dynamic, "
     "guided, steal)"),
    ("OMP2GPU_CPU_SCHEDULE", "static,x", "cpu_schedule", "the CPU schedule's chunk must be an integer, not 'x'"),
    ("OMP2GPU_CPU_SCHEDULE", "static,-2", "cpu_schedule", "must not be negative"),
    ("OMP2GPU_CODE_CACHE", "maybe", "code_cache", "OMP2GPU_CODE_CACHE=maybe: must be 1 or 0"),
])
def test_a_bad_value_is_an_error_naming_the_variable(name, value, field, says):
    with pytest.raises(SettingError) as raised:
        getattr(settings({name: value}), field)
    assert says in str(raised.value)
    assert isinstance(raised.value, config.CompileError)      # the CLI prints it, exit 1


def test_a_bad_value_fails_only_its_reader():
    chosen = settings({"OMP2GPU_CPU_SCHEDULE": "fastest", "OMP2GPU_CODE_CACHE": "0"})
    assert chosen.code_cache is False
    with pytest.raises(SettingError):
        config.check_for_programs({"OMP2GPU_CPU_SCHEDULE": "fastest"})
    config.check_for_programs({"OMP2GPU_CPU_SCHEDULE": "guided,2"})


def test_settings_are_a_snapshot(monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", "/first")
    chosen = settings()
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", "/second")
    assert chosen.cache_dir == "/first" and settings().cache_dir == "/second"


def test_a_childs_environment(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", "/theirs")
    made = config.child_environment(OMP_TARGET_OFFLOAD="MANDATORY", prepend_paths={"PYTHONPATH": "/ours"})
    assert made["OMP_TARGET_OFFLOAD"] == "MANDATORY" and made["PYTHONPATH"] == f"/ours{os.pathsep}/theirs"
    monkeypatch.delenv("PYTHONPATH")
    assert config.child_environment(prepend_paths={"PYTHONPATH": "/ours"})["PYTHONPATH"] == "/ours"


# ------------------------------------------------------------------ the table

def _fields() -> dict[str, config.Variable]:
    return {name: value.variable for name, value in vars(Settings).items() if isinstance(value, config._Field)}


def test_each_variable_the_compiler_reads_is_one_field():
    fields = _fields()
    read = [variable for variable in config.VARIABLES if variable.compiler]
    assert sorted(v.name for v in fields.values()) == sorted(v.name for v in read)
    for variable in read:
        assert variable.kind is not None, variable.name


def test_each_field_is_read_where_the_table_says():
    for field, variable in _fields().items():
        module = re.match(r"[\w/]+\.py", variable.compiler).group(0)
        text = (REPO / "omp2gpu" / module).read_text(encoding="utf-8")
        assert f".{field}" in text, f"{variable.name}: {module} does not read settings().{field}"


def test_names_are_listed_once():
    names = [name for variable in config.VARIABLES for name in variable.names]
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[A-Z][A-Z0-9_]*", name) for name in names)


PYTHON_LITERAL = re.compile(r"""["']((?:OMP2GPU|OMP|LIBOMPTARGET)_[A-Z0-9_]+)["']""")
C_LITERAL = re.compile(r'''"((?:OMP2GPU|OMP|LIBOMPTARGET)_[A-Z0-9_]+)"''')     # getenv("X"), flag("X"), names[]
C_GETENV = re.compile(r"""getenv\(\s*"([A-Za-z0-9_]+)"\s*\)""")
# object_file.py's payload mark; a macro libomp2gpu is compiled with (native_runtime.py)
NOT_VARIABLES = {"OMP2GPU_INPUTS", "OMP2GPU_SHARED_LIBRARY"}


def variables_in_sources() -> dict[str, str]:
    """Each variable name the sources name -> a file that names it."""
    found: dict[str, str] = {}
    for path in sorted((REPO / "omp2gpu").rglob("*.py")):
        for name in PYTHON_LITERAL.findall(path.read_text(encoding="utf-8")):
            found.setdefault(name, str(path.relative_to(REPO)))
    for path in sorted((REPO / "runtime").rglob("*.[ch]")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for name in C_LITERAL.findall(text) + C_GETENV.findall(text):
            found.setdefault(name, str(path.relative_to(REPO)))
    return {name: where for name, where in found.items() if name not in NOT_VARIABLES}


def test_the_scan_finds_the_variables_it_must():
    found = variables_in_sources()
    assert {"OMP2GPU_PROFILE", "OMP2GPU_CACHE_DIR", "OMP_TARGET_OFFLOAD", "LIBOMPTARGET_INFO",
            "OMP2GPU_CPU_UNIFIED", "OMP2GPU_NOWAIT_STREAMS"} <= set(found)     # the last two: through a helper
    assert found["OMP_DEFAULT_DEVICE"]


def test_every_variable_the_sources_name_is_in_the_table():
    missing = {name: where for name, where in variables_in_sources().items() if name not in config.BY_NAME}
    assert not missing, f"omp2gpu/config.py's VARIABLES lacks: {missing}"


def test_readme_has_the_table():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    section = text.split("### Environment variables", 1)[1].split("\n## ", 1)[0]
    table = "".join(line + "\n" for line in section.splitlines() if line.startswith("|"))
    assert table == config.markdown_table(), "README.md's table: paste `python -m omp2gpu.config`"


# ------------------------------------------------------------------ one reader

ENVIRONMENT_ACCESS = re.compile(r"\bos\.environb?\b|\bgetenv\b|\bputenv\b|\bunsetenv\b|from os import [^\n]*\benviron")


def test_the_pattern_bites():
    for line in ('x = os.environ.get("A")', 'os.getenv("A")', "from os import path, environ", "os.putenv(a, b)"):
        assert ENVIRONMENT_ACCESS.search(line), line
    assert not ENVIRONMENT_ACCESS.search('ctypes.c_void_p.in_dll(libc, "environ")')


def test_only_config_reads_the_environment():
    """Every other module gets its settings from config.py (settings(), child_environment)."""
    found = []
    for path in sorted((REPO / "omp2gpu").rglob("*.py")):
        if path == REPO / "omp2gpu" / "config.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if ENVIRONMENT_ACCESS.search(line):
                found.append(f"{path.relative_to(REPO)}:{number}: {line.strip()}")
    assert found == []


def test_a_command_checks_the_compilers_settings_first():
    with pytest.raises(SettingError, match="OMP2GPU_DEBUG=2"):
        config.check_compiler_settings({"OMP2GPU_DEBUG": "2"})
    config.check_compiler_settings({"OMP2GPU_CPU_SCHEDULE": "fastest"})    # a program's: checked for programs
