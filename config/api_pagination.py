"""The pages of every API list: `page` (1 on) and `page_size` (1 to MAX_PAGE_SIZE), read
like any other query parameter (a bad one is 400 `invalid`, naming it); a page past the
last is 404 `page_out_of_range`. The `next` and `previous` links keep the page size asked
for, so following them reads pages of that size.

A list takes the query parameters its operation documents in the schema (its filters, as
`@extend_schema(parameters=...)` declares them), its pages' and `format`, and no other:
one it does not take is 400 `unknown_parameter`, as for every read (config.api_parameters)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import InvalidPage
from rest_framework import exceptions, pagination, serializers
from rest_framework.request import Request
from rest_framework.settings import api_settings

from config.api_json import LARGEST_INT
from config.api_strict import Serializer

MAX_PAGE_SIZE = 100


class PageOutOfRange(exceptions.NotFound):
    default_code = "page_out_of_range"


class PageNumberPagination(pagination.PageNumberPagination):
    """DRF's page numbers, with the page size a client asks for; no `page=last` (the
    last page's number is `count` over the page size, rounded up)."""

    page_size_query_param = "page_size"
    # (the site's own page size, where API_PAGE_SIZE sets one larger)
    max_page_size = max(MAX_PAGE_SIZE, api_settings.PAGE_SIZE or 0)

    def query(self, request: Request) -> dict[str, Any]:
        """`page` and `page_size` as sent, checked (400 `invalid` names each bad one)."""
        fields = {
            self.page_query_param: serializers.IntegerField(
                required=False, min_value=1, max_value=LARGEST_INT),
            self.page_size_query_param: serializers.IntegerField(
                required=False, min_value=1, max_value=self.max_page_size),
        }
        query = type("PageQuery", (Serializer,), fields)(data=request.query_params)
        query.is_valid(raise_exception=True)
        return dict(query.validated_data)

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None
                          ) -> list[Any]:
        self.request = request
        query = self.query(request)
        paginator = self.django_paginator_class(
            queryset, query.get(self.page_size_query_param, self.page_size))
        number = query.get(self.page_query_param, 1)
        try:
            self.page = paginator.page(number)
        except InvalidPage:
            raise PageOutOfRange(f"Page {number} is past the last page of this list "
                                 f"({paginator.num_pages}).") from None
        # The browsable API shows its page links.
        self.display_page_controls = paginator.num_pages > 1
        return list(self.page)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            {"name": self.page_query_param, "required": False, "in": "query",
             "description": "A page number, 1 on (default 1); past the last page, 404 "
                            "page_out_of_range.",
             "schema": {"type": "integer", "minimum": 1}},
            {"name": self.page_size_query_param, "required": False, "in": "query",
             "description": f"Items a page (default {self.page_size}); the `next` and "
                            "`previous` links keep it.",
             "schema": {"type": "integer", "minimum": 1, "maximum": self.max_page_size}},
        ]

