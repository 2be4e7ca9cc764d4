"""The owner-review permission, carried by a field-less unmanaged model that has no table."""

from __future__ import annotations

from django.db import models

PERMISSION_CODENAME = "review_registry"
PERMISSION = f"registry_review.{PERMISSION_CODENAME}"
SOURCE_OWNERS_GROUP = "Source owners"
REVIEWERS_GROUP = "Reviewers"


class RegistryReview(models.Model):
    """Anchor for the ``registry_review.review_registry`` permission; never holds a row.

    Why an unmanaged model rather than a Permission on a hand-made ContentType:

    * ``managed = False`` means Django never creates, alters or drops a table for it, and the
      model declares no fields of its own, so there is nowhere a registry (or any part of one)
      could be written. Any attempt to save or query it fails, because the table does not exist.
    * Django's own ``create_permissions`` keeps the ContentType and the permission in step with
      the model, and ``remove_stale_contenttypes`` leaves them alone. A ContentType without a
      model would be reported as stale and deleting it would cascade to the permission and to
      every group and user grant.
    * ``default_permissions = ()`` drops the meaningless add/change/delete/view permissions, so the
      admin's permission picker shows exactly one entry: "Can review current-source registries".
    """

    class Meta:
        managed = False
        default_permissions = ()
        permissions = [
            (PERMISSION_CODENAME, "Can review current-source registries (validate, never store)")
        ]
        verbose_name = "registry review"

    def __str__(self) -> str:
        return "registry review permission"
