"""The API's pagination: DRF's limit/offset, bounded. An offset or a limit past what a database
integer holds (``?offset=99999999999999999999``) was a PostgreSQL «bigint out of range», a 500
(and it aborted the request's transaction): the offset is capped at MAX_OFFSET — past every row
anyway, so the page is empty — and the limit at MAX_LIMIT."""

from typing import Any

from rest_framework.pagination import LimitOffsetPagination

MAX_OFFSET = 1_000_000_000
MAX_LIMIT = 1000


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_offset(self, request: Any) -> int:
        return min(int(super().get_offset(request)), MAX_OFFSET)
