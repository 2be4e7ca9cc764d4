"""A named implementation: built once, rebuilt after its settings change, unknown names refused."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from core.implementations import Implementations

NAMES = {"dict": "builtins.dict", "list": "builtins.list"}
CHOSEN: Implementations[object] = Implementations(
    "AICD_TEST_CHOICE", NAMES, reset_prefix="AICD_TEST_CHOICE"
)


@override_settings(AICD_TEST_CHOICE="dict")
def test_the_named_implementation_is_built_once_and_rebuilt_after_a_related_setting_changes():
    first = CHOSEN.current()
    assert first == {} and CHOSEN.current() is first
    with override_settings(AICD_TEST_UNRELATED="x"):
        assert CHOSEN.current() is first
    with override_settings(AICD_TEST_CHOICE_OPTION="x"):
        assert CHOSEN.current() is not first
    with override_settings(AICD_TEST_CHOICE="list"):
        assert CHOSEN.current() == []


@override_settings(AICD_TEST_CHOICE="set")
def test_an_unknown_name_is_refused_with_the_setting_and_the_known_names():
    message = "AICD_TEST_CHOICE must be one of: dict, list; got 'set'."
    assert CHOSEN.unknown_message("set") == message
    assert CHOSEN.unknown_message("dict") is None
    with pytest.raises(ImproperlyConfigured) as raised:
        CHOSEN.current()
    assert str(raised.value) == message
