"""Personal data on request (RGPD, LOPDGDD; DESIGN «Personal data»): erasure of a player's contact
and identity data.

What is erased: the DNI/NIE or passport, the phone and the e-mail of one tournament's player record
— there is no other copy, since every registration owns its records — and the same fields in the
record's change history (django-simple-history would otherwise keep every past value). What stays:
the name, surnames and club, which the tournament's public record (draws, actas, standings, the
final classification) is made of. The player's pair keeps its place; «one person, one pair» goes on
by the name, as for anyone registered without a document.
"""

from django.db import transaction

from torneo.identity import identity_key
from torneo.models import EmailSubscription, PairMember, Player, Tournament

ERASED_FIELDS = ("id_document", "phone", "email")


def player_erase_personal_data(*, player: Player) -> Player:
    """Erase `player`'s document, phone and e-mail, now and in the history, and the addresses their
    pairs asked the notices at that are theirs (torneo.EmailSubscription). Idempotent."""
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=player.tournament_id).values_list("pk", flat=True).get()
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.email:
            EmailSubscription.objects.filter(
                pair__members__player=player, email__iexact=player.email
            ).delete()
        for name in ERASED_FIELDS:
            setattr(player, name, "")
        player.save()
        Player.history.filter(id=player.pk).update(**dict.fromkeys(ERASED_FIELDS, ""))
        for member in PairMember.objects.select_for_update().filter(player=player):
            by_name = identity_key(document="", first_name=player.first_name, last_name=player.last_name)
            if member.identity_key is not None and member.identity_key.startswith("doc:"):
                taken = (
                    PairMember.objects.filter(tournament_id=member.tournament_id, identity_key=by_name)
                    .exclude(pk=member.pk)
                    .exists()
                )
                # Another registered player with the same name (told apart by documents until now):
                # a key of its own keeps both places.
                member.identity_key = f"erased:{member.pk}" if taken else by_name
                member.save(update_fields=["identity_key"])
            PairMember.history.filter(id=member.pk, identity_key__startswith="doc:").update(
                identity_key=f"erased:{member.pk}"
            )
        return player
