"""Modules that are loaded on first use instead of when they are imported.

Every process pays at start-up for each module it imports. Some imports are not needed to serve
most requests:
- Django REST framework imports the optional libraries it finds installed (requests for its
  test client, PyYAML, uritemplate and inflection for schema generation). The app never uses
  requests; the others are needed only when the schema is built or the context pack is loaded.
- The view modules import the service modules that run each feature (answering, session
  sources, registry review), the OpenAPI descriptions and the session-source value types: the
  pipeline behind them is hundreds of classes and patterns that the health check, the sign-in
  page and the static files never touch.

The modules named in ``DEFERRED`` are still imported with ordinary ``import`` statements, and
the importing module gets the module object as usual; its code runs when one of its attributes
is first read (``services.answer``, ``yaml.safe_load``), on whichever thread reads it first. A
``from module import name`` statement reads the attribute at once, so it loads the module then.
This is ``importlib.util.LazyLoader``'s behaviour, made safe for threads (Python 3.11's version
is not: a second thread could see a half-run module) and limited to a named list; PEP 810
(``lazy import``) brings the same idea into the language.

Only a module whose import does nothing that must happen at start-up (registering signal
receivers, system checks or template tags) may be listed. tests/aicd/test_startup.py fails if
loading the URLconf runs a listed module, for example after a ``from ... import name`` of it
is added to a view module.

``install()`` is called by ``aicd/__init__.py``, so it is in place before Django or DRF import
anything, in every process: servers, management commands and tests.
"""

from __future__ import annotations

import importlib.machinery
import sys
import threading
import types
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from importlib.abc import Loader

DEFERRED = frozenset({
    # Imported by rest_framework.compat when installed; see the module docstring.
    "requests",
    "yaml",
    "uritemplate",
    "inflection",
    # Imported by the view modules; loaded by the first request that uses the feature.
    "assistant.services",
    "assistant.context_pack",
    "assistant.reader",
    "assistant.rendering",
    "assistant.api_schema",
    "uploads.services",
    "uploads.types",
    "registry_review.services",
})


class _Pending:
    """How to run one deferred module, and who is running it."""

    __slots__ = ("loader", "lock", "loading_thread")

    def __init__(self, loader: Loader) -> None:
        self.loader = loader
        self.lock = threading.RLock()
        self.loading_thread: int | None = None


# Deferred module name -> how to run it. An entry is removed once the module has run.
_pending: dict[str, _Pending] = {}


# Set by the import system before a module's code runs. Every later ``import`` statement for a
# module reads its ``__spec__`` (to wait for a module another thread is importing): reading it
# must not run the module, or the second import of a deferred module would run it.
_SET_BEFORE_RUNNING = frozenset({"__spec__", "__name__"})


class _DeferredModule(types.ModuleType):
    """A module whose code has not run yet: the first attribute read or write runs it."""

    def __getattribute__(self, name: str) -> object:
        if name not in _SET_BEFORE_RUNNING:
            _run(self)
        return types.ModuleType.__getattribute__(self, name)

    def __setattr__(self, name: str, value: object) -> None:
        _run(self)
        types.ModuleType.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        _run(self)
        types.ModuleType.__delattr__(self, name)


def _run(module: types.ModuleType) -> None:
    if type(module) is not _DeferredModule:
        return
    name = types.ModuleType.__getattribute__(module, "__name__")
    pending = _pending.get(name)
    if pending is None or pending.loading_thread == threading.get_ident():
        return  # the module's own code, running now, reading its attributes
    with pending.lock:  # a second thread waits here until the first has run the module
        if type(module) is not _DeferredModule:
            return
        pending.loading_thread = threading.get_ident()
        try:
            pending.loader.exec_module(module)
        except BaseException:
            # As a failed import: the module is gone, and the next import tries again.
            sys.modules.pop(name, None)
            raise
        finally:
            # Not ``module.__class__ = ...``: that would go through _DeferredModule.__setattr__.
            types.ModuleType.__setattr__(module, "__class__", types.ModuleType)
            pending.loading_thread = None
            _pending.pop(name, None)


class _DeferringLoader:
    def __init__(self, loader: Loader) -> None:
        self.loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        # Later imports and reloads use the real loader, as if it had loaded the module.
        module.__loader__ = self.loader
        if module.__spec__ is not None:
            module.__spec__.loader = self.loader
        _pending[module.__name__] = _Pending(self.loader)
        module.__class__ = _DeferredModule


_PYTHON_LOADERS = (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader)


class DeferringFinder:
    """Finds the named modules as the other finders would, and defers running their code."""

    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        for finder in list(sys.meta_path):
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None  # not installed: the import fails as it would have
        if not isinstance(spec.loader, _PYTHON_LOADERS):
            return spec  # an extension module or a namespace package: nothing worth deferring
        spec.loader = cast("Loader", _DeferringLoader(spec.loader))  # a loader by protocol
        return spec


def install(names: Iterable[str] = DEFERRED) -> DeferringFinder:
    """Put a finder for ``names`` first on ``sys.meta_path``, once; returns it."""
    for finder in sys.meta_path:
        if isinstance(finder, DeferringFinder) and finder.names == frozenset(names):
            return finder
    finder = DeferringFinder(names)
    sys.meta_path.insert(0, finder)
    return finder
