"""Deferred modules (aicd/lazy_imports.py): imported as usual, run on first use, once, safely."""

from __future__ import annotations

import importlib
import sys
import threading
import types
import uuid
from pathlib import Path

import pytest

from aicd import lazy_imports


@pytest.fixture
def make_module(tmp_path, monkeypatch):
    """Write modules into a fresh directory on sys.path; a finder defers the ones named."""
    monkeypatch.syspath_prepend(str(tmp_path))
    finders: list[lazy_imports.DeferringFinder] = []
    written: list[str] = []

    def make(source: str, *, package: bool = False, deferred: bool = True) -> str:
        name = f"aicd_lazy_probe_{uuid.uuid4().hex[:8]}"
        path = tmp_path / name / "__init__.py" if package else tmp_path / f"{name}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text(source)
        written.append(name)
        if deferred:
            finder = lazy_imports.DeferringFinder({name})
            sys.meta_path.insert(0, finder)
            finders.append(finder)
        importlib.invalidate_caches()
        return name

    yield make
    for finder in finders:
        sys.meta_path.remove(finder)
    for name in list(sys.modules):
        if name.split(".")[0] in written:
            del sys.modules[name]


RUNS = "import builtins\nbuiltins.aicd_lazy_runs = getattr(builtins, 'aicd_lazy_runs', 0) + 1\n"


@pytest.fixture(autouse=True)
def _run_counter():
    import builtins

    builtins.aicd_lazy_runs = 0  # type: ignore[attr-defined]
    yield
    del builtins.aicd_lazy_runs  # type: ignore[attr-defined]


def runs() -> int:
    import builtins

    return int(builtins.aicd_lazy_runs)  # type: ignore[attr-defined]


def test_import_returns_the_module_and_its_code_runs_once_on_first_attribute(make_module):
    name = make_module(RUNS + "VALUE = 42\n")
    module = importlib.import_module(name)
    assert runs() == 0
    assert type(module).__name__ == "_DeferredModule"
    assert module.VALUE == 42
    assert runs() == 1
    assert type(module) is types.ModuleType
    assert module.VALUE == 42 and sys.modules[name] is module
    assert runs() == 1


def test_a_second_import_statement_does_not_run_it(make_module):
    name = make_module(RUNS + "VALUE = 1\n")
    first = importlib.import_module(name)
    second = __import__(name)  # reads __spec__, as every import of a loaded module does
    assert second is first and runs() == 0
    assert first.__name__ == name and runs() == 0
    assert second.VALUE == 1 and runs() == 1


def test_threads_reading_it_first_all_wait_for_the_whole_module(make_module):
    name = make_module(RUNS + "import time\ntime.sleep(0.2)\nVALUE = 'complete'\n")
    module = importlib.import_module(name)
    start = threading.Barrier(8)
    seen: list[object] = []

    def read() -> None:
        start.wait()
        try:
            seen.append(module.VALUE)
        except AttributeError as exc:  # a half-run module
            seen.append(exc)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == ["complete"] * 8
    assert runs() == 1


def test_attributes_set_before_it_runs_survive_it(make_module):
    name = make_module(RUNS + "VALUE = 'from the module'\n")
    module = importlib.import_module(name)
    module.VALUE = "patched"  # as unittest.mock.patch does
    assert runs() == 1
    assert module.VALUE == "patched"


def test_an_error_in_the_module_surfaces_on_first_use_and_a_later_import_retries(make_module,
                                                                                  tmp_path):
    name = make_module(RUNS + "raise RuntimeError('broken module')\n")
    module = importlib.import_module(name)
    with pytest.raises(RuntimeError, match="broken module"):
        module.anything  # noqa: B018
    assert name not in sys.modules
    (tmp_path / f"{name}.py").write_text(RUNS + "VALUE = 'fixed'\n")
    importlib.invalidate_caches()
    assert importlib.import_module(name).VALUE == "fixed"
    assert runs() == 2


def test_a_submodule_import_runs_its_deferred_package_first(make_module, tmp_path):
    name = make_module(RUNS + "ORDER = ['package']\n", package=True)
    (tmp_path / name / "child.py").write_text(
        f"from {name} import ORDER\nORDER.append('child')\n"
    )
    importlib.import_module(name)
    child = importlib.import_module(f"{name}.child")
    assert child.ORDER == ["package", "child"]
    assert runs() == 1


def test_a_module_that_is_not_installed_fails_to_import_as_usual(tmp_path):
    finder = lazy_imports.DeferringFinder({"aicd_no_such_module"})
    sys.meta_path.insert(0, finder)
    try:
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("aicd_no_such_module")
    finally:
        sys.meta_path.remove(finder)


def test_install_puts_one_finder_first_for_the_app_list():
    finder = lazy_imports.install()
    assert sys.meta_path.count(finder) == 1
    assert lazy_imports.install() is finder
    assert finder.names == lazy_imports.DEFERRED


def test_drf_still_finds_its_optional_libraries():
    from rest_framework import compat

    assert compat.requests is not None and compat.yaml is not None
    assert compat.yaml.safe_load("a: [1, 2]") == {"a": [1, 2]}
    from rest_framework.test import RequestsClient

    assert RequestsClient().headers is not None


def test_the_app_modules_named_exist():
    repo = Path(__file__).resolve().parents[2]
    for name in lazy_imports.DEFERRED:
        if "." in name:
            assert (repo / (name.replace(".", "/") + ".py")).is_file(), name
