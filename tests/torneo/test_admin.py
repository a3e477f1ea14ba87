"""The Django admin works for every model: every changelist and change page renders."""

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tests.torneo.simulation import new_tournament

pytestmark = pytest.mark.django_db


def test_every_admin_page_renders():
    sim = new_tournament(6)
    sim.play_round()
    superuser = UserFactory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(superuser)
    for model, model_admin in admin.site._registry.items():
        meta = model._meta
        response = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert response.status_code == 200, meta.label
        obj = model.objects.first()
        if obj is not None:
            response = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk]))
            assert response.status_code == 200, meta.label
            if hasattr(model_admin, "history_view"):
                url = reverse(f"admin:{meta.app_label}_{meta.model_name}_history", args=[obj.pk])
                assert client.get(url).status_code == 200, meta.label


def test_a_pair_added_in_the_admin_gets_the_next_number():
    sim = new_tournament(3)
    client = Client()
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.post(
        reverse("admin:torneo_pair_add"),
        {
            "tournament": sim.tournament.pk,
            "name": "Desde admin",
            "status": "confirmed",
            "source": "control",
            "version": 1,
            "members-TOTAL_FORMS": 0,
            "members-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 302, response.content[:2000]
    assert sim.tournament.pairs.get(name="Desde admin").number == 4
