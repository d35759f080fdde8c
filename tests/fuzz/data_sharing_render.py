"""The C text of a data_sharing_programs.Program: one function per test, each
initialising its variables, running its construct nesting and printing a checksum of
every variable whose value afterwards is defined."""

from __future__ import annotations

from dataclasses import replace

from .data_sharing_programs import DEFAULT, SHARED, Program, Test, Variable

SOURCE_ROLES = ("in", "priv", "fpriv", "scratch")
WRITTEN_ROLES = ("out", "red", "last")


def render(program: Program) -> str:
    """The whole C file."""
    lines = ["#include <stdio.h>", ""]
    for test in program.tests:
        lines += [line for v in test.variables for line in _file_scope(v, test.size)]
    for test in program.tests:
        lines += ["", *_function(test)]
    lines += ["", "int main(void)", "{"]
    lines += [f"    test{t.number}({t.size});" for t in program.tests]
    lines += ['    printf("done\\n");', "    return 0;", "}", ""]
    return "\n".join(lines)


# ---- declarations and host code ---------------------------------------------------------

def _storage_name(v: Variable) -> str:
    """The object that holds the data: a pointer's array is NAME_store."""
    return f"{v.name}_store" if v.kind == "pointer" else v.name


def _declarator(v: Variable, size: int) -> str:
    name = _storage_name(v)
    if v.kind == "scalar":
        return f"{v.ctype} {name}"
    if v.kind == "struct":
        return f"struct {v.name}_t {name}"
    return f"{v.ctype} {name}[{'n' if v.kind == 'vla' else size}]"


def _initialiser(v: Variable, size: int) -> str:
    if not v.initialised:
        return ""
    if v.kind == "scalar":
        return f" = {v.constant + 2}"
    return " = {" + ", ".join(str(_initial(v, j)) for j in range(size)) + "}"


def _initial(v: Variable, j: int) -> int:
    return (j * v.constant + 1) % 100


def _file_scope(v: Variable, size: int) -> list[str]:
    """A pointer has the storage class of the array it points to."""
    lines = [f"struct {v.name}_t {{ int n; {v.ctype} v[{size}]; }};"] if v.kind == "struct" else []
    declarations = [f"{_declarator(v, size)}{_initialiser(v, size)}"]
    if v.kind == "pointer":
        declarations.append(f"{v.ctype} *{v.name}")
    if v.storage == "file_static":
        lines += [f"static {d};" for d in declarations]
    elif v.storage == "file_extern":
        lines += [f"{d};" for d in declarations]
    if v.on_target == "declare_target":
        lines = ["#pragma omp declare target", *lines, "#pragma omp end declare target"]
    return lines


def _local_declarations(v: Variable, size: int) -> list[str]:
    declarations = [f"{_declarator(v, size)}{_initialiser(v, size)}"]
    if v.kind == "pointer":
        declarations.append(f"{v.ctype} *{v.name}")
    if v.storage == "file_extern":
        return [f"extern {_declarator(v, size)};"] + ([f"extern {v.ctype} *{v.name};"] if v.kind == "pointer" else [])
    if v.storage == "block_static":
        return [f"static {d};" for d in declarations]
    if v.storage == "auto":
        return [f"{d};" for d in declarations]
    return []


def _element(v: Variable, index: str) -> str:
    if v.kind == "scalar":
        return v.name
    return f"{v.name}.v[{index}]" if v.kind == "struct" else f"{v.name}[{index}]"


def _for(size: int, index: str = "j") -> str:
    return f"for (int {index} = 0; {index} < {size}; {index}++)"


def _initialisation(v: Variable, size: int) -> list[str]:
    if v.kind == "pointer":
        return [f"{v.name} = {_storage_name(v)};", *_initialisation(replace(v, kind="array"), size)]
    if v.initialised:
        return []
    if v.kind == "scalar":
        return [f"{v.name} = {v.constant + 2};"]
    lines = [f"{v.name}.n = {v.constant};"] if v.kind == "struct" else []
    return lines + [f"{_for(size)} {_element(v, 'j')} = ({v.ctype})((j * {v.constant} + 1) % 100);"]


def _checksum(test: Test, v: Variable, label: str) -> list[str]:
    where = f"test{test.number} {label}{v.name}"
    if v.kind == "scalar":
        return [f'printf("{where} %ld\\n", (long){v.name});']
    start = f"{v.name}.n" if v.kind == "struct" else "17"
    return ["{",
            f"    unsigned long h = (unsigned long)({start});",
            f"    {_for(test.size)} h = h * 31u + (unsigned long)(long){_element(v, 'j')};",
            f'    printf("{where} %lu\\n", h);',
            "}"]


def _function(test: Test) -> list[str]:
    body = [line for v in test.variables for line in _local_declarations(v, test.size)]
    body += [line for v in test.variables for line in _initialisation(v, test.size)]
    on_device = [v for v in test.variables if v.on_target == "declare_target"]
    written = [v for v in on_device if v.role != "in"]
    body += [f"#pragma omp target update to({', '.join(v.name for v in on_device)})"] if on_device else []
    body += _data_region(test)
    body += [f"#pragma omp target update from({', '.join(v.name for v in written)})"] if written else []
    body += [line for v in test.variables if v.printed for line in _checksum(test, v, "")]
    return [f"static void test{test.number}(int n)", "{", "    (void)n;",
            *("    " + line for line in body), "}"]


# ---- the device data environment around the construct ----------------------------------

def _section(v: Variable, size: int) -> str:
    if v.kind == "pointer":
        return f"{v.name}[0:{size}]"
    if v.kind == "vla":
        return f"{v.name}[0:n]"
    if v.kind == "array" and v.constant % 2 == 0:
        return f"{v.name}[0:{size}]"
    return v.name


def _data_region(test: Test) -> list[str]:
    construct = _construct(test)
    present = [v for v in test.variables if v.on_target == "present"]
    if not test.data_region or not present:
        return construct
    inputs = [v for v in present if v.role == "in"]
    outputs = [v for v in present if v.role != "in"]
    maps = _maps("to", inputs, test.size) + _maps("tofrom", outputs, test.size)
    if test.data_region == "enter_exit":
        return ([f"#pragma omp target enter data {_maps('to', present, test.size)}", *construct,
                 f"#pragma omp target exit data {_maps('from', outputs, test.size)}"
                 f" {_maps('release', inputs, test.size)}"])
    inside = construct
    if test.data_region == "data_update" and outputs:
        names = ", ".join(_section(v, test.size) for v in outputs)
        inside = [*construct, f"#pragma omp target update from({names})",
                  *(line for v in outputs for line in _checksum(test, v, "mid ")),
                  *(line for v in outputs for line in _host_change(v, test.size)),
                  f"#pragma omp target update to({names})", *construct]
    return [f"#pragma omp target data {maps}", "{", *("    " + line for line in inside), "}"]


def _maps(kind: str, variables: list[Variable], size: int) -> str:
    return f"map({kind}: {', '.join(_section(v, size) for v in variables)})" if variables else ""


def _host_change(v: Variable, size: int) -> list[str]:
    if v.kind == "scalar":
        return [f"{v.name} += 1;"]
    return [f"{_for(size)} {_element(v, 'j')} += 1;"]


# ---- clauses ----------------------------------------------------------------------------

def _target_clauses(v: Variable, size: int) -> list[str]:
    how = v.on_target
    if how in ("to", "tofrom", "from", "alloc"):
        return [f"map({how}: {_section(v, size)})"]
    if how in ("firstprivate", "private"):
        return [f"{how}({v.name})"]
    if how == "members":
        return [f"map({'to' if v.role == 'in' else 'tofrom'}: {v.name}.n, {v.name}.v[0:{size}])"]
    if how == "present" and (v.kind in ("scalar", "pointer") or v.constant % 2):
        return [f"map({'to' if v.role == 'in' else 'tofrom'}: {_section(v, size)})"]
    return []


def clauses(test: Test, layer: int, variables: tuple[Variable, ...] | None = None) -> str:
    """The clauses of the test's `layer` (0: the target construct) for `variables`."""
    variables = test.variables if variables is None else variables
    words = []
    for v in variables:
        named = [f"{word}({_listed(v, word)})" for at, word in v.clauses if at == layer]
        if layer == 0:
            named += _target_clauses(v, test.size)
        takes_sharing = layer in test.default_none
        if takes_sharing and not any(c.split("(")[0] in ("private", "firstprivate", "reduction",
                                                         "lastprivate", "shared") for c in named):
            named.append(f"{SHARED}({v.name})")
        words += named
    if layer == 0 and any(v.on_target == "defaultmap" for v in variables):
        words.append("defaultmap(tofrom:scalar)")
    if layer == 0 and test.on_host:
        words.append("if(target: n < 0)")
    words += [text for at, text in test.schedules if at == layer]
    if layer in test.default_none:
        words.append(f"{DEFAULT}(none)")
        if any(v.kind == "vla" for v in variables):
            words.append("firstprivate(n)")
    return " ".join(words)


def _listed(v: Variable, word: str) -> str:
    return f"{v.reduction_op}:{v.name}" if word == "reduction" else v.name


def _pragma(test: Test, layer: int, variables=None) -> str:
    directive = test.shape.layers[layer].directive
    return f"#pragma omp {directive} {clauses(test, layer, variables)}".rstrip()


# ---- the construct and its body -----------------------------------------------------------

def _construct(test: Test) -> list[str]:
    shape = test.shape
    pragmas = [_pragma(test, layer) for layer in range(len(shape.layers))]
    if shape.body == "loop":
        return [*pragmas, f"{_for(test.size, 'i')}", "{", *_indent(_loop_body(test)), "}"]
    if shape.body == "seq":
        return [*pragmas, "{", *_indent(_sequential(test, test.variables)), "}"]
    if shape.body == "tasks":
        return [*pragmas, "{", *_indent(_tasks(test)), "}"]
    if shape.body == "sections":
        return [*pragmas, "{", *_indent(_sections(test)), "}"]
    return _nowait_targets(test)


def _indent(lines: list[str]) -> list[str]:
    return ["    " + line for line in lines]


def _source_terms(test: Test, index: str, variables) -> str:
    terms = []
    for v in variables:
        if v.role in SOURCE_ROLES:
            term = f"(long){_element(v, index)}"
            terms.append(f"{term} + {v.name}.n" if v.kind == "struct" else term)
    return " + ".join(terms) or "0"


def _loop_body(test: Test) -> list[str]:
    lines = []
    for v in test.variables:
        if v.role == "priv":
            lines += ([f"{v.name}.n = {v.constant};"] if v.kind == "struct" else [])
            lines.append(f"{_element(v, 'i')} = ({v.ctype})(i + {v.constant});")
        elif v.role == "scratch":
            lines.append(f"{_element(v, 'i')} = ({v.ctype})(i * {v.constant} + 1);")
    terms = _source_terms(test, "i", test.variables)
    for v in test.variables:
        value = f"i + {v.constant} + {terms}"
        if v.role == "out":
            old = "" if v.on_target == "from" else f"2 * (long){_element(v, 'i')} + "
            lines.append(f"{_element(v, 'i')} = ({v.ctype})({old}{value});")
        elif v.role == "red":
            lines += _reduction_step(v, f"({v.ctype})({value})")
        elif v.role == "last":
            lines.append(f"{v.name} = ({v.ctype})(i * {v.constant} + {terms});")
    return lines


def _reduction_step(v: Variable, value: str) -> list[str]:
    if v.reduction_op in ("max", "min"):
        better = ">" if v.reduction_op == "max" else "<"
        return [f"{{ {v.ctype} e = {value}; if (e {better} {v.name}) {v.name} = e; }}"]
    return [f"{v.name} {v.reduction_op}= {value};"]


def _sequential(test: Test, variables, firstprivate_written=True) -> list[str]:
    """One writer: private and firstprivate variables set, scratch filled, then each
    output in `variables` updated from all the sources. Templates name the element {e}
    and its index {j}."""
    lines, size = [], test.size
    for v in variables:
        cast = f"({v.ctype})"
        if v.role == "priv":
            lines += _whole(v, size, cast + "({j} + %d)" % v.constant, f"{v.name}.n = 1;")
        elif v.role == "fpriv" and firstprivate_written:
            lines += _whole(v, size, cast + "(2 * (long){e} + {j} + %d)" % v.constant,
                            f"{v.name}.n += {v.constant};")
        elif v.role == "scratch":
            lines += _whole(v, size, cast + "({j} * %d + 1)" % v.constant, "")
    for v in variables:
        if v.role not in WRITTEN_ROLES:
            continue
        old = "" if v.on_target == "from" else "2 * (long){e} + "
        if v.kind == "scalar":
            lines += ["{", "    long sum = 0;", f"    {_for(size)} sum += {_source_terms(test, 'j', variables)};",
                      f"    {v.name} = ({v.ctype})({old.format(e=v.name)}sum % 1000 + {v.constant});", "}"]
        else:
            terms = _source_terms(test, "j", variables)
            member = f"{v.name}.n = {'' if v.on_target == 'from' else v.name + '.n + '}{v.constant};"
            lines += _whole(v, size, f"({v.ctype})({old}{{j}} + {v.constant} + {terms})", member)
    return lines


def _whole(v: Variable, size: int, value: str, member: str) -> list[str]:
    """Every element of `v` assigned `value` (a template of {e}, the element, and {j}, its
    index); a struct's other member set by `member` first."""
    if v.kind == "scalar":
        return [f"{v.name} = {value.format(e=v.name, j=0)};"]
    element = _element(v, "j")
    return ([member] if v.kind == "struct" and member else []) + \
        [f"{_for(size)} {element} = {value.format(e=element, j='j')};"]


def _tasks(test: Test) -> list[str]:
    """One task per output; the scratch array is used by the first only."""
    outputs = [v for v in test.variables if v.role == "out"]
    lines = []
    for number, out in enumerate(outputs):
        used = [v for v in test.variables if v is out or (v.role in SOURCE_ROLES
                                                           and (v.role != "scratch" or number == 0))]
        shared = [f"{v.task_clause}({v.name})" for v in used if v.task_clause]
        lines += [f"#pragma omp task {' '.join(shared)}".rstrip(), "{",
                  *_indent(_sequential(test, [v for v in used if v.role != "scratch" or number == 0])), "}"]
    return lines + ["#pragma omp taskwait"]


def _sections(test: Test) -> list[str]:
    """One section per output. A thread may run several sections with one firstprivate
    copy: the sections read theirs, never write it."""
    lines = []
    for out in (v for v in test.variables if v.role == "out"):
        used = [v for v in test.variables if v is out or v.role in SOURCE_ROLES]
        lines += ["#pragma omp section", "{", *_indent(_sequential(test, used, firstprivate_written=False)), "}"]
    return lines


def _nowait_targets(test: Test) -> list[str]:
    """One target region per output, asynchronous: `target nowait` and a taskwait, or
    each inside a host task created by one thread of a parallel region."""
    outputs = [v for v in test.variables if v.role == "out"]
    regions = []
    for out in outputs:
        used = tuple(v for v in test.variables if v is out or v.role in SOURCE_ROLES)
        body = ["{", *_indent(_sequential(test, used)), "}"]
        if test.shape.name == "targets_nowait":
            regions += [f"{_pragma(test, 0, used)} nowait", *body]
        else:
            regions += ["#pragma omp task", "{", *_indent([_pragma(test, 0, used), *body]), "}"]
    if test.shape.name == "targets_nowait":
        return [*regions, "#pragma omp taskwait"]
    return ["#pragma omp parallel", "#pragma omp single", "{", *_indent(regions), "}"]

