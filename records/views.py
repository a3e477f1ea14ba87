"""The open record's download from the tournament's public page, and the «Acerca de» page with
the site's public key (records.signing)."""

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from records.build import FORMAT, VERSION, tournament_record
from records.signing import ALGORITHM, public_key_b64url, signed
from torneo.views.access import tournament_for


def record_download(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = tournament_for(request, slug)
    body = json.dumps(signed(tournament_record(tournament)), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="registro-{tournament.slug}.json"'
    return response


def about(request: HttpRequest) -> HttpResponse:
    context = {"public_key": public_key_b64url(), "algorithm": ALGORITHM, "format": FORMAT, "version": VERSION}
    return render(request, "records/about.html", context)
