"""Results reported and confirmed at the table (issue 32, item 2): a pair reports its table's
juegos from its terminal (or a player's account); the other pair confirms on its own phone (AMM
3.16, the losing pair's signature) and the result counts without the mesa; a different report from
the other pair is a disagreement for the mesa and the jueces; a pair never confirms its own report."""

import pytest
from django.core.exceptions import ValidationError

from scoring.models import ResultSubmission
from scoring.services.results import disagreement, result_confirm, result_reject, result_report, result_submit
from tests.scoring.test_hands_services import Table, table
from torneo.errors import Conflict, NotAllowed, TournamentError
from torneo.models import Match
from torneo.services.terminals import terminal_issue

pytestmark = pytest.mark.django_db
Status = ResultSubmission.Status


def match_of(t: Table) -> Match:
    return Match.objects.get(pk=t.match.pk)


def test_the_winner_reports_and_the_loser_confirms_and_it_counts_without_the_mesa_amm_3_16():
    t = table()
    report = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1)
    assert report.status == Status.PROPOSED and report.source == ResultSubmission.Source.PLAYER
    assert match_of(t).outcome == Match.Outcome.PENDING  # nothing counts before the signature
    with pytest.raises(NotAllowed):
        result_confirm(submission=report, by=t.player_a)  # never its own report
    result_confirm(submission=report, by=t.player_b)
    match = match_of(t)
    assert match.outcome == Match.Outcome.PLAYED and (match.games_a, match.games_b) == (3, 1)
    assert match.winner_id == t.match.pair_a_id


def test_the_losers_report_is_its_signature_and_the_winner_confirms_it_amm_3_16():
    t = table()
    report = result_report(match=t.match, by=t.player_b, games_a=3, games_b=2)
    result_confirm(submission=report, by=t.player_a)
    assert match_of(t).winner_id == t.match.pair_a_id


def test_the_same_result_reported_by_both_pairs_counts_at_once():
    t = table()
    result_report(match=t.match, by=t.player_a, games_a=1, games_b=3)
    second = result_report(match=t.match, by=t.player_b, games_a=1, games_b=3)
    assert second.status == Status.CONFIRMED
    assert match_of(t).winner_id == t.match.pair_b_id


TANTOS_3_1 = [[40, 12], [40, 30], [7, 40], [40, 0]]


def test_the_same_juegos_without_the_optional_tantos_confirm_a_report_that_gave_them_amm_3_16():
    """The tantos per juego are optional: the rival pair that reports the same juegos without them
    signs the report (its tantos stand), no desacuerdo."""
    t = table()
    first = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1, tantos=TANTOS_3_1)
    second = result_report(match=t.match, by=t.player_b, games_a=3, games_b=1)
    first.refresh_from_db()
    assert (second.pk, first.status) == (first.pk, Status.CONFIRMED) and not disagreement(t.match)
    match = match_of(t)
    assert (match.games_a, match.games_b, match.tantos_a, match.tantos_b) == (3, 1, 127, 82)


def test_the_same_juegos_with_tantos_over_a_report_without_them_count_with_the_tantos_amm_3_16():
    """The other way round: the first report gave no tantos, the rival's same juegos give them: it
    counts at once with them, the first report superseded, and its history says why."""
    t = table()
    first = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1)
    second = result_report(match=t.match, by=t.player_b, games_a=3, games_b=1, tantos=TANTOS_3_1)
    first.refresh_from_db()
    assert (first.status, second.status) == (Status.SUPERSEDED, Status.CONFIRMED) and not disagreement(t.match)
    assert f"Confirma la versión {first.version}" in second.reason
    assert (match_of(t).tantos_a, match_of(t).tantos_b) == (127, 82)


def test_the_same_juegos_with_other_tantos_are_a_disagreement_amm_3_16():
    """Both give tantos, and they differ: two readings of the acta (the tantos feed the tiebreaks)."""
    t = table()
    result_report(match=t.match, by=t.player_a, games_a=3, games_b=1, tantos=TANTOS_3_1)
    result_report(match=t.match, by=t.player_b, games_a=3, games_b=1, tantos=[[40, 12], [40, 30], [7, 40], [40, 1]])
    assert [s.status for s in disagreement(t.match)] == [Status.DISPUTED, Status.DISPUTED]


def test_a_different_report_from_the_other_pair_is_a_disagreement_for_the_mesa_amm_3_16():
    t = table()
    result_report(match=t.match, by=t.player_a, games_a=3, games_b=1)
    result_report(match=t.match, by=t.player_b, games_a=1, games_b=3)
    assert [s.status for s in disagreement(t.match)] == [Status.DISPUTED, Status.DISPUTED]
    assert match_of(t).outcome == Match.Outcome.PENDING
    with pytest.raises(Conflict):
        result_report(match=t.match, by=t.player_a, games_a=3, games_b=0)


def test_a_pair_corrects_its_own_report_without_a_disagreement():
    t = table()
    first = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1)
    second = result_report(match=t.match, by=t.player_a, games_a=3, games_b=2)
    first.refresh_from_db()
    assert first.status == Status.SUPERSEDED and second.status == Status.PROPOSED
    assert not disagreement(t.match)


@pytest.mark.parametrize(("a", "b"), [(3, 3), (4, 0), (2, 1), (None, 3)])
def test_an_impossible_result_is_refused_as_the_mesas_entry_is_and_nothing_is_written_amm_1_7_a(a, b):
    t = table()
    with pytest.raises(ValidationError):
        result_report(match=t.match, by=t.player_a, games_a=a, games_b=b)
    assert not ResultSubmission.objects.exists()


def test_only_the_tables_two_pairs_report():
    t = table()
    other = table(number=2)
    for user in (other.player_a, t.juez, t.control, t.organizer):
        with pytest.raises(NotAllowed):
            result_report(match=t.match, by=user, games_a=3, games_b=0)
    assert not ResultSubmission.objects.filter(match=t.match).exists()


def test_a_result_the_mesa_entered_is_not_reported_over():
    t = table()
    result_submit(match=t.match, by=t.control, games_a=3, games_b=0)
    with pytest.raises(TournamentError) as refused:
        result_report(match=t.match, by=t.player_b, games_a=0, games_b=3)
    assert refused.value.code == "has_result"


def test_the_pairs_terminals_report_and_confirm_like_player_accounts():
    t = table()
    terminal_a = terminal_issue(pair=t.match.pair_a, by=t.control).terminal.user
    terminal_b = terminal_issue(pair=t.match.pair_b, by=t.control).terminal.user
    report = result_report(match=t.match, by=terminal_a, games_a=3, games_b=0)
    with pytest.raises(NotAllowed):
        result_confirm(submission=report, by=t.player_a)  # a player of the same pair: not a signature
    result_confirm(submission=report, by=terminal_b)
    assert match_of(t).winner_id == t.match.pair_a_id


def test_who_may_sign_a_report_is_asked_in_two_queries_whoever_asks_amm_3_16():
    """A pair's phone signs the rival's report at every table (AMM 3.16): whose pairs the signer
    and the reporter play in is read once each, not once per pair and question."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.services.results import can_confirm

    t = table()
    report = ResultSubmission.objects.select_related("match__round__tournament", "match__pair_a", "match__pair_b").get(
        pk=result_report(match=t.match, by=t.player_a, games_a=3, games_b=1).pk
    )
    for user, allowed in ((t.player_b, True), (t.player_a, False)):
        with CaptureQueriesContext(connection) as queries:
            assert can_confirm(user, report) is allowed
        asked = [q["sql"] for q in queries.captured_queries if "torneo_pairterminal" in q["sql"]]
        assert len(asked) <= 2


def test_a_report_the_other_pair_refuses_to_sign_is_marked_on_the_mesas_desk_amm_3_16():
    """«Rechazar» on the rival's phone (AMM 3.16: the losing pair does not sign): the table is
    missing an acta again, and the mesa's desk marks it with who refused, on the page and in the
    API it refreshes from; a report withdrawn by its own submitter is no refusal."""
    from django.test import Client

    from scoring.selectors.results import entry_state

    t = table()
    report = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1)
    refused = result_reject(submission=report, by=t.player_b, reason="Fue 3-2")
    assert (refused.rejected_by, refused.rejected_at is not None) == (t.player_b, True)
    (row,) = entry_state(t.match.round).as_dict()["missing"]
    assert row["refused_by"] == t.player_b.get_username()
    desk = Client()
    desk.force_login(t.control)
    html = desk.get(f"/torneos/{t.tournament.slug}/gestion/resultados/").content.decode()
    assert 'class="refused"' in html and "la otra pareja no firmó el resultado propuesto" in html
    api = desk.get(f"/api/v1/tournaments/{t.tournament.slug}/results/pending/?round={t.match.round.number}")
    assert api.json()["missing"][0]["refused_by"] == t.player_b.get_username()
    withdrawn = result_report(match=t.match, by=t.player_a, games_a=3, games_b=2)
    result_reject(submission=withdrawn, by=t.player_a)
    (row,) = entry_state(t.match.round).as_dict()["missing"]
    assert row["refused_by"] is None
    assert 'class="refused"' not in desk.get(f"/torneos/{t.tournament.slug}/gestion/resultados/").content.decode()


def test_a_phone_signing_an_acta_now_in_disagreement_reads_why_not_a_bare_refusal_amm_3_16():
    """Pair B's first phone reports another result while its second phone (or a notification's link)
    still shows A's report to sign: opening or signing it says the two actas disagree and the mesa or
    the juez decides (409), never the generic «sin permiso»; nothing is written. Strangers still get
    a 403."""
    from django.test import Client

    from tests.factories import UserFactory

    t = table()
    report = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1)
    result_report(match=t.match, by=t.player_b, games_a=1, games_b=3)  # B's other phone: a desacuerdo
    url = f"/torneos/{t.tournament.slug}/resultados/acta/{report.pk}/confirmar/"
    phone = Client()
    phone.force_login(t.player_b)
    page = phone.get(url)
    assert page.status_code == 200 and "Versión" in page.content.decode()
    signed = phone.post(url)
    assert signed.status_code == 409 and "dos actas que no coinciden" in signed.content.decode()
    assert [s.status for s in disagreement(t.match)] == [Status.DISPUTED, Status.DISPUTED]
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(url).status_code == 403 and stranger.post(url).status_code == 403


def test_the_winners_phone_adding_tantos_to_the_mesas_entry_is_no_disagreement_amm_3_16():
    """With the double check on, the mesa's entry waits for its second person; the winning pair's
    phone reports the same juegos (it may not sign them) with or without the optional tantos: no
    desacuerdo. With tantos, its report replaces the entry, still awaiting a signature; without
    them, nothing changes (the tantos already written stay)."""
    from torneo.models import Tournament

    t = table()
    Tournament.objects.filter(pk=t.tournament.pk).update(results_double_check=True)
    entry = result_submit(match=t.match, by=t.control, games_a=3, games_b=1, tantos=TANTOS_3_1)
    same = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1)  # A won: may not sign
    assert same.pk == entry.pk and same.status == Status.PROPOSED and not disagreement(t.match)
    result_reject(submission=entry, by=t.control)  # the mesa withdraws it; typed again without tantos
    bare = result_submit(match=t.match, by=t.control, games_a=3, games_b=1)
    report = result_report(match=t.match, by=t.player_a, games_a=3, games_b=1, tantos=TANTOS_3_1)
    bare.refresh_from_db()
    assert (bare.status, report.status) == (Status.SUPERSEDED, Status.PROPOSED) and not disagreement(t.match)
    result_confirm(submission=report, by=t.player_b)
    assert (match_of(t).tantos_a, match_of(t).tantos_b) == (127, 82)
