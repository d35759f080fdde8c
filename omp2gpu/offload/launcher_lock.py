"""The lock every entry point of the launcher holds (entry_points.py): host threads (an
OpenMP parallel region, deferred target tasks) may call in at once, and the launcher's
tables and devices are used by one call at a time. Once a native launch path is
installed (native_launch.py), its mutex is held too, inside the Python lock: a native
launch, which takes only that mutex, then never sees the present table mid-change nor a
range freed under it. The native side never waits for the Python lock while it holds its
mutex (it lets go before falling back on the launcher), so the two cannot deadlock."""

from __future__ import annotations

import threading


class LauncherLock:
    def __init__(self):
        self._python = threading.RLock()
        self._natives: tuple = ()            # each native module's, taken in this order
        self._held = threading.local()      # the native locks this thread took, innermost last

    def use_native(self, native) -> None:
        """Hold `native`'s mutex (a NativeLauncher) too from now on, and no other module's
        (None: none)."""
        with self._python:
            self._natives = (native,) if native is not None else ()

    def add_native(self, native) -> None:
        """Hold another module's mutex too (a chained GPU module, cuda_native.py), after
        the others: a native launch takes one module's mutex alone, so any order is safe."""
        with self._python:
            self._natives += (native,)

    def __enter__(self):
        self._python.acquire()
        natives = self._natives
        for native in natives:
            native.lock()
        stack = getattr(self._held, "stack", None)
        if stack is None:
            stack = self._held.stack = []
        stack.append(natives)
        return self

    def __exit__(self, *exc) -> None:
        for native in reversed(self._held.stack.pop()):
            native.unlock()
        self._python.release()


LAUNCHER_LOCK = LauncherLock()
