"""The OpenMP context of a point in the program, for each device it is compiled for, and
how a context selector matches and scores against it (OpenMP 5.1 2.3.1-2.3.3): what
`declare variant` and `metadirective` choose by.

The devices omp2gpu compiles for:
- the host (the initial device): kind host and cpu, this machine's arch and isa;
- the CPU device (work-groups on this machine's cores): kind nohost and cpu, likewise;
- the GPU: kind nohost and gpu, arch nvptx and nvptx64; its isa (sm_NN) is chosen when
  the program runs, so an `isa` selector cannot be decided for it (a located error).
The implementation's vendor is omp2gpu; of the requirement traits only dynamic_allocators
is met (sema/requires.py); atomic_default_mem_order is relaxed (5.0's default).

The construct trait set is the lexical constructs around the point from the innermost
enclosing target construct on (frontend/openmp/variant_sites.py), with `target` first in a
device routine's device versions (rule 3); `user={condition(e)}` and `target_device`
selectors that are not known when compiling are left to run time (`Match.dynamic`).
"""

from __future__ import annotations

import platform
from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.context_selectors import ContextSelector, TraitSet
from omp2gpu.frontend.openmp.pragma_syntax import constant_int
from omp2gpu.offload import abi
from omp2gpu.targets.host import instruction_sets

VENDORS = frozenset({"omp2gpu"})
MEMORY_ORDER = "relaxed"
_ARCH_SPELLINGS = {"x86_64": ("x86_64", "x86-64", "x86", "amd64"), "aarch64": ("aarch64", "arm64")}


@dataclass(frozen=True)
class Device:
    name: str
    kinds: frozenset[str]
    archs: frozenset[str]
    isas: frozenset[str] | None     # None: not known when compiling
    is_host: bool = False

    def has(self, trait: str, names) -> bool:
        """Whether this device has every property in `names` of the device trait `trait`."""
        if trait == "isa" and self.isas is None:
            return False
        own = {"kind": self.kinds, "arch": self.archs, "isa": self.isas}[trait]
        return set(names) <= own | {"any"} if trait == "kind" else set(names) <= own


def _machine_archs() -> frozenset[str]:
    machine = platform.machine().lower()
    return frozenset(_ARCH_SPELLINGS.get(machine, (machine,)))


class _Devices:
    """The three devices, made on first use (the host's isa asks LLVM)."""

    def __init__(self):
        self._made: dict[str, Device] = {}

    def __getitem__(self, which: str) -> Device:
        if which not in self._made:
            self._made[which] = {
                "host": lambda: Device("the host", frozenset({"host", "cpu"}), _machine_archs(), instruction_sets(),
                                       is_host=True),
                "cpu": lambda: Device("the CPU device", frozenset({"nohost", "cpu"}), _machine_archs(),
                                      instruction_sets()),
                "gpu": lambda: Device("the GPU", frozenset({"nohost", "gpu"}), frozenset({"nvptx", "nvptx64"}), None),
            }[which]()
        return self._made[which]


DEVICES = _Devices()
# What the launcher answers when asked what a device is (runtime/host/omp_api.c).
DEVICE_CODES = {"host": abi.DEVICE_CODE_HOST, "cpu": abi.DEVICE_CODE_CPU, "gpu": abi.DEVICE_CODE_GPU}


@dataclass(frozen=True)
class Context:
    device: Device
    constructs: tuple[str, ...]             # the construct trait set, outermost first


def context_for(device: Device, lexical: tuple[str, ...]) -> Context:
    """A point's context on `device`: its lexical constructs, after `target` in a device
    version of a function (OpenMP 5.1 2.3.1 rule 3)."""
    if not device.is_host and (not lexical or lexical[0] != "target"):
        lexical = ("target",) + tuple(lexical)
    return Context(device, tuple(lexical))


@dataclass(frozen=True)
class Check:
    """A part of a selector decided when the program runs: a user condition (`expr` true),
    or the traits of a target device (`device_num` None: the default device)."""
    kind: str                               # "condition" or "target_device"
    expr: c_ast.Node | None
    traits: TraitSet | None = None


@dataclass(frozen=True)
class Match:
    score: int
    dynamic: tuple[Check, ...] = ()
    traits: frozenset = frozenset()         # (set, trait, properties): for the strict-subset rule


def match(selector: ContextSelector, context: Context) -> Match | None:
    """The selector's score in `context`, or None when it is not compatible with it."""
    score, dynamic, traits = 1, [], set()
    levels = len(context.constructs)
    for trait_set in selector.sets:
        for trait in trait_set.traits:
            traits.add((trait_set.name, trait.name, tuple(map(str, trait.properties))))
        if trait_set.name == "construct":
            value = _construct_score(trait_set, context.constructs)
            if value is None:
                return None
            score += value
        elif trait_set.name == "device":
            value = _device_score(trait_set, context.device, levels)
            if value is None:
                return None
            score += value
        elif trait_set.name == "target_device":
            static = _target_device(trait_set, context)
            if static is None:
                dynamic.append(Check("target_device", _device_num(trait_set), trait_set))
                score += _weights(trait_set, levels)
            elif static is False:
                return None
            else:
                score += _weights(trait_set, levels)
        elif trait_set.name == "implementation":
            if not all(_implementation_has(trait.name, trait.properties) for trait in trait_set.traits):
                return None
            score += sum(trait.score or 0 for trait in trait_set.traits)
        else:                               # user
            trait = trait_set.trait("condition")
            value = constant_int(trait.properties[0])
            if value is None:
                dynamic.append(Check("condition", trait.properties[0]))
            elif value == 0:
                return None
            score += trait.score or 0
    return Match(score, tuple(dynamic), frozenset(traits))


def _construct_score(trait_set: TraitSet, constructs: tuple[str, ...]) -> int | None:
    """Each selector construct matched, in order, at its latest possible position p of the
    context (the highest-valued match): 2^(p-1) each; None if they do not all appear."""
    wanted = [trait.name for trait in trait_set.traits]
    position, total = len(constructs), 0
    for name in reversed(wanted):
        while position > 0 and constructs[position - 1] != name:
            position -= 1
        if position == 0:
            return None
        total += 2 ** (position - 1)
        position -= 1
    return total


def _weights(trait_set: TraitSet, levels: int) -> int:
    """kind, arch and isa are worth 2^l, 2^(l+1), 2^(l+2) (l constructs in the context),
    or their score."""
    weight = {"kind": 0, "arch": 1, "isa": 2}
    return sum(trait.score if trait.score is not None else 2 ** (levels + weight[trait.name])
               for trait in trait_set.traits if trait.name in weight)


def _device_score(trait_set: TraitSet, device: Device, levels: int) -> int | None:
    for trait in trait_set.traits:
        if trait.name == "isa" and device.isas is None:
            raise CompileError("an 'isa' selector cannot be decided for the GPU: its architecture "
                               "is chosen when the program runs", trait.coord)
        if not device.has(trait.name, trait.properties):
            return None
    return _weights(trait_set, levels)


def _device_num(trait_set: TraitSet):
    trait = trait_set.trait("device_num")
    return trait.properties[0] if trait is not None else None


def _target_device(trait_set: TraitSet, context: Context) -> bool | None:
    """Whether the target device has the traits, known when compiling: True, False, or
    None (decided at run time). Code compiled for a device, or run in a target region's
    host version, asks about the device that runs it; other host code about device
    `device_num`, else the default device, which is known only at run time."""
    in_region = not context.device.is_host or (context.constructs[:1] == ("target",))
    if _device_num(trait_set) is not None or not in_region:
        for trait in trait_set.traits:
            if trait.name == "isa":
                raise CompileError("a 'target_device' selector's 'isa' cannot be decided when the "
                                   "program runs", trait.coord)
        return None
    return _device_score(TraitSet("device", tuple(t for t in trait_set.traits if t.name != "device_num"),
                                  trait_set.coord), context.device, 0) is not None


def _implementation_has(name: str, properties) -> bool:
    if name == "vendor":
        return set(properties) <= VENDORS
    if name == "atomic_default_mem_order":
        return set(properties) <= {MEMORY_ORDER}
    # Requirements the implementation meets (sema/requires.py): dynamic_allocators only;
    # no extension(...) is implemented.
    return name == "dynamic_allocators"


def ranked(candidates: list, context: Context) -> list:
    """(payload, Match) of each compatible (selector, payload), best first: by score, a
    selector that is a strict subset of another's counting zero, then in the given
    (lexical) order."""
    found = [(payload, m) for selector, payload in candidates if (m := match(selector, context)) is not None]
    subsets = [any(m.traits < other.traits for _, other in found) for _, m in found]
    order = sorted(range(len(found)), key=lambda k: (-(0 if subsets[k] else found[k][1].score), k))
    return [found[k] for k in order]


def device_codes(trait_set: TraitSet) -> frozenset[int]:
    """The DEVICE_CODES of the devices that have a target_device selector's kind and arch
    traits (its device_num says which device is asked about, at run time)."""
    return frozenset(code for which, code in DEVICE_CODES.items()
                     if all(DEVICES[which].has(trait.name, trait.properties)
                            for trait in trait_set.traits if trait.name in ("kind", "arch")))
