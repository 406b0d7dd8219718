"""The API described as OpenAPI 3.1, made from the asks themselves (their fields, types and
defaults), so that the description cannot drift from what the server reads."""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from ndoku import __version__

_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}
_ERROR = {
    "description": "bad input or options: the sentence `ndoku` prints after `Error:` (with "
    "line and column for a bad puzzle), or 413 (body over 1 MB), 415-like refusals of a "
    "body that is no JSON, 503 when every slot is busy",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}


def schema_of(kind: type[Any]) -> dict[str, Any]:
    """The JSON schema of an ask's body.

    >>> from ndoku.web.asks import CountAsk
    >>> schema_of(CountAsk)["properties"]["limit"]
    {'type': 'integer', 'default': 2}
    """
    hints = typing.get_type_hints(kind)
    properties: dict[str, Any] = {}
    needed = []
    for f in dataclasses.fields(kind):
        hint = hints[f.name]
        allowed = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
        names = [_TYPES[t] for t in allowed]
        prop: dict[str, Any] = {"type": names[0] if len(names) == 1 else names}
        if f.default is dataclasses.MISSING:
            needed.append(f.name)
        else:
            prop["default"] = f.default
        properties[f.name] = prop
    return {
        "type": "object",
        "description": (kind.__doc__ or "").strip(),
        "properties": properties,
        "required": needed,
        "additionalProperties": False,
    }


def openapi(endpoints: Mapping[str, tuple[type[Any], Callable[..., Any]]]) -> dict[str, Any]:
    """The OpenAPI document of the endpoints (name → ask, answer) and ``GET /api/layouts``."""
    paths: dict[str, Any] = {}
    for name, (kind, answer) in endpoints.items():
        paths[f"/api/{name}"] = {
            "post": {
                "summary": (answer.__doc__ or "").strip().split("\n\n")[0],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": schema_of(kind)}},
                },
                "responses": {"200": {"description": "the records"}, "4XX": _ERROR},
            }
        }
    paths["/api/layouts"] = {
        "get": {
            "summary": "The layouts `ndoku layouts` lists, each with its empty grid's text.",
            "responses": {"200": {"description": "the records"}},
        }
    }
    error = {
        "type": "object",
        "properties": {
            "error": {"type": "string"},
            "line": {"type": ["integer", "null"]},
            "column": {"type": ["integer", "null"]},
        },
        "required": ["error"],
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "ndoku serve", "version": __version__},
        "paths": paths,
        "components": {"schemas": {"Error": error}},
    }
