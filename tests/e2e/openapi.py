"""Every REST request the bot sends, checked against Discord's official OpenAPI 3.1 spec.

The spec (discord/discord-api-spec, MIT) ships with the tests, in `tests/e2e/discord-api-spec/`
(its README says where it came from). It checks that the path and method exist and that the query
and the JSON (or multipart `payload_json`) body are valid. The check is always on: without the
file, the fake refuses to start. The spec is laxer than Discord in places (4,000 characters of
content; Discord allows 2,000): the fake's own checks stay.
One deliberate relaxation: the spec types a snowflake as a string of digits, while Discord also
takes it as a JSON integer, which is how discord.py sends user ids in `allowed_mentions` and the
ids of new attachments. The spec is read and its validators built once per process (1 MB), and a
body's verdict is kept: the same body (every bot start syncs the same command list, a validation of
half a second) is checked once per process.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SPEC = Path(__file__).resolve().parent / "discord-api-spec" / "openapi.json"
SPEC_URI = "urn:discord-openapi"
METHODS = ("get", "put", "post", "patch", "delete")


def _pointer(*parts: str) -> str:
    """A JSON pointer into the spec (`/` and `~` escaped as RFC 6901 says)."""
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


@dataclass
class Operation:
    """One path and method of the spec, with validators for its parameters and body."""

    template: str
    pattern: re.Pattern[str]
    literal_segments: int
    path_params: dict[str, Any]  # name -> validator
    query_params: dict[str, tuple[Any, set[str]]]  # name -> (validator, JSON types)
    bodies: dict[str, Any]  # content type -> validator
    body_required: bool


class Spec:
    """The spec's operations; `check` lists what is wrong with one request (empty: valid)."""

    def __init__(self, document: dict[str, Any]) -> None:
        from jsonschema import Draft202012Validator
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        document["components"]["schemas"]["SnowflakeType"] = {
            "anyOf": [document["components"]["schemas"]["SnowflakeType"], {"type": "integer", "minimum": 0}]
        }
        self.document = document
        registry: Registry[Any] = Registry().with_resource(
            SPEC_URI, Resource.from_contents(document, default_specification=DRAFT202012)
        )

        def validator(*pointer: str) -> Any:
            schema = {"$ref": SPEC_URI + "#" + _pointer(*pointer)}
            return Draft202012Validator(schema, registry=registry)

        self.operations: dict[str, list[Operation]] = {method: [] for method in METHODS}
        self.verdicts: dict[tuple[int, str], list[str]] = {}
        """What was wrong with each body checked so far, by its validator (an operation's content
        type) and its JSON text."""
        for template, item in document["paths"].items():
            regex = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
            literal = sum(1 for part in template.split("/") if part and not part.startswith("{"))
            shared = item.get("parameters", [])
            for method in METHODS:
                operation = item.get(method)
                if operation is None:
                    continue
                path_params: dict[str, Any] = {}
                query_params: dict[str, tuple[Any, set[str]]] = {}
                for where, parameters in (("", shared), (method, operation.get("parameters", []))):
                    for n, parameter in enumerate(parameters):
                        pointer = (
                            "paths",
                            template,
                            *([where] if where else []),
                            "parameters",
                            str(n),
                            "schema",
                        )
                        check = validator(*pointer)
                        if parameter["in"] == "path":
                            path_params[parameter["name"]] = check
                        elif parameter["in"] == "query":
                            types = self._types(parameter.get("schema", {}))
                            query_params[parameter["name"]] = (check, types)
                body = operation.get("requestBody") or {}
                bodies = {
                    content: validator("paths", template, method, "requestBody", "content", content, "schema")
                    for content in body.get("content", {})
                }
                self.operations[method].append(
                    Operation(
                        template,
                        re.compile(regex + "$"),
                        literal,
                        path_params,
                        query_params,
                        bodies,
                        bool(body.get("required")),
                    )
                )
        for found in self.operations.values():  # `/messages/@original` before `/messages/{message_id}`
            found.sort(key=lambda op: -op.literal_segments)

    def _types(self, schema: dict[str, Any]) -> set[str]:
        """The JSON types a parameter schema allows (query values arrive as text and are converted)."""
        while "$ref" in schema:
            schema = self._resolve(schema["$ref"])
        kinds = schema.get("type", "string")
        types = {kinds} if isinstance(kinds, str) else set(kinds)
        for sub in schema.get("oneOf", []) + schema.get("anyOf", []):
            types |= self._types(sub)
        return types

    def _resolve(self, ref: str) -> dict[str, Any]:
        node: Any = self.document
        for part in ref.removeprefix("#/").split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return dict(node)

    def check(
        self, method: str, path: str, query: Mapping[str, str], content_type: str, body: Any | None
    ) -> list[str]:
        """What Discord's spec finds wrong with the request (`path` after /api/v10); [] if valid."""
        where = f"{method} {path}"
        for operation in self.operations.get(method.lower(), []):
            if m := operation.pattern.match(path):
                break
        else:
            return [f"{where}: no such path and method in Discord's API"]
        problems = []
        for name, value in m.groupdict().items():
            problems += [
                f"{where}: path {name}={value!r}: {e.message}"
                for e in operation.path_params[name].iter_errors(value)
            ]
        for name, text in query.items():
            if name not in operation.query_params:
                problems.append(f"{where}: unknown query parameter {name!r}")
                continue
            check, types = operation.query_params[name]
            problems += [
                f"{where}: query {name}={text!r}: {e.message}" for e in check.iter_errors(_typed(text, types))
            ]
        if body is None:
            if operation.body_required:
                problems.append(f"{where}: a body is required")
            return problems
        kind = "multipart/form-data" if content_type.startswith("multipart/") else "application/json"
        validator = operation.bodies.get(kind)
        if validator is None:
            return [*problems, f"{where}: no {kind} body is accepted here"]
        return problems + [f"{where}: {problem}" for problem in self.body_problems(operation, kind, body)]

    def body_problems(self, operation: Operation, kind: str, body: Any) -> list[str]:
        """What the spec finds wrong with `body` for `operation`, checked once for each body."""
        validator = operation.bodies[kind]
        key = (id(validator), json.dumps(body, sort_keys=True))
        if (known := self.verdicts.get(key)) is not None:
            return known
        found = []
        for error in validator.iter_errors(body):
            at = "/".join(str(p) for p in error.absolute_path) or "body"
            found.append(f"{at}: {_short(error)}")
        self.verdicts[key] = found
        return found


def _typed(text: str, types: set[str]) -> Any:
    """A query value as the type its schema expects, when it reads as one (Discord's boolean query
    strings: `true`/`True`/`1` and `false`/`False`/`0`)."""
    if "boolean" in types and text.lower() in ("true", "false", "1", "0"):
        return text.lower() in ("true", "1")
    if types & {"integer", "number"} and re.fullmatch(r"-?\d+", text):
        return int(text)
    if "number" in types:
        try:
            return float(text)
        except ValueError:
            pass
    return text


def _short(error: Any) -> str:
    """An error's message; for an anyOf/oneOf, the errors of the branch the body meant (the one
    whose `type` field matched, as in an interaction callback), else jsonschema's best match."""
    from jsonschema.exceptions import best_match

    if error.context:
        branches: dict[Any, list[Any]] = {}
        for inner in error.context:
            branches.setdefault(inner.relative_schema_path[0], []).append(inner)
        meant = [
            errors for errors in branches.values() if all(e.path and e.path[-1] != "type" for e in errors)
        ]
        inner = best_match(meant[0] if len(meant) == 1 else error.context)
        return f"{_short(inner)} (at {'/'.join(str(p) for p in inner.absolute_path) or 'body'})"
    message = str(error.message)
    return message if len(message) < 300 else message[:300] + "..."


@functools.cache
def load() -> Spec:
    """The shipped spec, read once."""
    return read(SPEC)


def read(path: Path) -> Spec:
    """The spec in `path`; a missing file is an error that says where it should be."""
    if not path.is_file():
        raise FileNotFoundError(
            f"{path} is missing: the fake Discord checks every request against Discord's OpenAPI "
            "spec, which ships with the tests (see tests/e2e/discord-api-spec/README.md)"
        )
    return Spec(json.loads(path.read_text(encoding="utf-8")))
