"""The table-less permission anchor; no table is created (managed=False)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="RegistryReview",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
            ],
            options={
                "verbose_name": "registry review",
                "permissions": [
                    (
                        "review_registry",
                        "Can review current-source registries (validate, never store)",
                    )
                ],
                "managed": False,
                "default_permissions": (),
            },
        ),
    ]
