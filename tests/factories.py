"""factory_boy factories. Pairs are created through the registration service, so every pair in
a test holds the same invariants as a real one (number, identity keys, waiting list)."""

import datetime
from typing import Any

import factory
from django.contrib.auth.models import Permission, User

from torneo.models import Pair, Tournament, TournamentRole
from torneo.services.registrations import PlayerData, pair_register

_FIRST = [
    "Antonio",
    "Begoña",
    "Carmen",
    "Daniel",
    "Elena",
    "Fermín",
    "Gloria",
    "Hugo",
    "Inés",
    "Jaime",
    "Koldo",
    "Lucía",
    "Mikel",
    "Nuria",
    "Óscar",
    "Paula",
    "Quique",
    "Rosa",
    "Santiago",
    "Teresa",
]
_LAST = [
    "Abad",
    "Barrios",
    "Cano",
    "Díaz",
    "Esteban",
    "Font",
    "Garrido",
    "Herrero",
    "Ibarra",
    "Juárez",
    "Lara",
    "Maestre",
    "Núñez",
    "Olmedo",
    "Prieto",
    "Quintana",
    "Robles",
    "Soto",
    "Toledo",
    "Urquijo",
]


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"usuario{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "clave-de-prueba")

    @factory.post_generation
    def can_create_tournaments(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if extracted:
            self.user_permissions.add(Permission.objects.get(codename="add_tournament"))
        self.save()


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Tournament

    name = factory.Sequence(lambda n: f"Torneo de prueba {n}")
    slug = factory.Sequence(lambda n: f"torneo-{n}")
    venue = "Peña El Órdago"
    start_date = factory.LazyFunction(lambda: datetime.date(2026, 12, 12))
    end_date = factory.LazyAttribute(lambda t: t.start_date + datetime.timedelta(days=1))
    status = Tournament.Status.REGISTRATION_OPEN


def grant(user: User, tournament: Tournament, role: str) -> User:
    TournamentRole.objects.create(user=user, tournament=tournament, role=role)
    return user


def player_data(n: int, **overrides: str) -> PlayerData:
    """A distinct, valid player for each n."""
    values = {"first_name": _FIRST[n % 20], "last_name": f"{_LAST[(n // 20) % 20]} {_LAST[n % 7]} {n}"}
    values.update(overrides)
    return PlayerData(**values)


_counter = iter(range(10_000, 10**9))  # far from the small numbers tests pick explicitly


def make_pair(
    tournament: Tournament,
    *,
    players: list[PlayerData] | None = None,
    name: str = "",
    source: str = Pair.Source.CONTROL,
) -> Pair:
    if players is None:
        players = [player_data(next(_counter)), player_data(next(_counter))]
    return pair_register(tournament=tournament, players=players, name=name, source=source)
