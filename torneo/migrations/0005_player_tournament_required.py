import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("torneo", "0004_split_players_by_tournament")]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="players",
                to="torneo.tournament",
                verbose_name="torneo",
            ),
        ),
    ]
