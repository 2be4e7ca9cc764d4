"""Registry review URLs: the owner-review page and the validation API."""

from django.urls import path

from registry_review import api, views

app_name = "registry_review"

urlpatterns = [
    path("registry-review/", views.registry_review, name="page"),
    path("api/registry/validate", api.RegistryValidateView.as_view(), name="api-validate"),
]
