"""The chat page form; the same limits as the API serializer."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings

from assistant.domain.modes import MODE_DISPLAY_NAMES, Mode


class ModeRadioSelect(forms.RadioSelect):
    """Radio buttons of which some may be shown but not chosen (a mode this server has not enabled)."""

    disabled_choices: frozenset[str] | set[str] = frozenset()

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        if option["value"] in self.disabled_choices:
            option["attrs"]["disabled"] = True
            option["attrs"]["aria-describedby"] = f"{option['attrs']['id']}-note"
        return option


class ChatForm(forms.Form):
    mode = forms.ChoiceField(
        choices=[(m.value, MODE_DISPLAY_NAMES[m]) for m in Mode],
        initial=Mode.PACKAGE_ONLY.value,
        widget=ModeRadioSelect,
    )
    question = forms.CharField(
        max_length=settings.AICD_MAX_QUESTION_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "autofocus": True}),
        strip=True,
    )
