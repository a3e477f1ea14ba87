"""Django admin for every tournament model, with their change history (django-simple-history).

**Searching ignores accents and case** («Garcia» finds «García», «pena» finds «Peña»), on SQLite
and PostgreSQL alike, without PostgreSQL's ``unaccent`` extension: the search term is normalised
in Python the way ``torneo.identity.normalize_name`` normalises names (NFKD, no accents, lower case,
no punctuation) and compared with

- a column stored normalised by the same function (``Player.normalized_name``, which the pair
  search reaches through its members): a plain ``LIKE`` in the database, any list size;
- for the short texts of small tables (tournaments' names and venues, pairs' names), the values
  folded in Python, a bounded read of two columns (``AccentInsensitiveSearch.python_search_limit``).

Django's own search (``search_fields``) still runs; these add what it misses.
"""

from typing import Any

from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from simple_history.admin import SimpleHistoryAdmin

from torneo.identity import identity_key, normalize_name
from torneo.models import (
    AccountToken,
    Draw,
    Match,
    Pair,
    PairMember,
    Player,
    Round,
    Session,
    Tournament,
    TournamentRole,
)


class AccentInsensitiveSearch:
    """A ModelAdmin mixin: the search also matches without accents or case (module docstring).

    ``folded_search_fields``: columns stored normalised (``normalize_name``), searched in the
    database; ``python_search_fields``: columns folded in Python, for small tables. As in Django's
    search, every word of the term must be found (in any of the fields)."""

    folded_search_fields: tuple[str, ...] = ()
    python_search_fields: tuple[str, ...] = ()
    python_search_limit = 20_000

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Any], search_term: str
    ) -> tuple[QuerySet[Any], bool]:
        results, may_have_duplicates = super().get_search_results(  # type: ignore[misc]
            request, queryset, search_term
        )
        words = normalize_name(search_term).split()
        if not words:
            return results, may_have_duplicates
        condition = Q()
        if self.folded_search_fields:
            in_db = Q()
            for word in words:
                any_field = Q()
                for field in self.folded_search_fields:
                    any_field |= Q(**{f"{field}__contains": word})
                in_db &= any_field
            condition |= in_db
            may_have_duplicates = may_have_duplicates or any("__" in f for f in self.folded_search_fields)
        if self.python_search_fields:
            rows = queryset.order_by().values_list("pk", *self.python_search_fields)[: self.python_search_limit]
            found = [
                row[0]
                for row in rows
                if all(w in normalize_name(" ".join(str(v) for v in row[1:] if v)) for w in words)
            ]
            if found:
                condition |= Q(pk__in=found)
        if not condition:
            return results, may_have_duplicates
        return results | queryset.filter(condition), may_have_duplicates


class SessionInline(admin.TabularInline):
    model = Session
    extra = 0


class RoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(AccentInsensitiveSearch, SimpleHistoryAdmin):
    list_display = ["name", "start_date", "venue", "status", "rule_set", "games_to_win", "listed"]
    list_filter = ["status", "rule_set", "listed"]
    search_fields = ["name", "venue", "slug"]
    python_search_fields = ("name", "venue")
    prepopulated_fields = {"slug": ["name"]}
    inlines = [SessionInline, RoleInline]
    date_hierarchy = "start_date"


class MemberInline(admin.TabularInline):
    model = PairMember
    extra = 0
    autocomplete_fields = ["player"]
    readonly_fields = ["identity_key"]


@admin.register(Pair)
class PairAdmin(AccentInsensitiveSearch, SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "status", "checked_in_at", "registered_at", "source"]
    list_filter = ["status", "source", "tournament"]
    search_fields = ["name", "members__player__normalized_name", "members__player__id_document"]
    folded_search_fields = ("members__player__normalized_name",)
    python_search_fields = ("name",)
    inlines = [MemberInline]
    list_select_related = ["tournament"]

    def save_model(self, request, obj, form, change):  # type: ignore[no-untyped-def]
        if obj.number is None:  # the next number in the tournament, as the services do
            last = Pair.objects.filter(tournament=obj.tournament).order_by("-number").first()
            obj.number = (last.number if last else 0) + 1
        super().save_model(request, obj, form, change)

    def save_formset(self, request, form, formset, change):  # type: ignore[no-untyped-def]
        # Keep the denormalised tournament and the one-pair-per-person key on members added here.
        for obj in formset.save(commit=False):
            obj.tournament_id = form.instance.tournament_id
            if form.instance.is_active:
                player = obj.player
                obj.identity_key = identity_key(
                    document=player.id_document, first_name=player.first_name, last_name=player.last_name
                )
            obj.save()
        formset.save_m2m()
        for obj in formset.deleted_objects:
            obj.delete()


@admin.register(Player)
class PlayerAdmin(AccentInsensitiveSearch, SimpleHistoryAdmin):
    list_display = ["full_name", "tournament", "id_document", "club", "phone", "email", "user"]
    list_filter = ["tournament"]
    search_fields = ["normalized_name", "id_document", "email", "club"]
    folded_search_fields = ("normalized_name",)
    list_select_related = ["tournament"]
    autocomplete_fields = ["user"]


@admin.register(Session)
class SessionAdmin(SimpleHistoryAdmin):
    list_display = ["name", "tournament", "starts_at", "courtesy_minutes"]
    list_filter = ["tournament"]


@admin.register(TournamentRole)
class TournamentRoleAdmin(SimpleHistoryAdmin):
    list_display = ["user", "role", "tournament"]
    list_filter = ["role", "tournament"]
    autocomplete_fields = ["user", "tournament"]


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["pool", "table_number", "slot", "pair_a", "pair_b", "outcome", "games_a", "games_b", "winner"]
    readonly_fields = fields  # results change only through the results services (versions)
    can_delete = False
    show_change_link = True


class DrawInline(admin.StackedInline):
    model = Draw
    extra = 0
    fields = ["status", "commitment", "public_value", "seed", "witness", "published_at", "replaces", "reason"]
    readonly_fields = fields
    can_delete = False


@admin.register(Round)
class RoundAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "tournament", "kind", "phase", "is_final", "status", "published_at"]
    list_filter = ["status", "kind", "tournament"]
    inlines = [DrawInline, MatchInline]
    list_select_related = ["tournament"]


@admin.register(Draw)
class DrawAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "status", "commitment", "public_value", "published_at"]
    list_filter = ["status"]
    readonly_fields = ["secret", "commitment", "requests", "results", "seed", "public_value", "replaces"]


@admin.register(Match)
class MatchAdmin(SimpleHistoryAdmin):
    list_display = ["__str__", "round", "table_number", "outcome", "games_a", "games_b", "winner"]
    list_filter = ["outcome", "round__tournament"]
    search_fields = ["pair_a__name", "pair_b__name"]
    list_select_related = ["round", "pair_a", "pair_b", "winner"]
    raw_id_fields = ["pair_a", "pair_b", "winner", "draw"]


@admin.register(AccountToken)
class AccountTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """One-time codes and links (torneo/services/accounts.py): made on the site's pages, where their
    secret is shown once; here they are only seen, annulled by date or deleted. The hash is not shown."""

    list_display = ["__str__", "kind", "tournament", "player", "role", "label", "user", "expires_at", "state"]
    list_filter = ["kind", "tournament"]
    search_fields = ["label", "selector", "player__normalized_name", "user__username"]
    list_select_related = ["tournament", "player", "user"]
    exclude = ["secret_hash"]
    readonly_fields = [
        "tournament",
        "kind",
        "selector",
        "player",
        "role",
        "label",
        "user",
        "created_by",
        "created_at",
        "expires_at",
        "used_at",
        "used_by",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
