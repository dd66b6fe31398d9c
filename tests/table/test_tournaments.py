"""Tournaments at the table layer: the card and its buttons, rounds opened in threads, games whose
members never click played by the computer after the move time, the round's limit adjudicating,
standings and the next round posted, a restart mid-round, a member who leaves the server.

Each test drives the layer as the cog would (a member's `Click` as the reply) over the real store,
the in-memory chat and the moved clock; what it checks is read from the store and the chat."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.core.errors import GameError
from bot.core.store import Status, TournamentStatus
from bot.core.tournaments.service import Options
from bot.core.tournaments.snapshot import Tournament
from bot.table.tournament import TOURNAMENT_JOIN, TOURNAMENT_LEAVE
from engine import Rules
from tests.support.chat import Click, Posted
from tests.support.world import CHANNEL, GUILD, World, until

ORGANIZER = 10
MEMBERS = list(range(21, 29))
QUICK = Rules.parse("classic,pieces=1")
MOVE_SECONDS = 20
ROUND_SECONDS = 600


def member(world: World, user: int, clicked: Posted | None = None) -> Click:
    return Click(world.chat, world.room, user, f"Member {user}", clicked)


async def opened(
    world: World,
    *,
    table_size: int = 2,
    rounds: int = 3,
    round_seconds: int = ROUND_SECONDS,
    format: str = "swiss",
) -> Tournament:
    options = Options(
        "Sunday Cup",
        format,
        QUICK,
        table_size=table_size,
        rounds=rounds,
        move_seconds=MOVE_SECONDS,
        round_seconds=round_seconds,
        level="easy",
    )
    closes = world.clock.now() + timedelta(hours=1)
    desk = world.table.tournaments
    return await desk.open(member(world, ORGANIZER), GUILD, CHANNEL, options, closes)


def card(world: World, tournament: Tournament) -> Posted:
    return world.room.find(tournament.card_message_id or 0)


async def sign_up(world: World, tournament: Tournament, members: list[int]) -> None:
    for user in members:
        posted = card(world, tournament)
        [join] = [b for b in posted.live() if b.action == TOURNAMENT_JOIN]
        await world.table.tournaments.join(member(world, user, posted), join.game_id)


async def current(world: World, tournament_id: int) -> Tournament:
    return await world.table.tournaments.tournaments.get(tournament_id)


async def games_open(world: World, tournament_id: int) -> bool:
    found = await current(world, tournament_id)
    return all(t.done or t.game_id is not None for t in found.round_tables())


async def round_limit(world: World, tournament_id: int) -> Tournament:
    """Move the clock past the round's limit and wait for the next round (or the end)."""
    before = await current(world, tournament_id)
    world.clock.advance(ROUND_SECONDS + 1)

    async def moved_on() -> bool:
        found = await current(world, tournament_id)
        if found.status == TournamentStatus.FINISHED:
            return any("Congratulations" in p.content for p in world.room.messages)
        return found.current_round > before.current_round and await games_open(world, tournament_id)

    await until(moved_on, "the next round")
    return await current(world, tournament_id)


async def test_the_card_signs_up_once_and_leaves(world: World) -> None:
    tournament = await opened(world)
    posted = card(world, tournament)
    assert posted.actions() == [TOURNAMENT_JOIN, TOURNAMENT_LEAVE]
    await sign_up(world, tournament, MEMBERS[:2])
    again = member(world, MEMBERS[0], card(world, tournament))
    with pytest.raises(GameError) as refused:
        await world.table.tournaments.join(again, tournament.id)
    assert refused.value.key == "already_in"
    found = await current(world, tournament.id)
    assert [e.member for e in found.entrants] == MEMBERS[:2]
    assert f"<@{MEMBERS[1]}>" in card(world, tournament).content
    await world.table.tournaments.leave(member(world, MEMBERS[1]), tournament.id)
    assert f"<@{MEMBERS[1]}>" not in card(world, tournament).content
    stranger = member(world, MEMBERS[5])
    with pytest.raises(GameError) as refused:
        await world.table.tournaments.start(stranger, manager=False)
    assert refused.value.key == "not_organizer"


async def test_a_swiss_plays_to_its_podium_through_a_restart(world: World) -> None:
    """7 members, 3 rounds at 2-player tables: threads per table, the move time lets the computer
    play for members who never click, each round ends at its limit, the bot restarts in round 2."""
    tournament = await opened(world)
    await sign_up(world, tournament, MEMBERS[:7])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    first = await current(world, tournament.id)
    tables = first.round_tables()
    assert len(tables) == 4 and sum(t.table.bye for t in tables) == 1
    threads = {t.game_id: (await world.table.flow.service.get(t.game_id or 0)).channel_id for t in tables}
    assert set(threads.values()) <= set(world.chat.threads)
    pinged = [m for room in world.chat.rooms.values() for p in room.messages for m in p.pings]
    assert set(MEMBERS[:7]) <= set(pinged)
    # Nobody clicks: after the move time the computer plays the member's turn.
    game_id = tables[0].game_id or 0
    before = (await world.table.flow.service.get(game_id)).turn_number
    world.clock.advance(MOVE_SECONDS + 1)
    await until(
        lambda: _moved(world, game_id, before),
        "the computer's turn for the absent member",
    )
    second = await round_limit(world, tournament.id)
    assert second.current_round == 2
    assert all(t.done for t in second.round_tables(1))
    assert any("standings.png" in p.files for p in world.room.messages)
    # A restart mid-round: a new layer over the same store resumes the round and its clock.
    world.restart()
    await world.table.tournaments.resume([GUILD])
    third = await round_limit(world, tournament.id)
    assert third.current_round == 3
    final = await round_limit(world, tournament.id)
    assert final.status == TournamentStatus.FINISHED
    met = [frozenset(t.members) for t in final.tables if not t.table.bye]
    assert len(met) == len(set(met)), "no pair met twice"
    byes = [t.members[0] for t in final.tables if t.table.bye]
    assert len(byes) == len(set(byes)) == 3
    [podium] = [p for p in world.room.messages if "Congratulations" in p.content]
    assert world.room.messages.index(podium) > world.room.messages.index(_final_standings(world))
    assert card(world, final).actions() == []
    games = [await world.table.flow.service.get(t.game_id or 0) for t in final.tables]
    assert all(g.status != Status.ACTIVE for g in games)
    # Asked for after the end (under the posted final standings), the standings are the final ones.
    text, picture = await world.table.tournaments.standings(member(world, MEMBERS[0]))
    assert text.startswith("**Sunday Cup: final standings**") and picture.startswith(b"\x89PNG")


async def _moved(world: World, game_id: int, before: int) -> bool:
    game = await world.table.flow.service.get(game_id)
    return game.turn_number > before or game.status != Status.ACTIVE


async def test_partnerships_rotate_partners_at_full_tables(world: World) -> None:
    tournament = await opened(world, table_size=4)
    await sign_up(world, tournament, MEMBERS)
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    for _ in range(3):
        found = await round_limit(world, tournament.id)
    assert found.status == TournamentStatus.FINISHED
    assert all(None not in t.sides[0] + t.sides[1] for t in found.tables), "every seat a member"
    partners = [frozenset(side) for t in found.tables for side in t.sides]
    assert len(partners) == len(set(partners)) == 12, "no partnership twice"
    for t in found.tables:
        game = await world.table.flow.service.get(t.game_id or 0)
        assert game.rules.players == 4
        assert {info.user_id for info in game.seats.values()} == set(t.members)


async def test_a_game_that_ends_is_the_tables_result_and_the_next_round_pairs(world: World) -> None:
    """Two members who never click: the computer plays for them at each move time until the game
    ends; the game's winner is recorded (the table layer's game-end hook) and round 2 is paired."""
    tournament = await opened(world, rounds=2, round_seconds=10**6)
    await sign_up(world, tournament, MEMBERS[:2])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's game")
    [table] = (await current(world, tournament.id)).round_tables()
    game_id = table.game_id or 0
    for _ in range(200):
        game = await world.table.flow.service.get(game_id)
        if game.status != Status.ACTIVE:
            break
        world.clock.advance(MOVE_SECONDS)
        await until(lambda g=game: _moved(world, game_id, g.turn_number), "a turn played for the member")
    assert game.status == Status.FINISHED and game.outcome is not None
    await until(lambda: _paired(world, tournament.id, 2), "round 2")
    found = await current(world, tournament.id)
    [decided] = found.round_tables(1)
    assert decided.decided_by == "game" and decided.winner == game.outcome.winner
    assert game.turn_seconds == MOVE_SECONDS


async def _paired(world: World, tournament_id: int, number: int) -> bool:
    return (await current(world, tournament_id)).current_round == number


async def test_a_member_who_leaves_the_server_forfeits_their_game(world: World) -> None:
    tournament = await opened(world)
    await sign_up(world, tournament, MEMBERS[:4])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    gone = MEMBERS[0]
    await world.table.tournaments.member_left(GUILD, gone)
    found = await current(world, tournament.id)
    table = found.table_of(gone, 1)
    assert table is not None and table.decided_by == "forfeit"
    assert gone not in table.sides[table.winner or 0]
    game = await world.table.flow.service.get(table.game_id or 0)
    assert game.status == Status.FINISHED
    entrant = found.entrant(gone)
    assert entrant is not None and entrant.withdrawn_round == 1
    assert any(f"<@{gone}> has withdrawn" in p.content for p in world.room.messages)


async def test_no_thread_means_no_table_and_a_word_why(world: World) -> None:
    world.chat.no_threads.add(CHANNEL)
    tournament = await opened(world)
    await sign_up(world, tournament, MEMBERS[:2])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    found = await current(world, tournament.id)
    assert found.round_tables()[0].game_id is None
    assert any("could not open" in p.content for p in world.room.messages)


def _final_standings(world: World) -> Posted:
    [found] = [p for p in world.room.messages if "final standings" in p.content]
    assert "standings.png" in found.files
    return found


async def test_a_member_gone_unannounced_is_withdrawn_before_the_next_round(world: World) -> None:
    """Without the Server Members intent Discord says nothing when a member leaves: the roster is
    asked before each pairing, and the member is paired no more."""
    tournament = await opened(world, rounds=2)
    await sign_up(world, tournament, MEMBERS[:4])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    gone = MEMBERS[3]
    world.chat.left.add(gone)
    found = await round_limit(world, tournament.id)
    assert found.current_round == 2
    entrant = found.entrant(gone)
    assert entrant is not None and entrant.withdrawn_round == 2
    assert found.table_of(gone) is None
    assert found.table_of(gone, 1) is not None  # round 1's result stands
    assert f"<@{gone}> (1500), withdrawn" in card(world, found).content


async def test_a_round_robin_posts_its_schedule_and_plays_it(world: World) -> None:
    """Five members: the whole schedule at the start, five rounds (a bye each), each pair once."""
    tournament = await opened(world, format="round-robin")
    await sign_up(world, tournament, MEMBERS[:5])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    [posted] = [p for p in world.room.messages if "the whole schedule" in p.content]
    assert [line.split(":")[0] for line in posted.content.splitlines()[1:]] == [
        f"Round {n}" for n in range(1, 6)
    ]
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    while (found := await round_limit(world, tournament.id)).status == TournamentStatus.RUNNING:
        pass
    met = [frozenset(t.members) for t in found.tables if not t.table.bye]
    assert len(met) == len(set(met)) == 10
    assert sorted(m for t in found.tables if t.table.bye for m in t.members) == MEMBERS[:5]


async def test_sign_up_closing_starts_the_event_even_after_a_restart(world: World) -> None:
    tournament = await opened(world)
    await sign_up(world, tournament, MEMBERS[:3])
    world.restart()  # a new process during sign-up: the closing time is armed again
    await world.table.tournaments.resume([GUILD])
    world.clock.advance(3600 + 1)
    await until(lambda: _paired(world, tournament.id, 1), "the start at sign-up's close")
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    found = await current(world, tournament.id)
    assert found.status == TournamentStatus.RUNNING
    assert card(world, found).actions() == [TOURNAMENT_LEAVE]  # Join goes with sign-up
    late = member(world, MEMBERS[5])
    with pytest.raises(GameError) as refused:
        await world.table.tournaments.join(late, tournament.id)
    assert refused.value.key == "signup_closed"


async def test_a_paused_event_waits_for_the_organizers_next(world: World) -> None:
    tournament = await opened(world, rounds=2)
    await sign_up(world, tournament, MEMBERS[:4])
    organizer = member(world, ORGANIZER)
    await world.table.tournaments.start(organizer, manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    await world.table.tournaments.pause(organizer, paused=True, manager=False)
    world.clock.advance(ROUND_SECONDS + 1)

    async def standings_posted() -> bool:
        return any("standings after round 1" in p.content for p in world.room.messages)

    await until(standings_posted, "round 1's standings")
    found = await current(world, tournament.id)
    assert found.current_round == 1 and found.round_over() and found.paused
    with pytest.raises(GameError) as refused:
        await world.table.tournaments.next(member(world, MEMBERS[0]), manager=False)
    assert refused.value.key == "not_organizer"
    await world.table.tournaments.next(organizer, manager=False)
    await until(lambda: games_open(world, tournament.id), "round 2's games")
    assert (await current(world, tournament.id)).current_round == 2


async def test_cancelling_mid_round_ends_its_games_and_its_clock(world: World) -> None:
    tournament = await opened(world)
    await sign_up(world, tournament, MEMBERS[:4])
    organizer = member(world, ORGANIZER)
    await world.table.tournaments.start(organizer, manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's games")
    await world.table.tournaments.cancel(organizer, manager=False)
    found = await current(world, tournament.id)
    assert found.status == TournamentStatus.CANCELLED
    assert tournament.id not in world.table.tournaments.rounds.clocks
    games = [await world.table.flow.service.get(t.game_id or 0) for t in found.round_tables()]
    assert not any(g.status == Status.ACTIVE for g in games)
    assert card(world, found).actions() == []
    assert "cancelled" in card(world, found).content


async def test_a_game_opened_but_not_noted_before_a_kill_is_adopted_not_doubled(world: World) -> None:
    """A process killed between a table's game starting and its note in the tournament: the new
    process finds the game (its members, under the event's card, this round) and notes it."""
    world.chat.no_threads.add(CHANNEL)  # the first process opens no table
    tournament = await opened(world)
    await sign_up(world, tournament, MEMBERS[:4])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    [first, second] = (await current(world, tournament.id)).round_tables()
    world.chat.no_threads.clear()
    thread = await world.chat.open_thread(CHANNEL, GUILD, "killed")
    rules = Rules.parse("classic,pieces=1,players=2")
    a, b = first.members
    played = await world.table.flow.service.start(
        GUILD, thread, a, rules, "easy", 0, card_channel_id=CHANNEL, members={2: b}, turn_seconds=MOVE_SECONDS
    )
    world.restart()
    await world.table.tournaments.resume([GUILD])
    found = await current(world, tournament.id)
    [noted] = [t for t in found.round_tables() if t.id == first.id]
    assert noted.game_id == played.snapshot.id
    assert next(t for t in found.round_tables() if t.id == second.id).game_id is not None
    assert len(world.chat.threads) == 2  # the killed process's, and the second table's


async def test_a_one_piece_event_waits_for_its_entrants_throws_with_auto_throw_on(world: World) -> None:
    """One piece each and auto-throw on: the bot threw for both entrants and played their one moves,
    and the round's game was over before either had a turn. Now each entrant throws."""
    for user in MEMBERS[:2]:
        await world.table.flow.service.members.set_auto_throw(user, True)
    tournament = await opened(world, rounds=1, round_seconds=10**6)
    await sign_up(world, tournament, MEMBERS[:2])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's game")
    [table] = (await current(world, tournament.id)).round_tables()
    game = await world.table.flow.service.get(table.game_id or 0)
    assert game.status == Status.ACTIVE and game.turn_number == 0 and game.pending_throw is None
    assert game.user_to_move() in MEMBERS[:2]


async def test_in_a_tables_thread_the_commands_find_its_tournament(world: World) -> None:
    """A player in their game's thread asks for the standings there, and the organizer may cancel
    there (a seventh look met "There is no tournament open here." in the thread)."""
    tournament = await opened(world)
    await sign_up(world, tournament, MEMBERS[:2])
    await world.table.tournaments.start(member(world, ORGANIZER), manager=False)
    await until(lambda: games_open(world, tournament.id), "round 1's game")
    [table] = (await current(world, tournament.id)).round_tables()
    thread = world.chat.room((await world.table.flow.service.get(table.game_id or 0)).channel_id)
    assert thread.id != world.room.id
    text, _ = await world.table.tournaments.standings(Click(world.chat, thread, MEMBERS[0], "Member"))
    assert "Sunday Cup" in text
    await world.table.tournaments.cancel(Click(world.chat, thread, ORGANIZER, "Organizer"), manager=False)
    assert (await current(world, tournament.id)).status == TournamentStatus.CANCELLED
    elsewhere = world.chat.room(world.chat.new_id())
    with pytest.raises(GameError):
        await world.table.tournaments.standings(Click(world.chat, elsewhere, MEMBERS[0], "Member"))
