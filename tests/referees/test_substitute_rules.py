"""The limits of a suplente (AMM 5.8), pure: referees.rules.substitutes."""

from referees.rules.substitutes import Facts, refusals


def codes(facts: Facts) -> list[str]:
    return [r.article for r in refusals(facts)]


def test_an_outsider_for_a_pair_outside_the_final_rounds_is_allowed_amm_5_8():
    assert codes(Facts(pair=4, registered=False)) == []


def test_a_suplente_who_began_a_partida_finishes_it_amm_5_8_a():
    assert codes(Facts(pair=4, registered=False, suplente_started=True)) == ["5.8.a"]


def test_nobody_registered_even_eliminated_amm_5_8_b():
    assert codes(Facts(pair=4, registered=True)) == ["5.8.b"]


def test_a_suplente_of_one_pair_is_never_one_of_another_amm_5_8_c():
    assert codes(Facts(pair=4, registered=False, earlier_pairs=frozenset({7}))) == ["5.8.c"]
    assert codes(Facts(pair=4, registered=False, earlier_pairs=frozenset({4}))) == []  # the same pair again


def test_no_suplentes_in_the_final_rounds_amm_5_8_d():
    assert codes(Facts(pair=4, registered=False, final_round=True)) == ["5.8.d"]


def test_the_three_of_a_trio_are_titulares_amm_5_8_e():
    assert codes(Facts(pair=4, registered=False, trio=True)) == ["5.8.e"]


def test_every_broken_limit_is_named_in_the_reglamentos_order_amm_5_8():
    facts = Facts(
        pair=4, registered=True, earlier_pairs=frozenset({7}), final_round=True, trio=True, suplente_started=True
    )
    assert codes(facts) == ["5.8.a", "5.8.b", "5.8.c", "5.8.d", "5.8.e"]
