"""The owner-review form: a pasted registry or one uploaded .json file, decoded within the limit."""

from __future__ import annotations

from typing import Any

from django import forms

from core.errors import ApplicationError
from core.sizes import human_bytes
from registry_review import services


class RegistrySubmissionForm(forms.Form):
    registry_json = forms.CharField(
        label="Paste a candidate registry (JSON)",
        required=False,
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 12, "spellcheck": "false", "autocomplete": "off", "class": "code"}
        ),
    )
    registry_file = forms.FileField(
        label=f"… or upload a .json file (up to {human_bytes(services.MAX_REGISTRY_BYTES)})",
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        pasted: str = cleaned.get("registry_json") or ""
        upload = cleaned.get("registry_file")
        if pasted.strip() and upload:
            raise forms.ValidationError("Paste a registry or upload a file, not both.")
        try:
            if upload:
                if not upload.name.lower().endswith(".json"):
                    raise forms.ValidationError(
                        "Upload a file whose name ends in .json.", code="registry_file_type"
                    )
                if upload.size > services.MAX_REGISTRY_BYTES:
                    raise services.too_large(upload.size, what="The uploaded file")
                cleaned["text"] = services.decode_submission(upload.read())
            elif pasted.strip():
                if len(pasted.encode("utf-8")) > services.MAX_REGISTRY_BYTES:
                    raise services.too_large(
                        len(pasted.encode("utf-8")), what="The pasted registry"
                    )
                cleaned["text"] = pasted
            else:
                raise forms.ValidationError("Paste a registry or choose a .json file to upload.")
        except ApplicationError as exc:
            raise forms.ValidationError(exc.message, code=exc.code) from None
        return cleaned
