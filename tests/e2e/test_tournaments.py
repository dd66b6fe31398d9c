"""A Swiss tournament end to end through the stand-in Discord: five members sign up on the card
(a double Join joins once), two rounds of 2-player games in threads, one member who never clicks
(the computer plays for her after the move time, and her game reaches the round's limit and is
adjudicated), the bot restarted in round 2, a member leaving the server in round 2. Then the store
is read back: no pair met twice, one bye at most per member, the posted final standings equal those
recomputed from the stored games, and every game was rated once (the ratings rebuilt from the games
equal the stored ones).

Two rounds show each of these once: a bye each round (five members), a round's limit before and
after the restart, the last round ending with a member withdrawn. More rounds and members, and the
pairing rules over them, are the table layer's (tests/table/test_tournaments.py) and the pairing's
own tests (tests/tournaments/).

The other members keep auto-throw on, and one piece each means every throw has one move at most:
their games play themselves, so the test waits only on the bot's clock, which it moves."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager

from sqlalchemy import select

from bot.core.snapshot import GameSnapshot
from bot.core.stats import rebuild_ratings
from bot.core.store import RatingRow, Status, Store, TournamentStatus
from bot.core.texts import ENGLISH
from bot.core.texts.tournament import standing_line
from bot.core.tournaments.snapshot import Tournament
from bot.core.tournaments.standings import Entrant, Game, standings
from tests.support.driver import Member
from tests.support.processes import stored_games, wait_for
from tests.support.table import MovableClock, Table

MOVE_SECONDS = 30
ROUND_MINUTES = 10


async def test_a_swiss_of_five_over_two_rounds_with_a_restart(
    start_table: Callable[..., AbstractAsyncContextManager[Table]],
) -> None:
    clock = MovableClock()
    settings = {"clock": clock, "default_auto_throw": True}
    async with start_table(**settings) as table:
        members = await sign_up(table)
        gita = members[-1]
        await gita.slash(table.channel, "pachisi auto", mode="off")  # she will never click
        started = await table.alice.slash(table.channel, "pachisi tournament start")
        assert "has started" in started.content
        event = await round_open(table, 1)
        gitas = event.table_of(gita.id)
        assert gitas is not None and gitas.game_id is not None
        before = await game_of(table, gitas.game_id)
        clock.advance(MOVE_SECONDS + 1)  # her move time runs out: the computer plays her turn
        await wait_for(
            lambda: played_for(table, gitas.game_id or 0, before.turn_number),
            what="the computer's turn for the absent member",
        )
        clock.advance(ROUND_MINUTES * 60)
        await round_open(table, 2)
        assert any("the round's time is up" in m.content for m in table.channel.messages)
    async with start_table(**settings) as table:  # a new process, mid-round 2
        await table.fake.wait_until(lambda: table.bot.is_ready(), what="the bot back")
        await wait_for(lambda: rearmed(table), what="round 2's clock re-armed")
        second = await round_open(table, 2)
        farid = next(m for m in members_of(table) if m.name == "Farid")
        table.guild.remove_member(farid)  # he leaves the server: withdrawn at once
        await wait_for(lambda: withdrawn(table, second.id, farid.id), what="Farid withdrawn")
        clock.advance(ROUND_MINUTES * 60)
        final = await wait_for(lambda: finished(table, event.id), what="the podium")
        posted = [m.content for m in table.channel.messages if "final standings" in m.content]
        assert any("Congratulations" in m.content for m in table.channel.messages)
    await check_stored(table, final, posted[-1])


async def sign_up(table: Table) -> list[Member]:
    """Alice (a moderator: Manage Events) opens the event; five members click Join."""
    table.fake.server.set_moderator(table.guild.record, table.alice.record, True)
    opened = await table.alice.slash(
        table.channel,
        "pachisi tournament open",
        name="Sunday Cup",
        rounds=2,
        players=2,
        pieces=1,
        move_seconds=MOVE_SECONDS,
        round_minutes=ROUND_MINUTES,
        level="easy",
    )
    assert "is open" in opened.content and opened.ephemeral
    others = [table.guild.add_member(name) for name in ("Chandra", "Farid", "Gita")]
    members = [table.alice, table.bob, *others]
    for member in members:
        answer = await member.click(table.channel.with_button("Join"), "Join")
        assert "You are in" in answer.content
    again = await table.bob.click(table.channel.with_button("Join"), "Join")
    assert "already in" in again.content and again.ephemeral
    refused = await table.bob.slash(table.channel, "pachisi tournament start")
    assert "organizer" in refused.content and refused.ephemeral
    return members


def members_of(table: Table) -> list[Member]:
    return [Member(table.fake.server, record) for record in table.guild.record.members.values()]


async def withdrawn(table: Table, event_id: int, member: int) -> bool:
    event = await table.bot.table.tournaments.tournaments.get(event_id)
    entrant = event.entrant(member)
    return entrant is not None and not entrant.playing


async def current(table: Table) -> Tournament | None:
    return await table.bot.table.tournaments.tournaments.in_channel(table.channel.id)


async def round_open(table: Table, number: int) -> Tournament:
    """Round `number` is paired and each of its tables has its game (the bye's included)."""

    async def check() -> Tournament | None:
        found = await current(table)
        if found is None or found.current_round != number:
            return None
        return found if all(t.game_id is not None for t in found.round_tables()) else None

    return await wait_for(check, what=f"round {number} open")


async def game_of(table: Table, game_id: int) -> GameSnapshot:
    return await table.bot.service.get(game_id)


async def played_for(table: Table, game_id: int, turn: int) -> bool:
    game = await game_of(table, game_id)
    return game.turn_number > turn or game.status != Status.ACTIVE


async def rearmed(table: Table) -> bool:
    found = await current(table)
    return found is not None and found.id in table.bot.table.tournaments.rounds.clocks


async def finished(table: Table, event_id: int) -> Tournament | None:
    event = await table.bot.table.tournaments.tournaments.get(event_id)
    if event.status != TournamentStatus.FINISHED:
        return None
    return event if any("Congratulations" in m.content for m in table.channel.messages) else None


async def check_stored(table: Table, event: Tournament, posted: str) -> None:
    games = {g.snapshot.id: g.snapshot for g in await stored_games(table.database_url)}
    met = [frozenset(t.members) for t in event.tables if not t.table.bye]
    assert len(met) == len(set(met)), "a pair met twice"
    byes = [m for t in event.tables if t.table.bye for m in t.members]
    assert len(byes) == len(set(byes)) == 2, "one bye at most per member"
    assert any(t.decided_by == "adjudication" for t in event.tables)
    recomputed = []
    for t in event.tables:
        game = games[t.game_id or 0]
        assert game.status == Status.FINISHED and game.outcome is not None
        winner = (0 if t.sides[0][0] is not None else 1) if t.table.bye else game.outcome.winner
        recomputed.append(Game(t.round, t.table, winner, True))
    entrants = [Entrant(e.member, e.rating, e.withdrawn_round) for e in event.entrants]
    lines = [standing_line(ENGLISH, line) for line in standings(entrants, recomputed)]
    assert [line for line in posted.splitlines() if line[2:3].isdigit()] == lines
    store = Store(table.database_url)
    try:
        before = await rating_rows(store)
        await rebuild_ratings(store)
        assert await rating_rows(store) == before, "a game rated twice, or not at all"
    finally:
        await store.close()


async def rating_rows(store: Store) -> list[tuple[int, float, float, int, int]]:
    async with store.transaction() as session:
        rows = (await session.execute(select(RatingRow).order_by(RatingRow.user_id))).scalars()
        return [
            (r.user_id, round(r.mu, 9), round(r.sigma, 9), r.games_people, r.games_computers) for r in rows
        ]
