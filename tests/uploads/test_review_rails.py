"""Rails that mask, not withhold, the user's own content (issue #30, item 5), through the API.

A public table whose cells hold a secret-shaped value (here a dataset revision id) is the user's
own material: the offline review quotes its row with the value masked, and the run is answered,
not ended as a diagnostic "text shaped like a secret".
"""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assistant.verify.verification import MASKED

pytestmark = pytest.mark.django_db

REVISION = "7fQ9xLm2Rt8VbN3kPz6WcY1hJd4GsA5e"
COUNTRY_CODES = (
    "name,alpha_2,alpha_3,numeric,dataset_revision\n"
    f"Afghanistan,AF,AFG,004,{REVISION}\n"
    f"Albania,AL,ALB,008,{REVISION}\n"
    f"Algeria,DZ,DZA,012,{REVISION}\n"
)


def test_a_country_code_table_with_a_secret_shaped_cell_is_reviewed_with_the_cell_masked(
    api_client,
) -> None:
    upload = SimpleUploadedFile("country-codes.csv", COUNTRY_CODES.encode())
    created = api_client.post("/api/session-sources", {"file": upload}, format="multipart")
    assert created.status_code == 201, created.content
    body = api_client.post(
        "/api/source-grounded-chat",
        {
            "question": "Review this data file against the data boundary criteria",
            "session_source_ids": [created.json()["session_source_id"]],
        },
        format="json",
    ).json()
    assert body["state"] == "answered", body.get("diagnostic")
    [uploaded] = [x for x in body["lanes"] if x["label"] == "Uploaded session source says"]
    assert f"alpha_3: AFG; numeric: 004; dataset_revision: {MASKED}" in uploaded["text"]
    assert REVISION not in json.dumps(body)
