"""The table around a game: its card in the channel, seats taken and given up, start and end."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from bot.core.records import SeatTally
from bot.core.snapshot import GameSnapshot
from bot.core.store import Status
from bot.core.texts.board import colour, side
from bot.core.texts.language import Language, clip
from bot.core.texts.refusals import permission_name
from bot.core.texts.turns import player, result_head
from engine import Rules, Termination

FROZEN_PERCENT = 96
"""Games that freeze with last_square=off (docs/RULES.md)."""


def freezing_note(lang: Language) -> str:
    share = lang.gettext("{percent} %", percent=FROZEN_PERCENT)
    return lang.gettext("last_square=off freezes about {share} of games: no piece can come home", share=share)


def rules_name(lang: Language, rules: Rules) -> str:
    """The rules' notation with the preset in `lang` (`क्लासिक,last_square=off`), as the
    `/pachisi start` choices name it; the options keep their notation (docs/HINDI.md)."""
    preset, _, options = rules.token().partition(",")
    presets = {
        "classic": lang.pgettext("command choice", "classic"),
        "standard": lang.pgettext("command choice", "standard"),
    }
    return ",".join(part for part in (presets.get(preset, preset), options) if part)


def rules_words(lang: Language, rules: Rules) -> str:
    """`classic, 4 players, 4 pieces each`."""
    text = lang.gettext(
        "{rules}, {players}, {pieces}",
        rules=rules_name(lang, rules),
        players=lang.ngettext("{count} player", "{count} players", rules.players),
        pieces=lang.ngettext("{count} piece each", "{count} pieces each", rules.pieces),
    )
    if not rules.last_square:
        text = lang.gettext("{rules} ({note})", rules=text, note=freezing_note(lang))
    return text


def table_name(lang: Language, starter: str, number: int = 1) -> str:
    """The thread's name; a starter's second table in a channel and later ones are numbered, so
    two threads never read alike."""
    if number > 1:
        return clip(lang.gettext("Pachisi: {name}'s table {number}", name=starter, number=number), 100)
    return clip(lang.gettext("Pachisi: {name}'s table", name=starter), 100)


def member_name(lang: Language, user_id: int, names: Mapping[int, str], stored: str | None = None) -> str:
    """A member's display name as this process last saw it, else as stored with the game (`stored`),
    else `Player 1234`."""
    return names.get(user_id) or stored or lang.gettext("Player {digits}", digits=str(user_id)[-4:])


def card(
    lang: Language,
    game: GameSnapshot,
    starter: str,
    *,
    tallies: Mapping[int, SeatTally] | None = None,
    players: Mapping[int, int] | None = None,
    ended_at: datetime | None = None,
    number: int = 1,
) -> str:
    """The table card in the channel: options, seats, where it plays; the result at the end. A
    starter's later tables off a channel are numbered as their threads are (`table_name`)."""
    seats = " · ".join(
        lang.gettext("{colour}: {player}", colour=colour(lang, s), player=player(lang, game, s))
        for s in game.rules.seats
    )
    lines = [card_head(lang, game, starter, number), seats]
    if game.status == Status.ACTIVE:
        if game.card_channel_id is not None:
            where = lang.gettext("Playing in <#{thread}>.", thread=game.channel_id)
        else:
            where = lang.gettext("Playing in this channel.")
        lines.append(where + " " + lang.gettext("Anyone can take a computer's seat with **Take a seat**."))
    elif game.status == Status.FINISHED:
        lines += finished_lines(lang, game, tallies or {}, players, ended_at)
    else:
        lines.append(
            lang.ngettext(
                "This game was ended after {count} throw.",
                "This game was ended after {count} throws.",
                game.turn_number,
            )
        )
    return "\n".join(lines)


def card_head(lang: Language, game: GameSnapshot, starter: str, number: int) -> str:
    """The card's first line: whose table (numbered from the starter's second), its rules, its language."""
    rules = rules_words(lang, game.rules)
    if number > 1:
        return lang.gettext(
            "**Pachisi: {name}'s table {number}** ({rules}) · in {language}",
            name=starter,
            number=number,
            rules=rules,
            language=lang.name,
        )
    return lang.gettext(
        "**Pachisi: {name}'s table** ({rules}) · in {language}",
        name=starter,
        rules=rules,
        language=lang.name,
    )


def finished_lines(
    lang: Language,
    game: GameSnapshot,
    tallies: Mapping[int, SeatTally],
    players: Mapping[int, int] | None,
    ended_at: datetime | None,
) -> list[str]:
    """A finished game's card lines: the result, throws and captures, how long, who played."""
    captures = lang.join(
        [
            lang.gettext(
                "{colour} {count}",
                colour=colour(lang, s),
                count=tallies[s].captures if s in tallies else 0,
            )
            for s in game.rules.seats
        ]
    )
    lines = [
        result_head(lang, game),
        lang.gettext("Throws: {throws}. Captures: {captures}.", throws=game.turn_number, captures=captures),
    ]
    if ended_at is not None:
        minutes = max(1, round((ended_at - game.created_at).total_seconds() / 60))
        lines.append(lang.ngettext("Duration: {count} minute.", "Duration: {count} minutes.", minutes))
    if players:
        played = lang.join([f"<@{u}> ({colour(lang, s)})" for u, s in players.items()])
        lines.append(lang.gettext("Played: {players}.", players=played))
    return lines


def your_game(lang: Language, game: GameSnapshot, user_id: int, missing: list[str]) -> str:
    """The starter's answer: where the game plays and which seat they have."""
    seat = colour(lang, game.seat_of(user_id) or 0)
    if game.card_channel_id is not None:
        text = lang.gettext(
            "Your game has started in <#{thread}>: you play {seat}.", thread=game.channel_id, seat=seat
        )
    else:
        text = lang.gettext("Your game has started: you play {seat}.", seat=seat)
    if missing:
        names = lang.join([permission_name(lang, name) for name in missing])
        text += " " + lang.gettext(
            "It plays in this channel: give me {permissions} here to play each table in a thread.",
            permissions=names,
        )
    return text


def plays_by_itself(lang: Language, *, auto: bool, one_piece: bool) -> str:
    """Said once, on a new game's first turn message: what the bot plays for its members. `auto`:
    a member at the table has auto-throw on; `one_piece`: one piece a seat, where the bot throws
    for nobody (every throw has one move: the throw is the member's whole turn)."""
    if one_piece:
        return lang.gettext(
            "_With one piece each, every throw has only one move: you click Throw on your turn, "
            "and I play its move at once._"
        )
    if auto:
        return lang.gettext(
            "_I play a throw with only one move at once, and with auto-throw on I also throw for you "
            "(`/pachisi auto off`: you click Throw yourself)._"
        )
    return lang.gettext("_I play a throw with only one move at once._")


def seat_taken(lang: Language, user_id: int, game: GameSnapshot, seat: int) -> str:
    """`<@id> takes **Red** (Red + Green).`; in a two-player game the seat is the side."""
    if game.rules.players == 2:
        return lang.gettext("<@{user}> takes **{colour}**.", user=user_id, colour=colour(lang, seat))
    return lang.gettext(
        "<@{user}> takes **{colour}** ({side}).",
        user=user_id,
        colour=colour(lang, seat),
        side=side(lang, game.position.side_of(seat), game.rules.players),
    )


def seat_given_up(lang: Language, user_id: int, seat: int | None, *, resign: bool, last: bool = False) -> str:
    """`last`: no member holds a seat any more, so the computers finish the game on their own."""
    name = colour(lang, seat) if seat is not None else lang.gettext("their seat")
    if resign:
        text = lang.gettext("<@{user}> resigns; the computer plays {seat}.", user=user_id, seat=name)
    else:
        text = lang.gettext("<@{user}> leaves; the computer plays {seat}.", user=user_id, seat=name)
    if last:
        text += " " + lang.gettext("No member is left at the table: the computers play the game to its end.")
    return text


def conceded(lang: Language, user_id: int, game: GameSnapshot) -> str:
    return lang.gettext("<@{user}> resigns: {result}", user=user_id, result=result_head(lang, game))


def gave_up(lang: Language, seat: int, game: GameSnapshot, *, resign: bool) -> str:
    """The member's own word that their seat went back to the computer (the table reads the news:
    `seat_given_up`, `conceded`): what happened, and what they may do now."""
    name = colour(lang, seat)
    outcome = game.outcome
    if resign and outcome is not None and outcome.termination is Termination.RESIGNATION:
        return lang.gettext("You resigned: {result}", result=result_head(lang, game))
    if resign:
        return lang.gettext("You resigned: the computer plays {seat} to the end of this game.", seat=name)
    return lang.gettext(
        "You left: the computer plays {seat} now. Take a seat again with /pachisi join.", seat=name
    )


def ended(lang: Language, user_id: int, game: GameSnapshot) -> str:
    return lang.ngettext(
        "<@{user}> ended the game after {count} throw.",
        "<@{user}> ended the game after {count} throws.",
        game.turn_number,
        user=user_id,
    )


def you_ended(lang: Language, game: GameSnapshot) -> str:
    """The member's own word that they ended the game (the table reads `ended`)."""
    return lang.ngettext(
        "You ended the game after {count} throw.",
        "You ended the game after {count} throws.",
        game.turn_number,
    )


def plays_in(lang: Language, text: str, game: GameSnapshot) -> str:
    """News told to a member who is not in the game's thread, with a link to it."""
    return lang.gettext("{news} The game plays in <#{thread}>.", news=text, thread=game.channel_id)
