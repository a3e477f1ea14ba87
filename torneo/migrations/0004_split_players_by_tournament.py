"""Personal data belongs to one tournament's registration (RGPD): a Player row that several
tournaments shared (matched by document) becomes one row per tournament, each a copy of what that
row held, and every membership points at its own tournament's copy. A row no registration uses any
more (a partner replaced before play) held personal data with no purpose: it is deleted."""

from django.db import migrations

COPIED = ("first_name", "last_name", "id_document", "phone", "email", "club", "normalized_name", "user_id")


def split(apps, schema_editor):
    Player = apps.get_model("torneo", "Player")
    PairMember = apps.get_model("torneo", "PairMember")
    for player in Player.objects.all().iterator():
        tournament_ids = sorted(set(PairMember.objects.filter(player=player).values_list("tournament_id", flat=True)))
        if not tournament_ids:
            player.delete()
            continue
        player.tournament_id = tournament_ids[0]
        player.save(update_fields=["tournament"])
        for tournament_id in tournament_ids[1:]:
            copy = Player.objects.create(
                tournament_id=tournament_id, **{name: getattr(player, name) for name in COPIED}
            )
            PairMember.objects.filter(player=player, tournament_id=tournament_id).update(player=copy)


class Migration(migrations.Migration):
    dependencies = [("torneo", "0003_player_tournament")]

    operations = [migrations.RunPython(split, migrations.RunPython.noop)]
