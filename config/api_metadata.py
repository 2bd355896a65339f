"""What `OPTIONS` says a write takes: the body its action reads, not what it answers with.

DRF's metadata describes `POST` with `view.get_serializer()`, asked while the view's
action is "metadata"; a viewset that answers every write with its own serializer then
describes a match's create, a move or a resignation with the match it returns. Here the
action is the one the method runs on that path, and `RequestBodies` gives each write's
body serializer, the one the view validates with and the schema documents. A write on
one object (a detail route's POST, as DRF's own PUT) is described only to whoever passes
its object permission too: an Event's start to its organizers, not to anyone signed in.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers
from rest_framework.metadata import SimpleMetadata
from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request, clone_request


class NoBodySerializer(serializers.Serializer):
    """The body of a write that reads none (join, rematch, cancel...): no fields."""


class RequestBodies:
    """Each write action's body serializer (`request_serializers`, None for no body); reads
    keep the view's `serializer_class`. A write left out is a mistake, refused loudly."""

    request_serializers: dict[str, type[serializers.Serializer] | None] = {}

    def get_serializer_class(self) -> Any:
        view: Any = self
        request = getattr(view, "request", None)
        if request is None or request.method in SAFE_METHODS:
            return super().get_serializer_class()  # type: ignore[misc]
        body = self.request_serializers[view.action]
        return NoBodySerializer if body is None else body


class ActionMetadata(SimpleMetadata):
    """`OPTIONS` as DRF answers it, each method's permission and fields asked of the action
    that method runs (a viewset's `action_map`); on a detail route, of its object too."""

    def determine_actions(self, request: Request, view: Any) -> dict[str, Any]:
        action_map = getattr(view, "action_map", None)
        if not action_map:
            return super().determine_actions(request, view)
        actions = {}
        asked = view.action
        for method in {"PUT", "POST"} & set(view.allowed_methods):
            view.request = clone_request(request, method)
            view.action = action_map.get(method.lower())
            try:
                view.check_permissions(view.request)
                if method == "PUT" or getattr(view, "detail", False):
                    view.get_object()  # and its permission: an Event's writes, its organizers'
            except (exceptions.APIException, PermissionDenied, Http404):
                continue
            else:
                actions[method] = self.get_serializer_info(view.get_serializer())
            finally:
                view.request, view.action = request, asked
        return actions
