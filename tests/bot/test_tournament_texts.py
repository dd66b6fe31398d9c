"""A tournament's chat words, read from a tournament played on a real store: the card, a round's
tables, an adjudication, the standings as text and picture, the podium, in English and Hindi."""

from __future__ import annotations

import io
from datetime import timedelta

from PIL import Image

from bot.core.store import Store
from bot.core.texts import tournament as texts
from bot.core.texts.language import ENGLISH, language
from bot.core.tournaments.picture import standings_picture
from bot.core.tournaments.service import Options, Tournaments
from engine.rules import Rules
from render.words import standings_title
from tests.support.services import GUILD, Clock

ORGANIZER = 99
OPTIONS = Options("Winter cup", "swiss", Rules.parse("classic"), table_size=2, rounds=2, round_seconds=5400)


async def test_the_sign_up_card_says_what_when_and_who(sqlite_store: Store) -> None:
    clock = Clock()
    events = Tournaments(sqlite_store, clock)
    closes = clock() + timedelta(hours=2)
    tournament = await events.open(GUILD, 500, ORGANIZER, OPTIONS, closes)
    card = texts.card(ENGLISH, tournament)
    assert card.splitlines() == [
        "**Winter cup**: a Swiss tournament of 2 rounds at 2-player tables, organized by <@99>.",
        "Rules: classic, 2 players, 4 pieces each. Each move: 2 minutes; each round: at most 90 minutes, "
        "then games still playing are decided by the win chance. The computer plays at normal level where "
        "a seat is empty.",
        f"Sign-up closes and the tournament starts <t:{int(closes.timestamp())}:R>: click Join to play.",
        "Nobody has joined yet.",
    ]
    tournament = await events.join(tournament.id, 1, "Asha")
    assert texts.card(ENGLISH, tournament).endswith("1 entrant: <@1> (1500)")
    tournament = await events.join(tournament.id, 2, "Ravi")
    assert texts.card(ENGLISH, tournament).endswith("2 entrants: <@1> (1500), <@2> (1500)")
    hindi = texts.card(language("hi"), tournament)
    assert "नाम लिखवाने" in hindi and f"<t:{int(closes.timestamp())}:R>" in hindi
    assert "Swiss" not in hindi and "entrants" not in hindi


async def test_a_round_its_adjudication_the_standings_and_the_podium(sqlite_store: Store) -> None:
    clock = Clock()
    events = Tournaments(sqlite_store, clock)
    tournament = await events.open(GUILD, 500, ORGANIZER, OPTIONS, clock() + timedelta(hours=1))
    for member in (1, 2, 3):
        await events.join(tournament.id, member)
    paired = await events.start(tournament.id, ORGANIZER)
    posted = texts.round_paired(ENGLISH, paired.tournament, 1)
    deadline = int((clock() + timedelta(seconds=5400)).timestamp())
    lines = posted.splitlines()
    assert lines[0] == (
        f"**Round 1 of 2** is paired. Games still playing <t:{deadline}:R> are decided by the win chance."
    )
    assert len(lines) == 3 and "has a bye: the game against the computer counts as a win." in lines[2]
    clock.advance(5400)
    played, bye = paired.to_open
    await events.adjudicate(bye.id, 0.2)
    decided = await events.adjudicate(played.id, 0.7)
    assert decided.table is not None
    winner = decided.table.sides[0][0]
    assert texts.adjudicated(ENGLISH, decided.tournament, decided.table) == (
        f"Table 1: the round's time is up. <@{winner}> wins on the win chance (70 %)."
    )
    second = await events.pair_next(tournament.id)
    assert second is not None
    assert (
        texts.started(ENGLISH, second.tournament) == "Winter cup: round 2 of 2 is paired."
    )  # not "has started"
    text = texts.standings(ENGLISH, second.tournament, next_round=2).splitlines()
    assert text[0] == "**Winter cup: standings after round 1 of 2**"
    for line, shown in zip(second.tournament.standings(), text[1:4], strict=True):
        assert shown.startswith(f"**{line.rank}.** <@{line.member}>: points {int(line.points)} · Buchholz ")
        assert shown.endswith(f"opponents' ratings {line.opponents_rating} · games {line.games}")
    assert text[5] == "**Round 2: who plays whom**" and len(text) == 8
    for lang in (ENGLISH, language("hi")):
        picture = Image.open(io.BytesIO(standings_picture(lang, second.tournament, next_round=2)))
        assert picture.format == "PNG" and picture.width == 1080
    for table in second.to_open:
        clock.advance(5400)
        await events.adjudicate(table.id, 0.9)
    over = await events.get(tournament.id)
    assert over.status == "finished"
    podium = texts.podium(ENGLISH, over).splitlines()
    assert podium[0] == "**Winter cup is over.** Congratulations to the podium:"
    assert podium[1].startswith("🥇 <@") and len(podium) == 1 + len(over.podium())
    assert texts.standings(ENGLISH, over).splitlines()[0] == "**Winter cup: final standings**"


async def test_standings_before_the_start_say_before_round_1(sqlite_store: Store) -> None:
    """Asked for during sign-up, the standings are "before round 1", not "after round 0" (an
    eighth look met "दौर 0 (कुल 2) के बाद")."""
    clock = Clock()
    events = Tournaments(sqlite_store, clock)
    tournament = await events.open(GUILD, 500, ORGANIZER, OPTIONS, clock() + timedelta(hours=1))
    tournament = await events.join(tournament.id, 1, "Asha")
    assert (
        texts.standings(ENGLISH, tournament).splitlines()[0]
        == "**Winter cup: standings before round 1 of 2**"
    )
    hindi = texts.standings(language("hi"), tournament).splitlines()[0]
    assert hindi == "**Winter cup: दौर 1 (कुल 2) से पहले की अंक तालिका**"
    assert standings_title(ENGLISH.picture, 0, 2, False) == "Standings before round 1 of 2"
    assert standings_title(language("hi").picture, 0, 2, False) == "दौर 1 (कुल 2) से पहले की अंक तालिका"
    assert Image.open(io.BytesIO(standings_picture(language("hi"), tournament))).width > 0
