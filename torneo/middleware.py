"""Send anonymous users to the login page when a staff page refuses them."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from torneo.views.access import LoginRequired, login_redirect


class LoginRequiredMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, LoginRequired):
            return login_redirect(request)
        return None
