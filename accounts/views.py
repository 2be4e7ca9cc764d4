"""The sign-in view: Django's LoginView with the lockout form; a locked attempt is a 429."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.http import HttpResponse

from accounts.forms import LockoutAuthenticationForm


class LoginView(auth_views.LoginView):
    authentication_form = LockoutAuthenticationForm

    def form_invalid(self, form: LockoutAuthenticationForm) -> HttpResponse:  # type: ignore[override]
        retry_after = form.lock_retry_after()
        response = self.render_to_response(
            self.get_context_data(form=form, locked_out=retry_after is not None)
        )
        if retry_after is not None:
            response.status_code = 429
            response["Retry-After"] = str(retry_after)
        return response
