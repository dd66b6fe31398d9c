"""The command box: `/pachisi start players:2 level:hard` read as Discord's client reads it.

From the application commands the bot synced, `read` turns a typed line into the `data` of an
APPLICATION_COMMAND interaction, or refuses it with the reason Discord's client would give
(unknown command or option, a value of the wrong type, outside the choices or range, a required
option missing): a refused line never reaches the bot. `suggest` lists what may come next while
typing (sub-commands, options, choices) and says when the bot's own autocomplete is wanted.
`localized` gives the commands as a member of a language sees them (Discord's `name_localizations`):
their names are typed and suggested in that language, and the English names still work; the
reasons for a refusal are in the member's language too (`language`: words.py, the bot's catalogs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from localdiscord.words import ENGLISH, Language

Json = dict[str, Any]

SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = range(
    1, 11
)
MAX_SUGGESTIONS = 25
STRING_LIMIT = 6000
NAME = r"[^\s:]+"
"""A command's or option's name as typed (Discord's allow letters of any script, with its marks)."""


class Refused(ValueError):
    """A line Discord's client would not send; the message says why, for the member."""


@dataclass
class Line:
    """A typed line split along the command's schema."""

    command: Json
    names: list[str]  # the command and its sub-command names, as typed
    schema: list[Json]  # the options the line's last (sub-)command takes
    values: dict[str, str] = field(default_factory=dict)  # option name -> text typed for it
    stray: str = ""  # text before the first option, which no option claims

    @property
    def known(self) -> dict[str, Json]:
        return {o["name"]: o for o in self.schema if o["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP)}

    def option(self, word: str) -> Json | None:
        """The option named `word`, in the member's language or in English."""
        return _named(self.known.values(), word)

    @property
    def path(self) -> str:
        return "/" + " ".join(self.names)


@dataclass
class Suggestion:
    label: str
    detail: str
    text: str  # the whole line once this suggestion is taken


@dataclass
class Suggestions:
    items: list[Suggestion]
    autocomplete: bool = False
    """The option being typed asks the bot for its choices (see `autocomplete_data`)."""


def split(text: str, commands: list[Json], language: Language = ENGLISH) -> Line:
    """The command, its sub-commands and the option texts of `text`; refuses unknown names."""
    if not text.startswith("/"):
        raise Refused(
            language.gettext("Commands start with /, for example {example}.", example=_help(commands))
        )
    words = list(re.finditer(r"\S+", text[1:]))
    if not words:
        raise Refused(language.gettext("Type a command after the /."))
    name = words[0][0]
    command = _named(commands, name)
    if command is None:
        raise Refused(language.gettext("There is no command /{name} here.", name=name))
    line = Line(command, [command["name"]], command.get("options") or [])
    rest_at = words[0].end()
    for word in words[1:]:
        groups = [o for o in line.schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if not groups:
            break
        sub = _named(groups, word[0])
        if sub is None:
            listed = ", ".join(g["name"] for g in groups)
            raise Refused(
                language.gettext(
                    "{command} has no sub-command {name}; it has {names}.",
                    command=line.path,
                    name=word[0],
                    names=listed,
                )
            )
        line.names.append(sub["name"])
        line.schema = sub.get("options") or []
        rest_at = word.end()
    subs = [o["name"] for o in line.schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if subs:
        raise Refused(
            language.gettext(
                "Choose what {command} should do: {names}.", command=line.path, names=", ".join(subs)
            )
        )
    rest = text[1 + rest_at :]
    starts = [m for m in re.finditer(rf"(?:^|(?<=\s))({NAME}):", rest) if line.option(m[1])]
    line.stray = rest[: starts[0].start() if starts else len(rest)].strip()
    for n, m in enumerate(starts):
        end = starts[n + 1].start() if n + 1 < len(starts) else len(rest)
        name = _required(line.option(m[1]))["name"]
        if name in line.values:
            raise Refused(language.gettext("The option {name} is given twice.", name=name))
        line.values[name] = rest[m.end() : end].strip()
    return line


def read(text: str, commands: list[Json], members: dict[str, Json], language: Language = ENGLISH) -> Json:
    """The interaction `data` for a whole typed line (`members`: name -> member payload, for
    options that take a member), or Refused."""
    line = split(text.strip(), commands, language)
    if line.stray:
        word = line.stray.split()[0]
        if ":" in word and not line.known:
            raise Refused(language.gettext("{command} takes no options.", command=line.path))
        if ":" in word:
            names = ", ".join(line.known)
            raise Refused(
                language.gettext(
                    "{command} has no option {name}; it has {names}.",
                    command=line.path,
                    name=word.split(":")[0],
                    names=names,
                )
            )
        raise Refused(language.gettext("Give options as name:value, e.g. {example}.", example=_example(line)))
    options: list[Json] = []
    resolved: Json = {}
    for option in line.schema:
        name = option["name"]
        if name not in line.values:
            if option.get("required"):
                raise Refused(
                    language.gettext("{command} needs the option {name}.", command=line.path, name=name)
                )
            continue
        value = convert(option, line.values[name], members, language)
        if option["type"] == USER:
            member = next(m for m in members.values() if m["user"]["id"] == value)
            resolved.setdefault("users", {})[value] = member["user"]
            resolved.setdefault("members", {})[value] = {k: v for k, v in member.items() if k != "user"}
        options.append({"name": _default(option), "type": option["type"], "value": value})
    data = _nest(line, options)
    if resolved:
        data["resolved"] = resolved
    return data


def _either(language: Language, words: list[str]) -> str:
    """`2 or 4`: the choices to pick from, as a sentence says them (numbers in ascending order)."""
    if all(word.isdigit() for word in words):
        words = sorted(words, key=int)
    if len(words) <= 1:
        return "".join(words)
    return language.gettext("{first} or {last}", first=", ".join(words[:-1]), last=words[-1])


def convert(option: Json, text: str, members: dict[str, Json], language: Language = ENGLISH) -> Any:
    """The value of one option from its typed text, checked as Discord's client checks it."""
    name, kind = option["name"], option["type"]
    if not text:
        raise Refused(language.gettext("The option {name} needs a value.", name=name))
    choices = option.get("choices")
    if choices:
        for choice in choices:
            names = (choice["name"], _default(choice), choice["value"])
            if text.casefold() in (str(n).casefold() for n in names):
                return choice["value"]
        listed = [str(c["name"]) for c in choices]
        raise Refused(
            language.gettext("{name} must be {choices}.", name=name, choices=_either(language, listed))
        )
    if kind == INTEGER and re.fullmatch(r"-?\d+", text):
        value: Any = int(text)
    elif kind == NUMBER and re.fullmatch(r"-?(\d+\.?\d*|\.\d+)", text):
        value = float(text)
    elif kind == BOOLEAN and text.casefold() in ("true", "false"):
        return text.casefold() == "true"
    elif kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", STRING_LIMIT)
        if not low <= len(text) <= high:
            raise Refused(
                language.gettext("{name} takes {low} to {high} characters.", name=name, low=low, high=high)
            )
        return text
    elif kind == USER:
        member = members.get(text.removeprefix("@").casefold())
        if member is None:
            raise Refused(
                language.gettext(
                    "{name} must be a member of this server; nobody here is called {text}.",
                    name=name,
                    text=text,
                )
            )
        return member["user"]["id"]
    else:
        raise Refused(_wrong_type(language, name, kind))
    low, high = option.get("min_value"), option.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise Refused(language.gettext("{name} must be from {low} to {high}.", name=name, low=low, high=high))
    return value


def suggest(text: str, commands: list[Json], members: list[str] | None = None) -> Suggestions:
    """What may come next on a partly typed line, best first (`members`: names, for options that
    take a member)."""
    if not text.startswith("/"):
        return Suggestions([])
    if not re.search(r"\s", text):
        found = [c for c in commands if _starts(c, text[1:])]
        return Suggestions(
            [Suggestion("/" + c["name"], c.get("description", ""), f"/{c['name']} ") for c in found]
        )
    try:
        line = split(text, commands)
    except Refused:
        return _sub_commands(text, commands)
    tail = re.split(r"\s", text)[-1]
    last = next(reversed(line.values), None)
    unused = [o for o in line.known.values() if o["name"] not in line.values and _starts(o, tail)]
    if last is not None and tail and (":" in tail or not unused):
        return _values(line.known[last], text, line.values[last], members or [])
    unused.sort(key=lambda o: not o.get("required"))
    head = text[: len(text) - len(tail)]
    return Suggestions(
        [Suggestion(o["name"] + ":", o.get("description", ""), head + o["name"] + ":") for o in unused]
    )


def autocomplete_data(text: str, commands: list[Json]) -> Json | None:
    """The `data` of an APPLICATION_COMMAND_AUTOCOMPLETE interaction for the option being typed at
    the end of `text`, when that option asks the bot for its choices; else None."""
    try:
        line = split(text, commands)
    except Refused:
        return None
    last = next(reversed(line.values), None)
    if last is None or not line.known[last].get("autocomplete") or text[-1:].isspace():
        return None
    options: list[Json] = []
    for option in line.known.values():
        if option["name"] in line.values and option["name"] != last:
            try:
                value = convert(option, line.values[option["name"]], {})
            except Refused:
                continue
            options.append({"name": _default(option), "type": option["type"], "value": value})
    focused = line.known[last]
    value = line.values[last]
    options.append({"name": _default(focused), "type": focused["type"], "value": value, "focused": True})
    return _nest(line, options)


def with_value(text: str, typed: str, value: str) -> str:
    """`text`, whose last option's value `typed` runs to its end, with `value` instead."""
    return text[: len(text) - len(typed)] + value + " "


def _sub_commands(text: str, commands: list[Json]) -> Suggestions:
    """Sub-commands that fit the last word typed after the command (and groups) named before it."""
    words = text[1:].split(" ")
    command = _named(commands, words[0])
    if command is None:
        return Suggestions([])
    schema, names = command.get("options") or [], [command["name"]]
    for word in words[1:-1]:
        sub = _named([o for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)], word)
        if sub is None:
            return Suggestions([])
        schema, names = sub.get("options") or [], [*names, sub["name"]]
    found = [o for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) and _starts(o, words[-1])]
    return Suggestions(
        [
            Suggestion(
                "/" + " ".join([*names, o["name"]]),
                o.get("description", ""),
                "/" + " ".join([*names, o["name"]]) + " ",
            )
            for o in found
        ]
    )


def _values(option: Json, text: str, typed: str, members: list[str]) -> Suggestions:
    """The values `option` may take that start with `typed` (the bot's, when it autocompletes)."""
    if option.get("autocomplete"):
        return Suggestions([], autocomplete=True)
    names: list[str]
    low, high = option.get("min_value"), option.get("max_value")
    if option.get("choices"):
        names = [str(c["name"]) for c in option["choices"]]
    elif option["type"] == BOOLEAN:
        names = ["True", "False"]
    elif option["type"] == USER:
        names = members
    elif option["type"] == INTEGER and low is not None and high is not None and high - low < MAX_SUGGESTIONS:
        names = [str(n) for n in range(low, high + 1)]
    else:
        names = []
    found = [n for n in names if n.casefold().startswith(typed.casefold())][:MAX_SUGGESTIONS]
    return Suggestions(
        [Suggestion(n, option.get("description", ""), with_value(text, typed, n)) for n in found]
    )


def leaf(data: Json) -> tuple[list[str], list[Json]]:
    """The command and sub-command names of interaction `data`, and the options of the last."""
    names, options = [data.get("name", "")], data.get("options") or []
    while options and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        names.append(options[0]["name"])
        options = options[0].get("options") or []
    return names, options


def _nest(line: Line, options: list[Json]) -> Json:
    """Interaction data: the command's id and name, sub-commands nested with their options."""
    data: Json = {"id": line.command["id"], "name": _default(line.command), "type": 1}
    if "guild_id" in line.command:
        data["guild_id"] = line.command["guild_id"]
    holder, schema = data, line.command.get("options") or []
    for name in line.names[1:]:
        sub = next(o for o in schema if o["name"] == name)
        node: Json = {"name": _default(sub), "type": sub["type"], "options": []}
        holder.setdefault("options", []).append(node)
        holder, schema = node, sub.get("options") or []
    if options:
        holder["options"] = options
    return data


def _wrong_type(language: Language, name: str, kind: int) -> str:
    """Why a typed value is not of the option's type (whole sentences, for the translators)."""
    if kind == INTEGER:
        return language.gettext("{name} must be a whole number.", name=name)
    if kind == NUMBER:
        return language.gettext("{name} must be a number.", name=name)
    if kind == BOOLEAN:
        return language.gettext("{name} must be {true} or {false}.", name=name, true="True", false="False")
    return language.gettext("The option {name} cannot be typed here.", name=name)


def _help(commands: list[Json]) -> str:
    """`/pachisi help`, as the member's language names it (the first command with a `help`)."""
    for command in commands:
        for sub in command.get("options") or []:
            if _default(sub) == "help":
                return f"/{command['name']} {sub['name']}"
    return "/" + commands[0]["name"] if commands else "/"


def _example(line: Line) -> str:
    option = next(iter(line.known.values()), None)
    if option is None:
        return line.path
    sample = option.get("choices", [{"name": "..."}])[0]["name"]
    return f"{line.path} {option['name']}:{sample}"


def localized(commands: list[Json], locale: str) -> list[Json]:
    """The commands as a member whose Discord language is `locale` sees them: each name,
    description and choice in that language where the bot gave one, its own name kept as
    `default` (what the interaction carries, as Discord sends it)."""
    return [_localized(c, locale) for c in commands]


def paths(command: Json) -> dict[str, str]:
    """Each command and sub-command of a `localized` command by its own names ("pachisi move", as
    an interaction carries it) and as the member's language names it ("पच्चीसी चलें"): what the
    page shows above an answer, as Discord shows each viewer the command in their own language."""
    found = {str(_default(command)): str(command["name"])}
    for option in command.get("options") or []:
        if option.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
            for own, shown in paths(option).items():
                found[f"{_default(command)} {own}"] = f"{command['name']} {shown}"
    return found


def _localized(node: Json, locale: str) -> Json:
    shown = dict(node)
    shown["default"] = node["name"]
    shown["name"] = (node.get("name_localizations") or {}).get(locale) or node["name"]
    if "description" in node:
        described = (node.get("description_localizations") or {}).get(locale)
        shown["description"] = described or node["description"]
    for key in ("options", "choices"):
        if node.get(key):
            shown[key] = [_localized(n, locale) for n in node[key]]
    return shown


def _default(node: Json) -> Any:
    return node.get("default", node["name"])


def _named(nodes: Any, word: str) -> Json | None:
    """The command, sub-command or option called `word`, in the member's language or in English."""
    return next((n for n in nodes if word in (n["name"], _default(n))), None)


def _starts(node: Json, typed: str) -> bool:
    return str(node["name"]).startswith(typed) or str(_default(node)).startswith(typed)


def _required(node: Json | None) -> Json:
    assert node is not None
    return node
