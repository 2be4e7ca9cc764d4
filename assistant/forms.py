"""The chat page form; the same limits as the API serializer."""

from __future__ import annotations

from django import forms
from django.conf import settings

from assistant.modes import MODE_DISPLAY_NAMES, Mode


class ChatForm(forms.Form):
    mode = forms.ChoiceField(
        choices=[(m.value, MODE_DISPLAY_NAMES[m]) for m in Mode],
        initial=Mode.PACKAGE_ONLY.value,
        widget=forms.RadioSelect,
    )
    question = forms.CharField(
        max_length=settings.AICD_MAX_QUESTION_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "autofocus": True}),
        strip=True,
    )
