"""Who a page may act as, without a browser: names that pass for another member are refused, in
the member's language, and change nothing."""

from __future__ import annotations

import aiohttp
import pytest

from localdiscord import words
from localdiscord.members import Members, Refused
from localdiscord.page import Page
from localdiscord.server import FakeDiscordServer

LANGUAGES = ["en-US", "hi"]


def table() -> Members:
    server = FakeDiscordServer()
    guild = server.add_guild("Pachisi at home")
    return Members(server, guild)


def hello(name: str, browser: str, locale: str = "en-US") -> dict[str, str]:
    return {"name": name, "secret": browser * 32, "locale": locale}


@pytest.mark.parametrize("locale", LANGUAGES)
@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Asha", "Аsha"),  # a Cyrillic А: refused as mixed Latin and Cyrillic
        ("Asha", "Αsha"),  # a Greek Α
        ("cop", "сор"),  # all Cyrillic, whole-script look-alike of a Latin name
        ("Alice", "AIice"),  # a capital I for the l
        ("Asha", "Ａsha"),  # a full-width Ａ
        ("Bala", "Ba\u200bla"),  # an invisible zero-width space
        ("Asha", "ASHA"),  # a case twin: another browser's (kept)
        ("Asha", "  asha "),  # a spacing twin (kept)
    ],
)
async def test_a_name_that_passes_for_a_member_is_refused(first: str, second: str, locale: str) -> None:
    members = table()
    members.greet(hello(first, "a"))
    before = dict(members.guild.members)
    with pytest.raises(Refused) as refused:
        members.greet(hello(second, "b", locale))
    assert members.guild.members == before  # nobody new
    language = words.language_of(locale)
    assert str(refused.value) in (
        words.looks_like(language, first),
        words.mixed_script(language),
        words.name_taken(language, first),
    )


@pytest.mark.parametrize("name", ["Pachisi", "Pасhisi"])
async def test_nobody_may_take_a_name_that_reads_as_the_bots(name: str) -> None:
    members = table()
    with pytest.raises(Refused):
        members.greet(hello(name, "a"))


@pytest.mark.parametrize("name", ["Asha आशा", "Аша", "Chitra 😀", "José", "Asha's brother", "आशा", "Asha 2"])
async def test_names_that_pass_for_nobody_are_welcome(name: str) -> None:
    members = table()
    members.greet(hello("Asha", "a"))
    member = members.greet(hello(name, "b"))
    assert member.user.name == name


async def test_the_refusals_are_in_the_members_language() -> None:
    members = table()
    members.greet(hello("Asha", "a"))
    with pytest.raises(Refused) as mixed:
        members.greet(hello("Аsha", "b", "hi"))
    members.greet(hello("Alice", "c"))
    with pytest.raises(Refused) as alike:
        members.greet(hello("AIice", "b", "hi"))
    for refusal in (mixed, alike):
        assert any("\u0900" <= c <= "\u097f" for c in str(refusal.value)), refusal.value


async def test_the_moderator_right_is_granted_to_the_tables_runner_alone() -> None:
    members = table()
    guild = members.guild
    asha = members.greet(hello("Asha", "a"))  # the first browser: whoever runs the table
    bala = members.greet(hello("Bala", "b"))
    assert guild.moderator_role in asha.roles  # granted, nothing ticked
    assert guild.moderator_role not in bala.roles
    for locale in LANGUAGES:
        bala.locale = locale
        with pytest.raises(Refused) as refused:
            members.set_moderator(bala, "b" * 32, True)
        assert str(refused.value) == words.moderator_refused(words.language_of(locale))
    assert guild.moderator_role not in bala.roles
    members.set_moderator(asha, "a" * 32, False)  # the runner may put it down, and take it up
    assert guild.moderator_role not in asha.roles
    members.set_moderator(asha, "a" * 32, True)
    assert guild.moderator_role in asha.roles
    members.server.set_moderator(guild, bala, True)  # ticked by anyone before this rule
    members.greet(hello("Bala", "b"))
    assert guild.moderator_role not in bala.roles  # taken back when he comes again


async def test_a_settings_request_for_the_right_from_another_browser_changes_nothing() -> None:
    members = table()
    page = Page(members.server, members.guild)  # type: ignore[arg-type]
    page.members = members
    await page.start("127.0.0.1", 0)
    try:
        members.greet(hello("Asha", "a"))
        async with aiohttp.ClientSession() as http, http.ws_connect(page.url + "/live") as ws:
            await ws.send_json({"op": "hello", **hello("Bala", "b", "hi")})
            welcome = await ws.receive_json()
            assert welcome["op"] == "welcome" and welcome["runs_table"] is False
            bala = welcome["me"]["id"]
            await ws.send_json({"op": "settings", "moderator": True, "member": bala, "secret": "b" * 32})
            while (answer := await ws.receive_json())["op"] != "refused":
                pass
            assert answer["error"] == words.moderator_refused(words.language_of("hi"))
        assert members.guild.moderator_role not in members.guild.members[int(bala)].roles
    finally:
        await page.stop()


async def test_a_forged_hello_or_click_for_another_browsers_member_changes_nothing() -> None:
    """A socket of another browser asks to be Asha, then clicks her turn's button as her: both
    refused, nothing reaches the bot, and only the member it made for itself is new. (A name of
    hers from another browser, refused on the page: test_shared_table.py.)"""
    members = table()
    server, guild = members.server, members.guild
    page = Page(server, guild)  # type: ignore[arg-type]
    page.members = members
    channel = server.add_channel(guild, "pachisi")
    await page.start("127.0.0.1", 0)
    try:
        asha = members.greet(hello("Asha", "a"))
        before = len(guild.members)
        secret = "f" * 32
        async with aiohttp.ClientSession() as http, http.ws_connect(page.url + "/live") as ws:
            await ws.send_json({"op": "hello", "member_id": str(asha.user.id), "secret": secret})
            assert (await ws.receive_json())["error"] == words.not_yours(words.language_of("en-US"))
            await ws.send_json({"op": "hello", "name": "Mallory", "secret": secret})
            welcome = await ws.receive_json()
            assert welcome["op"] == "welcome" and welcome["me"]["name"] == "Mallory"
            turn = "pachisi:throw:1:1"
            forged = {"op": "click", "channel": str(channel.id), "message": "1", "custom_id": turn}
            await ws.send_json({**forged, "member": str(asha.user.id), "secret": secret})
            while (answer := await ws.receive_json())["op"] != "refused":
                pass
            assert answer["error"] == words.not_yours(words.language_of("en-US"))
        assert len(guild.members) == before + 1  # Mallory, and nobody else
        assert server.interactions == {}  # nothing reached the bot
    finally:
        await page.stop()
