"""API representations. Public ones never carry contact data; writes go through the services."""

import copy
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.settings import api_settings

from torneo.models import Pair, Player, Session, Tournament
from torneo.services.registrations import MAX_PLAYERS, PLAYER_FIELDS, PlayerData
from torneo.services.tournaments import TOURNAMENT_FIELDS


class SessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Session
        fields = ["id", "name", "starts_at", "courtesy_minutes"]


# A model constraint's error, on the field the user should correct (the model says «__all__»).
_CONSTRAINT_FIELDS = {"tournament_dates_in_order": "end_date"}


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament, written through the services. A bad body reports every error at once: each
    field's own, and the model's rules (Tournament.clean, its constraints, a slug already taken)
    for the fields that are right, each under its field."""

    sessions = SessionSerializer(many=True, read_only=True)
    slug = serializers.SlugField(required=False, max_length=80)

    class Meta:
        model = Tournament
        fields = [*TOURNAMENT_FIELDS, "sessions"]
        # Uniqueness is checked with the model's rules (model_errors), not by a validator here.
        extra_kwargs = {"slug": {"validators": []}}

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        try:
            values = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if not isinstance(exc.detail, dict) or not isinstance(data, Mapping):
                raise
            errors: dict[str, Any] = dict(exc.detail)
            values = self._valid_values(data, skip=set(errors))
        else:
            errors = {}
        for key, messages in self.model_errors(values).items():
            errors.setdefault(key, messages)  # a field's own error comes first
        if errors:
            raise serializers.ValidationError(errors)
        return values

    def _valid_values(self, data: Mapping[str, Any], *, skip: set[str]) -> dict[str, Any]:
        """The values of the fields that passed (DRF stops collecting them at the first error)."""
        values: dict[str, Any] = {}
        for field in self._writable_fields:
            if field.field_name in skip:
                continue
            try:
                values[field.source] = field.run_validation(field.get_value(data))
            except (serializers.ValidationError, DjangoValidationError, SkipField):
                continue
        return values

    def model_errors(self, values: dict[str, Any]) -> dict[str, list[str]]:
        """What Tournament.full_clean and its constraints say of these values (on a copy of the
        edited tournament, or a new one), by field; the fields not given keep their values."""
        tournament = copy.copy(self.instance) if self.instance is not None else Tournament()
        for key, value in values.items():
            setattr(tournament, key, value)
        exclude = {f.name for f in Tournament._meta.concrete_fields if f.name not in TOURNAMENT_FIELDS}
        exclude |= {name for name in TOURNAMENT_FIELDS if name not in values and self.instance is None}
        if self.instance is None and not values.get("slug"):
            exclude.add("slug")  # the service makes one from the name
        errors: dict[str, list[str]] = {}
        try:
            tournament.full_clean(exclude=exclude, validate_constraints=False)
        except DjangoValidationError as exc:
            for key, messages in exc.message_dict.items():
                errors.setdefault(api_settings.NON_FIELD_ERRORS_KEY if key == NON_FIELD_ERRORS else key, []).extend(
                    messages
                )
        for constraint in Tournament._meta.constraints:
            try:
                constraint.validate(Tournament, tournament, exclude=exclude)
            except DjangoValidationError as exc:
                key = _CONSTRAINT_FIELDS.get(constraint.name, api_settings.NON_FIELD_ERRORS_KEY)
                errors.setdefault(key, []).extend(exc.messages)
        return errors


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
