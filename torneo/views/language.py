"""The visitor's language, chosen in the frame of every page (templates/base.html).

Its form carries no CSRF token: the public pages that the phones of a whole room reload are kept
whole and identical for every anonymous visitor (torneo.pagecache), compressed once, and a token
in them would be a per-visitor secret to write into each copy, and a secret next to the page's
text in a compressed response (BREACH). What a forged request could do here is change someone's
language, so the form is checked the way browsers allow without a token: a request that says it
comes from another site (``Origin``, ``Sec-Fetch-Site``) changes nothing.
"""

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.i18n import set_language


def _from_this_site(request: HttpRequest) -> bool:
    """False when the browser says the form was sent from another site; True when it says this one
    or says nothing (an old browser: the only harm is a language)."""
    origin = request.META.get("HTTP_ORIGIN")
    if origin is not None:
        return origin in {f"{request.scheme}://{request.get_host()}", *settings.CSRF_TRUSTED_ORIGINS}
    return request.META.get("HTTP_SEC_FETCH_SITE", "same-origin") in {"same-origin", "none"}


@csrf_exempt
@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """Django's ``set_language`` (the cookie, then back to ``next`` on this site) for a form of this
    site only."""
    if not _from_this_site(request):
        return HttpResponseForbidden(_("El idioma solo se puede cambiar desde este sitio."))
    return set_language(request)
