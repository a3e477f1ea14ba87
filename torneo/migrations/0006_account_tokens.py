import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("torneo", "0005_player_tournament_required"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountToken",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                (
                    "kind",
                    models.CharField(
                        choices=[
                            ("player", "Código de jugador"),
                            ("invite", "Invitación"),
                            ("reset", "Nueva contraseña"),
                        ],
                        max_length=10,
                        verbose_name="tipo",
                    ),
                ),
                ("selector", models.CharField(editable=False, max_length=16)),
                ("secret_hash", models.CharField(editable=False, max_length=64)),
                (
                    "role",
                    models.CharField(
                        blank=True,
                        choices=[("organizer", "Organización"), ("control", "Mesa de control"), ("juez", "Juez")],
                        max_length=10,
                        verbose_name="función",
                    ),
                ),
                ("label", models.CharField(blank=True, max_length=150, verbose_name="para")),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="creado")),
                ("expires_at", models.DateTimeField(verbose_name="caduca")),
                ("used_at", models.DateTimeField(blank=True, null=True, verbose_name="usado")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="anulado")),
                (
                    "created_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="creado por",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="account_tokens",
                        to="torneo.player",
                        verbose_name="jugador",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="account_tokens",
                        to="torneo.tournament",
                        verbose_name="torneo",
                    ),
                ),
                (
                    "used_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="usado por",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="usuario",
                    ),
                ),
            ],
            options={
                "verbose_name": "código o enlace de cuenta",
                "verbose_name_plural": "códigos y enlaces de cuenta",
                "ordering": ["-created_at"],
                "indexes": [models.Index(fields=["tournament", "kind"], name="torneo_acco_tournam_0e3b1b_idx")],
                "constraints": [
                    models.UniqueConstraint(fields=("tournament", "selector"), name="unique_account_token_selector"),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("kind", "player"), ("player__isnull", False)),
                            models.Q(("kind", "invite"), ("role__in", ["control", "juez"])),
                            models.Q(("kind", "reset"), ("user__isnull", False)),
                            _connector="OR",
                        ),
                        name="account_token_kind_fields",
                    ),
                ],
            },
        ),
    ]
