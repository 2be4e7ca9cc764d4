"""The review permission: a table-less anchor, the "Source owners" group, 403 for everyone else."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.db import connection
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from registry_review.models import RegistryReview

PAGE = "/registry-review/"
API = "/api/registry/validate"


@pytest.mark.django_db
def test_migration_creates_source_owners_group_holding_only_the_review_permission() -> None:
    owners = Group.objects.get(name="Source owners")
    assert [f"{p.content_type.app_label}.{p.codename}" for p in owners.permissions.all()] == [
        "registry_review.review_registry"
    ]
    assert not Group.objects.get(name="Reviewers").permissions.exists()


@pytest.mark.django_db
def test_the_permission_anchor_has_no_table_and_no_other_permissions() -> None:
    assert RegistryReview._meta.managed is False
    assert RegistryReview._meta.db_table not in connection.introspection.table_names()
    assert list(
        Permission.objects.filter(content_type__app_label="registry_review").values_list(
            "codename", flat=True
        )
    ) == ["review_registry"]


@pytest.mark.django_db
def test_remove_stale_contenttypes_keeps_the_permission() -> None:
    call_command("remove_stale_contenttypes", interactive=False, verbosity=0)
    assert (
        Group.objects.get(name="Source owners")
        .permissions.filter(codename="review_registry")
        .exists()
    )


@pytest.mark.django_db
def test_granting_through_the_group_is_what_opens_the_page(client, reviewer) -> None:
    client.force_login(reviewer)
    assert client.get(PAGE).status_code == 403
    reviewer.groups.add(Group.objects.get(name="Source owners"))
    assert client.get(PAGE).status_code == 200


@pytest.mark.django_db
def test_reviewer_without_permission_gets_403_on_page_get_and_post(
    logged_in_client, template_text
) -> None:
    assert logged_in_client.get(PAGE).status_code == 403
    assert logged_in_client.post(PAGE, {"registry_json": template_text}).status_code == 403


@pytest.mark.django_db
def test_reviewer_without_permission_gets_403_on_the_api(api_client, template_text) -> None:
    get = api_client.get(API)
    post = api_client.post(API, template_text, content_type="application/json")
    for response in (get, post):
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "permission_denied"
        assert "records" not in response.json()


@pytest.mark.django_db
def test_token_of_a_reviewer_without_permission_gets_403(reviewer) -> None:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=reviewer).key}")
    assert api.get(API).status_code == 403


@pytest.mark.django_db
def test_anonymous_page_visit_is_sent_to_login(client, template_text) -> None:
    for response in (client.get(PAGE), client.post(PAGE, {"registry_json": template_text})):
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=/registry-review/")


@pytest.mark.django_db
def test_anonymous_api_call_is_rejected_not_redirected(template_text) -> None:
    api = APIClient()
    for response in (api.get(API), api.post(API, template_text, content_type="application/json")):
        assert response.status_code in (401, 403)
        assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.django_db
def test_nav_link_only_for_permission_holders(logged_in_client, client, source_owner) -> None:
    assert 'href="/registry-review/"' not in logged_in_client.get("/").content.decode()
    client.force_login(source_owner)
    assert 'href="/registry-review/"' in client.get("/").content.decode()
