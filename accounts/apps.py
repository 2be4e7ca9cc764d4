"""App configuration for accounts: sign-in, brute-force lockout and roles."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in, user_login_failed

        from accounts import lockout

        user_login_failed.connect(lockout.on_login_failed, dispatch_uid="aicd-lockout-failed")
        user_logged_in.connect(lockout.on_logged_in, dispatch_uid="aicd-lockout-success")
