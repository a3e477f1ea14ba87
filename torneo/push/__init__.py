"""Web Push (issue 33): the site's VAPID keys (``keys``), the subscriptions' API (torneo/api/push.py)
and the sending (``send``: Celery tasks in batches). Nothing here imports the sending library until
a notification goes out."""
