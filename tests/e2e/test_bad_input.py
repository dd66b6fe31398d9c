"""Wrong clicks and wrong commands: each gets a clear ephemeral answer and leaves the game as it was."""

from __future__ import annotations

from bot.core.snapshot import GameSnapshot
from bot.core.texts import ENGLISH
from bot.core.texts.refusals import refusal as refusal_text
from localdiscord.objects import Message
from tests.support.driver import Reply
from tests.support.processes import stored_games
from tests.support.table import Table, live_buttons, turn_state, wait_for_turn_or_end


async def game_now(table: Table) -> tuple[object, ...]:
    """What a refused request must not change (the turn message's id is display, set after posting)."""
    snapshot: GameSnapshot | None = await table.bot.service.get_active(table.channel.id)
    assert snapshot is not None
    return snapshot.version, snapshot.turn_number, snapshot.position, snapshot.pending_throw, snapshot.seats


async def refusal(table: Table, reply: Reply) -> str:
    """The ephemeral sentence that answered a click: its reply, or a followup after a deferral."""

    def said() -> Message | None:
        if reply.followups:
            return reply.followups[-1]
        return reply.message if reply.message is not None and reply.message.ephemeral else None

    message: Message = await table.fake.wait_until(said, what="the refusal")
    assert message.ephemeral, message.content
    return message.content


async def started(table: Table) -> Message:
    # Four pieces on the board from the start: almost every throw offers a choice, the first included.
    await table.alice.slash(table.channel, "pachisi start", players=2, level="easy", rules="start_on_board=4")
    return await wait_for_turn_or_end(table)


async def thrown(table: Table) -> Message:
    """Alice starts a game and throws until a throw offers a move; returns the move buttons' message."""
    await started(table)
    for _ in range(20):  # the dice are not seeded: a throw may still offer no move
        message = await wait_for_turn_or_end(table)
        labels = [b.label for b in live_buttons(message)]
        if labels != ["Throw"]:
            return message
        before = turn_state(table.channel)
        await table.alice.click(message, "Throw")
        await wait_for_turn_or_end(table, after=before)
    raise AssertionError("no throw offered a move")


async def test_a_typed_move_that_is_not_in_the_list_is_refused(table: Table) -> None:
    await thrown(table)
    before = await game_now(table)
    reply = await table.alice.slash(table.channel, "pachisi move", choice="Z")
    assert reply.ephemeral
    assert reply.content.startswith("`Z` is not a move of this throw: choose A (")
    reply = await table.alice.slash(table.channel, "pachisi move", choice="black:0-83")
    assert reply.ephemeral
    assert reply.content.startswith("`black:0-83` is not a move of this throw: choose A ("), reply.content
    assert await game_now(table) == before


async def test_a_typed_move_before_the_throw_says_to_throw_first(table: Table) -> None:
    """Before the throw no letter is a move: the member to play is told to throw, anyone else why
    it is not theirs to play (not "choose none")."""
    await started(table)  # Alice to throw: the table throws for nobody in these tests
    before = await game_now(table)
    reply = await table.alice.slash(table.channel, "pachisi move", choice="Z")
    assert reply.ephemeral
    assert reply.content == refusal_text(ENGLISH, "not_thrown", {})
    assert reply.content.startswith("Throw first")
    reply = await table.bob.slash(table.channel, "pachisi move", choice="A")
    assert reply.content == refusal_text(ENGLISH, "not_playing", {})
    assert await game_now(table) == before


async def test_start_in_a_running_game_tells_its_player_to_play_on_not_to_join(table: Table) -> None:
    await started(table)
    before = await game_now(table)
    [game] = await stored_games(table.database_url)
    reply = await table.alice.slash(table.channel, "pachisi start")
    assert reply.ephemeral
    assert reply.content == refusal_text(ENGLISH, "playing_here", {"game": game.snapshot.id, "seat": 0})
    assert "join" not in reply.content
    reply = await table.bob.slash(table.channel, "pachisi start")  # an onlooker is offered a seat
    assert "/pachisi join" in reply.content
    assert await game_now(table) == before


async def test_a_command_in_a_channel_without_a_game(table: Table) -> None:
    other = table.guild.add_text_channel("chat")
    await table.fake.wait_until(lambda: table.bot.get_channel(other.id), what="the new channel")
    for command in ("pachisi throw", "pachisi board", "pachisi join", "pachisi leave", "pachisi end"):
        reply = await table.alice.slash(other, command)
        assert reply.ephemeral
        assert reply.content == "There is no game in this channel: start one with /pachisi start."
    reply = await table.alice.slash(other, "pachisi move", choice="A")
    assert reply.content.startswith("There is no game in this channel:")
    assert await stored_games(table.database_url) == []


async def test_autocomplete_offers_exactly_the_legal_moves_of_the_pending_throw(table: Table) -> None:
    message = await thrown(table)
    snapshot = await table.bot.service.get_active(table.channel.id)
    assert snapshot is not None and snapshot.pending_throw is not None
    choices = await table.alice.autocomplete(table.channel, "pachisi move", "choice", "")
    assert [value for _, value in choices] == [str(m) for m in snapshot.legal_moves()]
    assert [name.split(" · ")[0] for name, _ in choices] == [b.label for b in live_buttons(message)]
    narrowed = await table.alice.autocomplete(table.channel, "pachisi move", "choice", "A:")
    assert narrowed == choices[:1]


async def test_a_very_long_typed_move_gets_a_short_answer(table: Table) -> None:
    """A refusal that echoed 2,000+ typed characters was itself refused by Discord: no answer."""
    await thrown(table)
    before = await game_now(table)
    for typed in ("Z" * 2500, "black:" + "9" * 2500 + "-1", "A " * 3000):
        reply = await table.alice.slash(table.channel, "pachisi move", choice=typed)
        assert reply.ephemeral, reply.content
        assert "is not a move" in reply.content and len(reply.content) <= 300, reply.content[:300]
    assert await game_now(table) == before


FORGED = (
    "pachisi:throw:{nines}:{turn}",  # a game id far beyond any column (was OverflowError)
    "pachisi:throw:2147483648:{turn}",  # one past PostgreSQL's INTEGER
    "pachisi:throw:0:{turn}",
    "pachisi:throw:{game}:{nines}",
    "pachisi:move:{game}:{turn}:purple:1-5",  # no such side (was a traceback)
    "pachisi:move:{game}:{turn}:black:{nines}-{nines}",
    "pachisi:move:{game}:{turn}",
    "pachisi:move:{game}:{turn}:pass",  # parses as no move at all
    "pachisi:move:{game}:{turn}:black:1-",
    "pachisi:join:{game}",
    "pachisi:nosuch:{game}:{turn}",
    "pachisi:",
    "pachisi:throw:{game}:{turn}:" + "x" * 80,
)


async def test_every_forged_button_id_gets_an_answer_and_changes_nothing(table: Table) -> None:
    """Button ids are untrusted input: any client can send any id on any message."""
    message = await thrown(table)
    snapshot = await table.bot.service.get_active(table.channel.id)
    assert snapshot is not None
    before = await game_now(table)
    for template in FORGED:
        custom_id = template.format(nines="9" * 40, game=snapshot.id, turn=snapshot.turn_number)
        reply = await table.alice.press(message, custom_id)
        assert reply.ephemeral, (custom_id, reply.content)
        assert reply.content, custom_id
    assert await game_now(table) == before
