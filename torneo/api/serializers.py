"""API representations. Public ones never carry contact data; writes go through the services."""

from rest_framework import serializers

from torneo.models import Pair, Player, Session, Tournament
from torneo.services.registrations import MAX_PLAYERS, PLAYER_FIELDS, PlayerData
from torneo.services.tournaments import TOURNAMENT_FIELDS


class SessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Session
        fields = ["id", "name", "starts_at", "courtesy_minutes"]


class TournamentSerializer(serializers.ModelSerializer):
    sessions = SessionSerializer(many=True, read_only=True)
    slug = serializers.SlugField(required=False, max_length=80)

    class Meta:
        model = Tournament
        fields = [*TOURNAMENT_FIELDS, "sessions"]
        # Uniqueness is checked by the service (a clear message), not by a second query here.
        extra_kwargs = {"slug": {"validators": []}}


class PlayerPublicSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["first_name", "last_name", "club"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "id_document", "phone", "email", "club"]


class PairPublicSerializer(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    display_name = serializers.CharField(read_only=True)
    checked_in = serializers.SerializerMethodField()

    class Meta:
        model = Pair
        fields = ["number", "name", "display_name", "status", "checked_in", "players"]

    def get_players(self, pair: Pair) -> list[dict[str, str]]:
        return PlayerPublicSerializer([m.player for m in pair.ordered_members()], many=True).data

    def get_checked_in(self, pair: Pair) -> bool:
        return pair.checked_in_at is not None


class PairPrivateSerializer(PairPublicSerializer):
    class Meta(PairPublicSerializer.Meta):
        fields = [
            *PairPublicSerializer.Meta.fields,
            "registered_at",
            "checked_in_at",
            "withdrawn_at",
            "source",
            "notes",
            "version",
        ]

    def get_players(self, pair: Pair) -> list[dict[str, str]]:
        return PlayerSerializer([m.player for m in pair.ordered_members()], many=True).data


class PlayerWriteSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100, allow_blank=True)
    last_name = serializers.CharField(max_length=150, allow_blank=True)
    id_document = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    phone = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    email = serializers.CharField(max_length=254, required=False, allow_blank=True, default="")
    club = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class PairWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    # A pareja or a trío (AMM 5.8.e): a longer list is refused before any of it is read.
    players = PlayerWriteSerializer(many=True, max_length=MAX_PLAYERS)
    version = serializers.IntegerField(
        required=False, min_value=1, help_text="Versión leída (para no pisar cambios ajenos)."
    )

    def player_data(self) -> list[PlayerData]:
        return [PlayerData(**{f: p.get(f, "") for f in PLAYER_FIELDS}) for p in self.validated_data["players"]]


class WithdrawSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField()
