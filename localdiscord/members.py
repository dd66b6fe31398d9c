"""Who a page may act as: each member belongs to the browser that made it.

A browser keeps one random secret (its local storage) and sends it with every request; the page
remembers, for each member, a hash of the secret that made it (or first used it). A name another
browser holds, or a request naming a member this browser does not hold, is refused and changes
nothing. It stops friends on one network from playing for each other by accident or by a forged
request; it is no defence against someone who can read the traffic (plain HTTP), see docs/LOCAL.md.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import unicodedata
from typing import Any

import icu

from localdiscord import words
from localdiscord.objects import GuildRecord, MemberRecord
from localdiscord.state import State

LOCALES = ("en-US", "en-GB", "hi")
"""Languages a member can pick (Discord's locale codes): the bot speaks English and Hindi."""
SECRET_LENGTHS = range(16, 129)
NAME_LENGTHS = range(1, 33)


class Refused(ValueError):
    """What a member tried cannot be done; the message says why."""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class Members:
    """The members of the table's guild and the browsers that hold them."""

    def __init__(self, server: State, guild: GuildRecord, owners: dict[int, str] | None = None) -> None:
        self.server, self.guild = server, guild
        self.owners: dict[int, str] = owners if owners is not None else {}
        """member id -> the hash of the secret of the browser that holds it (kept with the table)."""
        self._granted: set[int] = set()  # the runner's members granted the right since the start

    def greet(self, data: dict[str, Any]) -> MemberRecord:
        """The member a page's `hello` asks for (by id, else by name; a new one for a new name),
        bound to its browser's secret; or Refused."""
        language = words.language_of(str(data.get("locale") or ""))
        secret = _secret(data, language)
        wanted = str(data.get("member_id") or "")
        member = self.guild.members.get(int(wanted)) if wanted.isdigit() else None
        if member is not None and not member.user.bot:
            return self._grant(self._claim(member, secret, language), secret)
        name = " ".join(str(data.get("name") or "").split())
        if len(name) not in NAME_LENGTHS or any(unicodedata.category(c) == "Cc" for c in name):
            raise Refused(words.bad_name(language))
        found = self.named(name)
        if found is not None:
            if not self._holds(found, secret):
                raise Refused(words.name_taken(language, found.user.name))
            return self._grant(self._claim(found, secret, language), secret)
        self._refuse_look_alikes(name, language)
        member = self.server.add_member(self.guild, name)
        if data.get("locale") in LOCALES:  # the browser's language, until the member picks one
            member.locale = str(data["locale"])
        elif language.code != "en":
            member.locale = language.code
        self.owners[member.user.id] = _hash(secret)
        return self._grant(member, secret)

    def check(self, member: MemberRecord, data: dict[str, Any]) -> None:
        """A request must name the page's member and carry the secret of the browser holding it."""
        secret = str(data.get("secret") or "")
        named = str(data.get("member") or "")
        if named != str(member.user.id) or not self._holds(member, secret, strict=True):
            raise Refused(words.not_yours(words.language_of(member.locale)))

    def runs_table(self, secret: str) -> bool:
        """Whether `secret` is the browser of whoever runs the table: the first browser that made a
        member here (the oldest member's, snowflakes growing with time)."""
        if not self.owners:
            return False
        return hmac.compare_digest(self.owners[min(self.owners)], _hash(secret))

    def set_moderator(self, member: MemberRecord, secret: str, moderator: bool) -> None:
        """The moderator right (Manage Channels) is the table's runner's to take up or put down;
        anyone else asking for it is refused."""
        if not self.runs_table(secret):
            raise Refused(words.moderator_refused(words.language_of(member.locale)))
        self.server.set_moderator(self.guild, member, moderator)

    def _grant(self, member: MemberRecord, secret: str) -> MemberRecord:
        """The runner's members moderate the table from the start; nobody else does (a right
        ticked by anyone before it was the runner's alone is taken back)."""
        if not self.runs_table(secret) and self.guild.moderator_role in member.roles:
            self.server.set_moderator(self.guild, member, False)
        elif self.runs_table(secret) and member.user.id not in self._granted:
            self._granted.add(member.user.id)
            self.server.set_moderator(self.guild, member, True)
        return member

    def named(self, name: str) -> MemberRecord | None:
        wanted = name.casefold()
        return next(
            (m for m in self.guild.members.values() if not m.user.bot and m.user.name.casefold() == wanted),
            None,
        )

    def _refuse_look_alikes(self, name: str, language: words.Language) -> None:
        """A new name must not pass for anyone already here (a member, or the bot itself): not
        by confusable letters (Unicode's skeletons, UTS #39) nor by mixing scripts that look alike;
        nor may it have the bot's name among its words ("pachisi bot")."""
        if _SPOOF.check(name) & icu.USpoofChecks.RESTRICTION_LEVEL:
            raise Refused(words.mixed_script(language))
        wanted = skeletons(name)
        for member in self.guild.members.values():
            bot = member.user.bot and names_bot(name, member.user.name)
            if bot or skeletons(member.user.name) & wanted:
                raise Refused(words.looks_like(language, member.user.name))

    def _claim(self, member: MemberRecord, secret: str, language: words.Language) -> MemberRecord:
        if not self._holds(member, secret):
            raise Refused(words.not_yours(language))
        self.owners.setdefault(member.user.id, _hash(secret))  # a member from before browsers held them
        return member

    def _holds(self, member: MemberRecord, secret: str, *, strict: bool = False) -> bool:
        owner = self.owners.get(member.user.id)
        if owner is None:
            return not strict
        return hmac.compare_digest(owner, _hash(secret))


def _spoof_checker() -> icu.SpoofChecker:
    """ICU's checker of UTS #39: Latin may mix with one other script, except the two whose letters
    copy Latin's (Cyrillic, Greek): "Asha आशा" passes, "Аsha" with a Cyrillic А does not."""
    checker = icu.SpoofChecker()
    checker.setRestrictionLevel(icu.URestrictionLevel.MODERATELY_RESTRICTIVE)
    checker.setChecks(icu.USpoofChecks.RESTRICTION_LEVEL)
    return checker


_SPOOF = _spoof_checker()


def skeletons(name: str) -> set[str]:
    """What a name looks like: UTS #39's skeletons of it and of its case-folded form ("AIice"
    passes for "Alice" as written, "ΑSHA" for "asha" once folded), spaces collapsed and invisible
    format characters dropped. Two names sharing a skeleton read as one name."""
    spaced = " ".join(name.split())
    return {
        "".join(c for c in _SPOOF.getSkeleton(0, form) if unicodedata.category(c) != "Cf")
        for form in (spaced, spaced.casefold())
    }


def names_bot(name: str, bot: str) -> bool:
    """Whether `name` has the bot's name among its words ("pachisi bot", "The Pachisi"), by
    skeleton: with the bot's letter in front of its lines it would read as the bot's own."""
    return f" {_skeleton_words(bot)} " in f" {_skeleton_words(name)} "


def _skeleton_words(text: str) -> str:
    """The words of the case-folded name's skeleton, one space apart."""
    return " ".join(word for word in re.split(r"[\W_]+", min(skeletons(text.casefold()))) if word)


def _secret(data: dict[str, Any], language: words.Language) -> str:
    secret = str(data.get("secret") or "")
    if len(secret) not in SECRET_LENGTHS:
        raise Refused(words.not_yours(language))
    return secret
