"""The sanction ladder of AMM 5.4 (referees.rules.ladder): pure, no database."""

import pytest

from referees.rules.ladder import LadderError, Past, Step, check_choice, propose


def test_a_first_infraction_is_an_apercibimiento_on_the_acta_amm_5_4():
    proposal = propose([], match=7)
    assert proposal is not None
    assert (proposal.step, proposal.options, proposal.counted) == (Step.APERCIBIMIENTO, (Step.APERCIBIMIENTO,), ())


def test_a_repetition_in_the_same_partida_costs_a_juego_amm_5_4():
    record = [Past(Step.APERCIBIMIENTO, 7, "3.20.c")]
    proposal = propose(record, match=7)
    assert proposal is not None and proposal.step == Step.JUEGO and proposal.counted == tuple(record)


def test_successive_infractions_offer_the_partida_or_the_expulsion_amm_5_4():
    record = [Past(Step.APERCIBIMIENTO, 7), Past(Step.JUEGO, 7)]
    proposal = propose(record, match=7)
    assert proposal is not None and proposal.options == (Step.PARTIDA, Step.EXPULSION)
    check_choice(proposal, Step.EXPULSION, "")  # either, without a reason


def test_by_default_the_ladder_counts_the_same_partida_and_shows_the_others_amm_5_4():
    earlier = Past(Step.JUEGO, 3)
    proposal = propose([earlier], match=7)
    assert proposal is not None
    assert proposal.step == Step.APERCIBIMIENTO and proposal.elsewhere == (earlier,) and proposal.scope == "partida"


def test_a_tournament_may_count_the_whole_tournament_amm_5_4():
    proposal = propose([Past(Step.APERCIBIMIENTO, 3)], match=7, scope="torneo")
    assert proposal is not None and proposal.step == Step.JUEGO and proposal.elsewhere == ()


def test_any_infraction_counts_not_only_the_same_article_amm_5_4():
    proposal = propose([Past(Step.APERCIBIMIENTO, 7, "6.3")], match=7)
    assert proposal is not None and proposal.step == Step.JUEGO


def test_the_next_step_is_one_above_the_highest_in_force_amm_5_4():
    twice_warned = [Past(Step.APERCIBIMIENTO, 7), Past(Step.APERCIBIMIENTO, 7)]
    proposal = propose(twice_warned, match=7)
    assert proposal is not None and proposal.step == Step.JUEGO


def test_skipping_steps_needs_a_reason_amm_5_4_a():
    proposal = propose([], match=7)
    assert proposal is not None
    with pytest.raises(LadderError) as refused:
        check_choice(proposal, Step.PARTIDA, "  ")
    assert refused.value.code == "skip_needs_reason" and "5.4.a" in str(refused.value)
    check_choice(proposal, Step.PARTIDA, "Marcaje evidente de cartas, intencionado")


def test_a_lower_step_than_offered_needs_a_reason_too_amm_5_4():
    proposal = propose([Past(Step.APERCIBIMIENTO, 7)], match=7)
    assert proposal is not None
    with pytest.raises(LadderError) as refused:
        check_choice(proposal, Step.APERCIBIMIENTO, "")
    assert refused.value.code == "lower_needs_reason"
    check_choice(proposal, Step.APERCIBIMIENTO, "Primera vez que juegan un torneo")


def test_an_article_with_its_own_penalty_has_no_ladder_amm_5_4():
    assert propose([Past(Step.APERCIBIMIENTO, 7)], match=7, penalty="own") is None


def test_an_agreed_or_manipulated_result_is_the_expulsion_amm_3_16_b():
    proposal = propose([], match=7, penalty="expulsion")
    assert proposal is not None and proposal.options == (Step.EXPULSION,) and proposal.article == "3.16.b"


def test_reiterations_at_the_venue_escalate_over_the_tournament_amm_5_10_and_5_4_2():
    """5.10 «en el lugar del evento»: outside any partida there is no acta to count; the pair's
    venue infractions escalate over the whole tournament, its partidas' sanctions shown apart."""
    outside = Past(Step.APERCIBIMIENTO, None, "5.10")
    in_a_partida = Past(Step.APERCIBIMIENTO, 3, "3.19")
    proposal = propose([outside, in_a_partida], match=None)
    assert proposal is not None and proposal.step == Step.JUEGO
    assert proposal.counted == (outside,) and proposal.elsewhere == (in_a_partida,)
    third = propose([outside, Past(Step.JUEGO, None, "5.10")], match=None)
    assert third is not None and third.options == (Step.PARTIDA, Step.EXPULSION)
    with pytest.raises(LadderError):
        propose([], match=None, scope="jornada")  # type: ignore[arg-type]


def test_a_sanction_with_its_own_penalty_is_not_a_step_of_the_protocol_amm_5_4():
    """5.4 «…que no esté expresamente determinada»: a juego lost for lateness (6.1.b) is not a
    step; a first 3.19 infraction after it is offered the apercibimiento."""
    lateness = Past(Step.JUEGO, 7, "6.1.b", penalty="own")
    proposal = propose([lateness], match=7)
    assert proposal is not None and proposal.step == Step.APERCIBIMIENTO and proposal.options == (Step.APERCIBIMIENTO,)
    assert proposal.counted == () and proposal.apart == (lateness,)
    whole = propose([lateness, Past(Step.PARTIDA, 2, "3.17", penalty="own")], match=7, scope="torneo")
    assert whole is not None and whole.step == Step.APERCIBIMIENTO
