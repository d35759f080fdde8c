"""Mutations of a C source, one random operator at a time (seeded: reproducible).

Four levels, as the fuzzer's brief asks: tokens of C code, clauses of `#pragma omp`
lines, whole directives (pragma lines), and raw bytes. Every operator takes the
source as bytes and a random.Random and returns the mutant, or None where it does
not apply (no pragma to change, say).
"""

from __future__ import annotations

import random
import re

_TOKEN = re.compile(
    rb"""(?P<space>\s+)
       |(?P<comment>//[^\n]*|/\*.*?\*/)
       |(?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
       |(?P<number>\.?\d(?:[\w.]|[eEpP][+-])*)
       |(?P<name>[A-Za-z_]\w*)
       |(?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|[^\s\w])
    """, re.VERBOSE | re.DOTALL)

# Tokens that open C's corner cases: huge sizes, void values, bare keywords, unbalanced brackets.
INTERESTING_TOKENS = (
    b"0", b"-1", b"1", b"9223372036854775807", b"0x7fffffff", b"1e308", b"'a'", b'"s"',
    b"(void)0", b"void", b"int", b"double", b"char", b"long", b"unsigned", b"const", b"static",
    b"extern", b"struct s", b"union u", b"enum e", b"typedef", b"sizeof", b"return", b"break",
    b"goto", b"*", b"&", b"(", b")", b"{", b"}", b"[", b"]", b";", b",", b"...", b"++", b"--",
    b"=", b"==", b"?", b":", b"->", b".", b"printf", b"main", b"va_end", b"malloc", b"NULL",
)

CLAUSES = (
    b"private(i)", b"firstprivate(x)", b"shared(a)", b"reduction(+:s)", b"reduction(max:s)",
    b"map(tofrom: a[0:-1])", b"map(to: a[0:n])", b"map(from: a)", b"map(alloc: x)",
    b"collapse(2)", b"collapse(0)", b"num_teams(0)", b"num_threads(-1)", b"schedule(static, 0)",
    b"schedule(dynamic)", b"if(0)", b"if(target: 1)", b"nowait", b"device(1)",
    b"defaultmap(tofrom:scalar)", b"depend(in: a)", b"dist_schedule(static, 4)", b"simdlen(4)",
    b"safelen(0)", b"ordered", b"linear(i:2)", b"aligned(a:8)", b"default(none)",
    b"default(shared)", b"thread_limit(1)", b"is_device_ptr(a)", b"use_device_ptr(a)",
    b"lastprivate(i)", b"copyin(x)", b"proc_bind(close)", b"final(1)", b"untied", b"mergeable",
    b"to(a)", b"from(a)", b"link(x)", b"seq_cst", b"read", b"write", b"capture", b"update",
    # OpenMP 5.x
    b"filter(1)", b"bind(thread)", b"bind(teams)", b"bind(parallel)", b"order(concurrent)",
    b"order(reproducible: concurrent)", b"reduction(task, +: s)", b"reduction(inscan, +: s)",
    b"in_reduction(+: s)", b"task_reduction(+: s)", b"depend(mutexinoutset: a)",
    b"depend(inoutset: a)", b"depend(iterator(k = 0:2), in: a[k])", b"detach(x)", b"affinity(a)",
    b"compare", b"fail(relaxed)", b"weak", b"acq_rel", b"acquire", b"release", b"relaxed",
    b"hint(0)", b"default(firstprivate)", b"default(private)", b"nontemporal(a)", b"sizes(2)",
    b"partial(2)", b"full", b"at(execution)", b"severity(warning)", b"message(\"m\")",
    b"num_teams(1:4)", b"linear(val(i):1)", b"allocate(x)", b"inclusive(s)", b"exclusive(s)",
    b"when(device={kind(gpu)}: parallel)", b"otherwise(nothing)", b"novariants(1)",
    b"nocontext(1)", b"depobj(d)", b"destroy", b"holds(1)", b"no_openmp",
)

DIRECTIVES = (
    b"target", b"target teams", b"teams", b"distribute", b"parallel", b"for", b"parallel for",
    b"target teams distribute parallel for", b"target teams distribute", b"target parallel",
    b"target data map(tofrom: x)", b"target enter data map(to: x)", b"target exit data map(from: x)",
    b"target update to(x)", b"simd", b"for simd", b"barrier", b"critical", b"critical(name)",
    b"atomic", b"atomic read", b"atomic capture", b"master", b"single", b"sections", b"section",
    b"task", b"taskwait", b"taskloop", b"flush", b"ordered", b"declare target",
    b"end declare target", b"threadprivate(x)", b"cancel parallel", b"taskgroup",
    # OpenMP 5.x
    b"loop", b"teams loop", b"target teams loop", b"parallel loop", b"target parallel loop",
    b"masked", b"masked filter(1)", b"parallel masked", b"parallel master", b"master taskloop",
    b"masked taskloop simd", b"parallel masked taskloop", b"scope", b"nothing",
    b"error at(compilation)", b"error at(execution) severity(warning)", b"assume holds(1)",
    b"atomic compare", b"atomic compare capture", b"scan inclusive(s)", b"scan exclusive(s)",
    b"depobj(d) depend(in: x)", b"taskwait depend(in: x)", b"tile sizes(2)", b"tile sizes(2, 2)",
    b"unroll partial(2)", b"unroll full", b"unroll", b"metadirective default(parallel)",
    b"dispatch", b"interop", b"requires unified_shared_memory", b"taskgroup task_reduction(+: s)",
)

_PRAGMA_LINE = re.compile(rb"^[ \t]*#[ \t]*pragma[ \t]+omp\b[^\n]*$", re.MULTILINE)
_DIRECTIVE_WORDS = re.compile(rb"(#[ \t]*pragma[ \t]+omp)((?:[ \t]+[a-z_]+\b(?![ \t]*\())*)")
_CLAUSE = re.compile(rb"[a-z_]+(?:[ \t]*\((?:[^()]|\([^()]*\))*\))?")


def tokens(source: bytes) -> list[tuple[int, int]]:
    """(start, end) of each C token outside preprocessor lines (spaces and comments skipped)."""
    spans = []
    for line in re.finditer(rb"[^\n]*\n?", source):
        if line.group().lstrip().startswith(b"#"):
            continue
        for match in _TOKEN.finditer(line.group()):
            if match.lastgroup not in ("space", "comment"):
                spans.append((line.start() + match.start(), line.start() + match.end()))
    return spans


def _splice(source: bytes, start: int, end: int, text: bytes) -> bytes:
    return source[:start] + text + source[end:]


# ---------------------------------------------------------------- token level
def delete_token(source, rng):
    spans = tokens(source)
    if not spans:
        return None
    start, end = rng.choice(spans)
    return _splice(source, start, end, b"")


def duplicate_token(source, rng):
    spans = tokens(source)
    if not spans:
        return None
    start, end = rng.choice(spans)
    return _splice(source, start, end, source[start:end] + b" " + source[start:end])


def swap_tokens(source, rng):
    spans = tokens(source)
    if len(spans) < 2:
        return None
    index = rng.randrange(len(spans) - 1)
    (a0, a1), (b0, b1) = spans[index], spans[index + 1]
    return source[:a0] + source[b0:b1] + source[a1:b0] + source[a0:a1] + source[b1:]


def replace_token(source, rng):
    """By another token of the same file (a name where another was declared) or an interesting one."""
    spans = tokens(source)
    if not spans:
        return None
    start, end = rng.choice(spans)
    if rng.random() < 0.5:
        other_start, other_end = rng.choice(spans)
        text = source[other_start:other_end]
    else:
        text = rng.choice(INTERESTING_TOKENS)
    return _splice(source, start, end, text)


def insert_token(source, rng):
    spans = tokens(source)
    if not spans:
        return None
    start, _ = rng.choice(spans)
    return _splice(source, start, start, rng.choice(INTERESTING_TOKENS) + b" ")


# --------------------------------------------------------------- clause level
def _pragmas(source):
    return list(_PRAGMA_LINE.finditer(source))


def _clauses_of(source, pragma):
    """(start, end) in source of each clause after the directive's name words."""
    line = pragma.group()
    words = _DIRECTIVE_WORDS.match(line.lstrip())
    offset = pragma.start() + (len(line) - len(line.lstrip())) + (words.end() if words else 0)
    rest = source[offset:pragma.end()]
    return [(offset + m.start(), offset + m.end()) for m in _CLAUSE.finditer(rest)]


def drop_clause(source, rng):
    found = [(p, c) for p in _pragmas(source) for c in _clauses_of(source, p)]
    if not found:
        return None
    _, (start, end) = rng.choice(found)
    return _splice(source, start, end, b"")


def duplicate_clause(source, rng):
    found = [(p, c) for p in _pragmas(source) for c in _clauses_of(source, p)]
    if not found:
        return None
    _, (start, end) = rng.choice(found)
    return _splice(source, end, end, b" " + source[start:end])


def add_clause(source, rng):
    pragmas = _pragmas(source)
    if not pragmas:
        return None
    end = rng.choice(pragmas).end()
    return _splice(source, end, end, b" " + rng.choice(CLAUSES))


def change_clause_argument(source, rng):
    found = [c for p in _pragmas(source) for c in _clauses_of(source, p) if source[c[1] - 1:c[1]] == b")"]
    if not found:
        return None
    start, end = rng.choice(found)
    clause = source[start:end]
    open_at = clause.index(b"(")
    argument = rng.choice((b"", b"-1", b"0", b"x", b"a[0:-1]", b"a[:]", b"i, i", b"1.5", b"+:", b"q"))
    return _splice(source, start + open_at + 1, end - 1, argument)


# ------------------------------------------------------------ directive level
def replace_directive(source, rng):
    pragmas = _pragmas(source)
    if not pragmas:
        return None
    pragma = rng.choice(pragmas)
    words = _DIRECTIVE_WORDS.search(pragma.group())
    if not words:
        return None
    start = pragma.start() + words.start(2)
    return _splice(source, start, pragma.start() + words.end(2), b" " + rng.choice(DIRECTIVES))


def delete_pragma(source, rng):
    pragmas = _pragmas(source)
    if not pragmas:
        return None
    pragma = rng.choice(pragmas)
    return _splice(source, pragma.start(), pragma.end(), b"")


def move_pragma(source, rng):
    """A pragma line (or a new one) placed before another line of the file."""
    pragmas = _pragmas(source)
    text = rng.choice(pragmas).group() if pragmas and rng.random() < 0.7 \
        else b"#pragma omp " + rng.choice(DIRECTIVES)
    line_starts = [0] + [m.end() for m in re.finditer(rb"\n", source)]
    at = rng.choice(line_starts)
    return _splice(source, at, at, text.strip() + b"\n")


# ----------------------------------------------------------------- byte level
def flip_bit(source, rng):
    if not source:
        return None
    at = rng.randrange(len(source))
    return _splice(source, at, at + 1, bytes([source[at] ^ (1 << rng.randrange(8))]))


def insert_byte(source, rng):
    at = rng.randrange(len(source) + 1)
    byte = rng.choice(b"{}()[];,\"'\\#\n\0*/" + bytes([rng.randrange(256)]))
    return _splice(source, at, at, bytes([byte]))


def delete_range(source, rng):
    if not source:
        return None
    at = rng.randrange(len(source))
    return _splice(source, at, min(len(source), at + rng.randint(1, 64)), b"")


def duplicate_range(source, rng):
    if not source:
        return None
    at = rng.randrange(len(source))
    end = min(len(source), at + rng.randint(1, 256))
    return _splice(source, end, end, source[at:end])


OPERATORS = {
    "token": (delete_token, duplicate_token, swap_tokens, replace_token, insert_token),
    "clause": (drop_clause, duplicate_clause, add_clause, change_clause_argument),
    "directive": (replace_directive, delete_pragma, move_pragma),
    "byte": (flip_bit, insert_byte, delete_range, duplicate_range),
}
# Byte mutants mostly die in the lexer; C-aware ones reach deeper.
LEVEL_WEIGHTS = {"token": 4, "clause": 3, "directive": 2, "byte": 1}


def mutate(source: bytes, seed: int, max_operators: int = 3) -> tuple[bytes, list[str]]:
    """The mutant of `source` for `seed`, and the names of the operators applied (1 to
    max_operators of them; one that does not apply is skipped)."""
    rng = random.Random(seed)
    applied = []
    for _ in range(rng.randint(1, max_operators)):
        level = rng.choices(list(LEVEL_WEIGHTS), weights=list(LEVEL_WEIGHTS.values()))[0]
        operator = rng.choice(OPERATORS[level])
        mutant = operator(source, rng)
        if mutant is not None and mutant != source:
            source = mutant
            applied.append(operator.__name__)
    return source, applied
