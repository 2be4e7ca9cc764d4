"""The sign-in form: Django's, with a specific message when the lockout applies."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm

from accounts import lockout

LOCKED_CODE = "locked_out"


class LockoutAuthenticationForm(AuthenticationForm):
    """Says plainly that sign-in is locked, and for roughly how long, instead of "wrong password"."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        if username and self.request is not None:
            lock = lockout.state(username, lockout.client_address(self.request))
            if lock.locked:
                minutes = max(1, -(-lock.retry_after_s // 60))
                raise forms.ValidationError(
                    "Too many failed sign-in attempts for this account from your address. "
                    f"Try again in about {minutes} minute{'s' if minutes != 1 else ''}, "
                    "or ask an administrator to unlock it.",
                    code=LOCKED_CODE,
                    params={"retry_after_s": lock.retry_after_s},
                )
        return super().clean()

    def lock_retry_after(self) -> int | None:
        """Seconds until the lock lifts, when the form failed because of it."""
        for error in self.errors.as_data().get("__all__", []):
            if error.code == LOCKED_CODE and error.params:
                return int(error.params["retry_after_s"])
        return None
