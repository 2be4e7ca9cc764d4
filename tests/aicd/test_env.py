"""Tests for aicd.env.get_int_list (AICD_CURRENT_CONTEXT_ALLOWED_PORTS)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from aicd import env


def test_int_list_parses_ports(monkeypatch):
    monkeypatch.setenv("AICD_TEST_PORTS", "8443, 9443")
    assert env.get_int_list("AICD_TEST_PORTS") == (8443, 9443)
    monkeypatch.setenv("AICD_TEST_PORTS", "")
    assert env.get_int_list("AICD_TEST_PORTS") == ()


@pytest.mark.parametrize("raw", ["443,abc", "0", "70000", "-1"])
def test_int_list_rejects_bad_values(monkeypatch, raw):
    monkeypatch.setenv("AICD_TEST_PORTS", raw)
    with pytest.raises(ImproperlyConfigured):
        env.get_int_list("AICD_TEST_PORTS")
