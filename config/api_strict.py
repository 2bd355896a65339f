"""A JSON body's values are read as the type the schema states, never converted.

DRF reads a field's value the way a form's would be read: a text field takes the number
7 as "7", a boolean field takes 0, 1, "true" or "no", an integer field takes "3", a choice
of texts takes the number 1 as "1" (and a choice of numbers "1" as 1), a JSON field takes
whatever it is sent. A JSON client that sends `{"seat": "0"}` or `{"leaving": 1}` has a
bug that this hides, and one sending `{"name": 5}` gets an Event named "5". So every API
body serializer refuses, in a JSON body, a text field's value that is not a string, a
boolean's that is not true or false, an integer's (or an id's) that is a string, a
choice's of another type than the choice it names, a date's or a time's that is not a
string (and a date-time's that is a date alone, which DRF reads as its midnight), and a JSON field's of another type than the one its schema states (an object,
an array...): a 400 `invalid` naming the field, as any other value it cannot read.

A form's body and a query string carry nothing but text: those are read as DRF reads
them (a `QueryDict` is never held to JSON's types; a date-time's date alone is refused
there too). One thing DRF reads there silently:
a name given twice (`?game=a&game=b`), of which it keeps the last. A field that takes one
value refuses it, 400 `repeated_parameter` naming it: the client meant one of the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.http import QueryDict
from drf_spectacular.drainage import get_override
from rest_framework import serializers
from rest_framework.exceptions import APIException, ErrorDetail, ValidationError
from rest_framework.settings import api_settings
from rest_framework.utils import humanize_datetime

Detail = list[ErrorDetail] | dict[Any, Any]


def _invalid(field: serializers.Field, key: str = "invalid", **kwargs: Any) -> list[ErrorDetail]:
    """The field's own message for a value it cannot read."""
    try:
        field.fail(key, **kwargs)
    except ValidationError as exc:
        return list(exc.detail)  # type: ignore[arg-type]
    raise AssertionError("fail() raises")  # pragma: no cover


def loose(field: serializers.Field, value: Any) -> Detail | None:
    """The refusal of `value` for `field` where DRF would convert it from another JSON
    type (a number read as text, 1 as true, "3" as 3, 1 as the choice "1", text as an
    object); None where the field reads it
    itself (null and everything else are the field's own business)."""
    if value is None or field.read_only:
        return None
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else _invalid(field)
    if isinstance(field, serializers.CharField):
        return None if isinstance(value, str) else _invalid(field)
    if isinstance(field, serializers.IntegerField):
        return _invalid(field) if isinstance(value, str) else None
    if isinstance(field, serializers.PrimaryKeyRelatedField):
        return (_invalid(field, "incorrect_type", data_type="str")
                if isinstance(value, str) else None)
    if isinstance(field, serializers.MultipleChoiceField):
        return _choices_loose(field, value) if isinstance(value, list) else None
    if isinstance(field, serializers.ChoiceField):
        return _choices_loose(field, [value])
    if isinstance(field, WHEN):
        return _wrong_format(field) if not isinstance(value, str) else bare_date(field, value)
    if isinstance(field, serializers.JSONField):
        return _json_loose(field, value)
    if isinstance(field, serializers.ListField) and isinstance(value, list):
        items = {index: loose(field.child, item) for index, item in enumerate(value)}
        return {index: detail for index, detail in items.items() if detail} or None
    if isinstance(field, serializers.DictField) and isinstance(value, dict):
        entries = {key: loose(field.child, item) for key, item in value.items()}
        return {key: detail for key, detail in entries.items() if detail} or None
    return None


def _json_type(value: Any) -> str:
    """The JSON type of a value a JSON body holds, as a schema names it."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value), "null")


def _choices_loose(field: serializers.ChoiceField, values: list[Any]) -> Detail | None:
    """The refusal of the first of `values` that names a choice of `field` by a value of
    another type (1 for "1", "1" for 1); None where each names one as it is, or none at
    all (which the field refuses itself)."""
    for value in values:
        choice = field.choice_strings_to_values.get(str(value), value)
        if _json_type(choice) != _json_type(value):
            return _invalid(field, "invalid_choice", input=value)
    return None


# A date's, a time's or a length of time's field, which reads text alone.
WHEN = (serializers.DateTimeField, serializers.DateField, serializers.TimeField,
        serializers.DurationField)
FORMATS = {serializers.DateTimeField: ("DATETIME_INPUT_FORMATS",
                                       humanize_datetime.datetime_formats),
           serializers.DateField: ("DATE_INPUT_FORMATS", humanize_datetime.date_formats),
           serializers.TimeField: ("TIME_INPUT_FORMATS", humanize_datetime.time_formats)}


def bare_date(field: serializers.Field, value: str) -> list[ErrorDetail] | None:
    """The refusal of a date alone ("2026-12-07") for a date-time field, which DRF reads as
    that day's midnight, in the site's time zone: the schema's `date-time` has a time of
    day, and a client sending a date meant a day, not an instant. None otherwise."""
    if not isinstance(field, serializers.DateTimeField):
        return None
    try:
        date.fromisoformat(value.strip())
    except ValueError:
        return None
    return _wrong_format(field)


def _wrong_format(field: serializers.Field) -> list[ErrorDetail]:
    """The field's own message for text not of its format, naming the formats it reads."""
    for kind, (setting, humanize) in FORMATS.items():
        if isinstance(field, kind):
            formats = getattr(field, "input_formats", None) or getattr(api_settings, setting)
            return _invalid(field, format=humanize(formats))
    return _invalid(field, format="[DD] [HH:[MM:]]ss[.uuuuuu]")  # DRF's, for a duration


def _json_loose(field: serializers.JSONField, value: Any) -> Detail | None:
    """The refusal of a JSON field's value of another type than its schema states
    (`extend_schema_field`: an object, an array, an integer, or one of several); None
    where its schema states none."""
    schema = get_override(field, "field")
    if not isinstance(schema, dict):
        return None
    alternatives = schema.get("oneOf") or schema.get("anyOf") or [schema]
    types = {alternative.get("type") for alternative in alternatives}
    if None in types:  # an alternative of any type
        return None
    sent = _json_type(value)
    if sent in types or (sent == "integer" and "number" in types):
        return None
    named = " or ".join(A_TYPE[each] for each in sorted(types))
    return [ErrorDetail(f"Expected {named}, not {A_TYPE[sent]}.", code="invalid")]


A_TYPE = {"object": "an object", "array": "an array", "string": "a string",
          "integer": "an integer", "number": "a number", "boolean": "a boolean",
          "null": "null"}


class RepeatedParameter(APIException):
    """A query parameter (or a form's field) of one value given several times."""

    status_code = 400
    default_code = "repeated_parameter"


class UnknownParameter(APIException):
    """A query parameter a list does not take (a filter misspelt, or another list's)."""

    status_code = 400
    default_code = "unknown_parameter"


# Fields that read every value of a name (`?x=1&x=2`), as a list.
MANY_VALUED = (serializers.ListField, serializers.MultipleChoiceField,
               serializers.ManyRelatedField)


def refuse_repeated(fields: Any, data: QueryDict) -> None:
    """RepeatedParameter for the first field of one value that `data` gives twice."""
    for field in fields:
        count = len(data.getlist(field.field_name))
        if count > 1 and not isinstance(field, MANY_VALUED):
            raise RepeatedParameter(f"{field.field_name} is given {count} times: give it "
                                    "once.")


# No docstrings on these classes: drf-spectacular would give their text to every body
# and answer whose own serializer has none.
class StrictTypes:
    # A serializer that reads a JSON body's values strictly, and a query string's (or a
    # form's) one value of a name once (see the module).

    def to_internal_value(self, data: Any) -> Any:
        refused: dict[str, Detail] = {}
        if isinstance(data, QueryDict):
            refuse_repeated(self._writable_fields, data)  # type: ignore[attr-defined]
            for field in self._writable_fields:  # type: ignore[attr-defined]
                text = data.get(field.field_name)
                dated = bare_date(field, text) if text else None
                if dated:
                    refused[field.field_name] = dated
        elif isinstance(data, Mapping):
            for field in self._writable_fields:  # type: ignore[attr-defined]
                if field.field_name in data:
                    detail = loose(field, data[field.field_name])
                    if detail:
                        refused[field.field_name] = detail
        try:
            value = super().to_internal_value(data)  # type: ignore[misc]
        except ValidationError as exc:
            if not refused or not isinstance(exc.detail, dict):
                raise
            raise ValidationError({**exc.detail, **refused}) from None
        if refused:
            raise ValidationError(refused)
        return value


class Serializer(StrictTypes, serializers.Serializer):
    pass


class ModelSerializer(StrictTypes, serializers.ModelSerializer):
    pass
