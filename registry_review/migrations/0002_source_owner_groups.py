"""Create the "Source owners" group holding the review permission, and a plain "Reviewers" group."""

from django.db import migrations

CODENAME = "review_registry"
PERMISSION_NAME = "Can review current-source registries (validate, never store)"


def create_groups(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    db = schema_editor.connection.alias
    # On a fresh database the post_migrate signal that normally creates permissions has not run
    # yet, so create the same ContentType and Permission it would create (it then finds them).
    content_type, _ = ContentType.objects.using(db).get_or_create(
        app_label="registry_review", model="registryreview"
    )
    permission, _ = Permission.objects.using(db).get_or_create(
        content_type=content_type, codename=CODENAME, defaults={"name": PERMISSION_NAME}
    )
    owners, _ = Group.objects.using(db).get_or_create(name="Source owners")
    owners.permissions.add(permission)
    # Every signed-in user may ask questions; this group grants nothing extra and exists so
    # admins can label ordinary reviewers without giving them registry review.
    Group.objects.using(db).get_or_create(name="Reviewers")


def remove_permission_from_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    db = schema_editor.connection.alias
    owners = Group.objects.using(db).filter(name="Source owners").first()
    if owners is not None:
        owners.permissions.remove(
            *Permission.objects.using(db).filter(
                content_type__app_label="registry_review", codename=CODENAME
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("registry_review", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, remove_permission_from_group)]
