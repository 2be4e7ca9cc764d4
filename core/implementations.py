"""Implementations chosen by name from a setting: built once per process, rebuilt when it changes."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.utils.module_loading import import_string

T = TypeVar("T")


class Implementations(Generic[T]):
    """The implementations a setting may name (name -> import string) and the one in use.

    ``current()`` builds the named implementation on first use and keeps it for the process; a
    change to any setting starting with ``reset_prefix`` (tests use ``override_settings``) drops
    what was built. An unknown name is an ImproperlyConfigured carrying ``unknown_message``, the
    text a system check reports too.
    """

    def __init__(self, setting: str, names: dict[str, str], *, reset_prefix: str) -> None:
        self.setting = setting
        self.names = names
        self.reset_prefix = reset_prefix
        self._built: dict[str, T] = {}
        setting_changed.connect(self._reset, weak=False)

    def unknown_message(self, name: object) -> str | None:
        """The readable error for a setting value that names no implementation, or None."""
        if name in self.names:
            return None
        return f"{self.setting} must be one of: {', '.join(self.names)}; got {name!r}."

    def current(self) -> T:
        name = getattr(settings, self.setting)
        found = self._built.get(name)
        if found is None:
            problem = self.unknown_message(name)
            if problem:
                raise ImproperlyConfigured(problem)
            found = self._built[name] = import_string(self.names[name])()
        return found

    def _reset(self, *, setting: str, **kwargs: Any) -> None:
        if setting.startswith(self.reset_prefix):
            self._built.clear()
