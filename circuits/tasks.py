"""Celery tasks of the circuits app. Thin: they call services."""

from celery import shared_task

from circuits.ratings import ratings_run


@shared_task(name="circuits.ratings", ignore_result=True)
def ratings_task() -> bool:
    """The ratings again from every rated partida, after results counted (circuits.ratings)."""
    return ratings_run()
