"""Every refusal a member can meet, by its key (`bot.core.errors`): one sentence that says what to do."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.core.texts.board import choice_letter, colour
from bot.core.texts.language import Language
from engine import Move, Position
from engine.errors import NotationError, number
from engine.rules import PRESETS, SWITCHES
from render.words import move_places

INPUT_SHOWN = 40
"""Typed input quoted back in a refusal is cut to this many characters."""


def quoted(text: str) -> str:
    """Typed input as a refusal shows it: cut short, no formatting of its own."""
    text = " ".join(text.split())
    cut = text[:INPUT_SHOWN] + ("..." if len(text) > INPUT_SHOWN else "")
    return "`" + cut.replace("`", "'") + "`"


def _seats(lang: Language, seats: Sequence[int]) -> str:
    return lang.join([colour(lang, s) for s in seats]) or lang.gettext("none")


def permission_name(lang: Language, name: str) -> str:
    """A permission as Discord's settings name it (`send_messages` -> Send Messages)."""
    names = {
        "view_channel": lang.gettext("View Channel"),
        "send_messages": lang.gettext("Send Messages"),
        "attach_files": lang.gettext("Attach Files"),
        "embed_links": lang.gettext("Embed Links"),
        "read_message_history": lang.gettext("Read Message History"),
        "create_public_threads": lang.gettext("Create Public Threads"),
        "send_messages_in_threads": lang.gettext("Send Messages in Threads"),
    }
    return names.get(name, name)


def _choices(lang: Language, moves: Sequence[str], position: str | None = None) -> str:
    """The throw's choices as its buttons name them, one to pick: `A (Red: out of the Charkoni to
    Red's arm) or B (Red: along Red's arm)` (`moves` in the notation, in the buttons' order;
    `position` the notation of the position they are played from, which tells two pieces on one
    arm apart as the buttons do)."""
    if not moves:
        return lang.gettext("none")
    try:
        at = None if position is None else Position.parse(position)
    except NotationError:
        at = None
    return lang.either([f"{choice_letter(i)} ({_named(lang, move, at)})" for i, move in enumerate(moves)])


def _named(lang: Language, move: str, position: Position | None = None) -> str:
    """A move in the notation (`red:4-9`) as the buttons write it (`Red: along Red's arm`)."""
    try:
        return move_places(lang, Move.parse(move), position)
    except NotationError:
        return quoted(move)


def one_of(lang: Language, name: str, choices: Sequence[str]) -> str:
    """A typed value that is none of an option's choices: `players must be 2 or 4.` (numbers in
    ascending order, words as the option lists them)."""
    if all(choice.isdigit() for choice in choices):
        choices = sorted(choices, key=int)
    return lang.gettext("{name} must be {choices}.", name=name, choices=lang.either(choices))


def rules_fault(lang: Language, typed: str, reason: str) -> str:
    """What is wrong with the `rules` option of /pachisi start, said once, in the member's words:
    the first item the engine refuses (its `reason`, in English, only tells which case is left)."""
    seen: set[str] = set()
    for item in (part.strip() for part in typed.split(",")):
        name, given, value = (part.strip() for part in item.partition("="))
        if not item:
            continue
        if item in PRESETS:
            return lang.gettext(
                "{typed} is a rule set: choose it with the `variant` option, and give `rules` only options.",
                typed=quoted(item),
            )
        if given and name in ("players", "pieces"):
            return lang.gettext(
                "{name} has an option of its own in /pachisi start: set it there, not in `rules`.",
                name=quoted(name),
            )
        if not given or name not in SWITCHES | {"start_on_board"}:
            return lang.gettext(
                "I know no rule option {typed}: pick the options from the list.", typed=quoted(item)
            )
        if name in seen:
            return lang.gettext("{name} is given twice: give each rule option once.", name=quoted(name))
        seen.add(name)
        if name in SWITCHES and value not in ("on", "off"):
            return lang.gettext(
                "{name} takes `on` or `off`, not {value}.", name=quoted(name), value=quoted(value)
            )
        if name not in SWITCHES and number(value, 4) is None:
            return lang.gettext(
                "{name} takes a number from 0 to 4, not {value}.", name=quoted(name), value=quoted(value)
            )
    if "start_on_board" in reason:
        return lang.gettext("`start_on_board` can't be more than the pieces per seat: choose fewer.")
    return lang.gettext(
        "I can't start a game with the rules {typed}: pick the options from the list.", typed=quoted(typed)
    )


Say = Callable[..., str]
SAY: dict[str, Callable[[Language], Say]] = {
    "busy": lambda lang: lambda: lang.gettext("That can't be done right now: try again in a moment."),
    "no_game": lambda lang: (
        lambda: lang.gettext("There is no game in this channel: start one with /pachisi start.")
    ),
    "game_exists": lambda lang: (
        lambda game, starter: lang.gettext(
            "A game is already running here (game {game}, started by <@{starter}>): join it with /pachisi "
            "join, or start yours in another channel or thread.",
            game=game,
            starter=starter,
        )
    ),
    "playing_here": lambda lang: (
        lambda game, seat: lang.gettext(
            "You already play {colour} in the game here (game {game}): play on in its newest message.",
            colour=colour(lang, seat),
            game=game,
        )
    ),
    "not_your_turn": lambda lang: lambda: lang.gettext("It's not your turn: wait for your turn message."),
    "not_playing": lambda lang: (
        lambda: lang.gettext("You are not playing in this game: take a computer's seat with /pachisi join.")
    ),
    "computers_turn": lambda lang: (
        lambda seat, own: lang.gettext(
            "It's the computer's turn ({colour}); you play {own}.",
            colour=colour(lang, seat),
            own=colour(lang, own),
        )
    ),
    "members_turn": lambda lang: (
        lambda member, seat, own: lang.gettext(
            "It's <@{member}>'s turn ({colour}); you play {own}.",
            member=member,
            colour=colour(lang, seat),
            own=colour(lang, own),
        )
    ),
    "stale_turn": lambda lang: (
        lambda: lang.gettext("That throw was already played: use the game's newest message.")
    ),
    "not_waiting": lambda lang: lambda: lang.gettext("That turn is not waiting for a member."),
    "not_timed_out": lambda lang: (
        lambda: lang.gettext("The turn has not timed out yet: wait for the deadline.")
    ),
    "game_ended": lambda lang: (
        lambda: lang.gettext("This game has ended: start a new one with /pachisi start.")
    ),
    "not_thrown": lambda lang: (
        lambda: lang.gettext("Throw first: click Throw (or use /pachisi throw), then choose a move.")
    ),
    "already_thrown": lambda lang: (
        lambda: lang.gettext("The cowries are already thrown: choose one of the moves.")
    ),
    "illegal_move": lambda lang: (
        lambda: lang.gettext("That move is not allowed with this throw: choose one of the moves shown.")
    ),
    "seat_taken": lambda lang: lambda: lang.gettext("That seat is taken: choose a computer's seat."),
    "seats_full": lambda lang: (
        lambda: lang.gettext("Every seat is taken: start your own game with /pachisi start.")
    ),
    "seat_not_free": lambda lang: (
        lambda seat, free: lang.gettext(
            "{colour} is taken: free seats are {free}.", colour=colour(lang, seat), free=_seats(lang, free)
        )
    ),
    "seat_not_in_play": lambda lang: (
        lambda free: lang.gettext("That seat is not in play: free seats are {free}.", free=_seats(lang, free))
    ),
    "seat_out_of_play": lambda lang: (
        lambda seats: lang.gettext("Choose a seat in play: {seats}.", seats=_seats(lang, seats))
    ),
    "two_player_seats": lambda lang: (
        lambda: lang.gettext("In a two-player game the seats are Black and Yellow: choose one of them.")
    ),
    "already_seated": lambda lang: (
        lambda seat: lang.gettext(
            "You already play {colour}: /pachisi leave first to change seats.", colour=colour(lang, seat)
        )
    ),
    "resigned": lambda lang: (
        lambda: lang.gettext("You resigned from this game: start a new one with /pachisi start.")
    ),
    "not_allowed": lambda lang: lambda: lang.gettext("You are not allowed to do that."),
    "unknown_level": lambda lang: (
        lambda level, levels: lang.gettext(
            "There is no computer level {level}: choose {levels}.",
            level=quoted(level),
            levels=lang.join(levels),
        )
    ),
    "unknown_language": lambda lang: (
        lambda language, languages: lang.gettext(
            "I don't speak {language} yet: choose {languages}.",
            language=quoted(language),
            languages=lang.join(languages),
        )
    ),
    "unknown_rules": lambda lang: lambda typed, reason: rules_fault(lang, typed, reason),
    "only_starter_ends": lambda lang: (
        lambda: lang.gettext(
            "Only the member who started this game, or one with Manage Channels, can end it."
        )
    ),
    "only_starter_ends_seated": lambda lang: (
        lambda seat: lang.gettext(
            "Only the member who started this game, or one with Manage Channels, can end it. To stop "
            "playing {colour}, give your seat back with `/pachisi leave`.",
            colour=colour(lang, seat),
        )
    ),
    "only_starter_ends_unseated": lambda lang: (
        lambda: lang.gettext(
            "You have no seat in this game, and only the member who started it, or one with Manage "
            "Channels, can end it."
        )
    ),
    "hints_off": lambda lang: lambda: lang.gettext("Hints are off in this game."),
    "hint_too_late": lambda lang: lambda: lang.gettext("That hint is for a turn already played."),
    "hint_not_yours": lambda lang: lambda: lang.gettext("Only the player to move can ask for a hint."),
    "rematch_not_yours": lambda lang: (
        lambda: lang.gettext(
            "Only the players of this game can start its rematch: start your own with /pachisi start."
        )
    ),
    "rematch_too_soon": lambda lang: lambda: lang.gettext("This game is still on: finish it first."),
    "rematch_started": lambda lang: (
        lambda thread: lang.gettext("The rematch has already started: <#{thread}>.", thread=thread)
    ),
    "conflict": lambda lang: (
        lambda: lang.gettext(
            "Already played: someone else was quicker. The game's newest message shows where it stands."
        )
    ),
    "stale_button": lambda lang: (
        lambda: lang.gettext("That button is no longer in use: use the newest message of the game.")
    ),
    "not_a_choice": lambda lang: (
        lambda typed, moves, position=None: lang.gettext(
            "{typed} is not a move of this throw: choose {choices}.",
            typed=quoted(typed),
            choices=_choices(lang, moves, position),
        )
    ),
    "no_throws": lambda lang: (
        lambda game: lang.gettext("Game #{game} has no throws yet: nothing to replay.", game=game)
    ),
    "no_game_here": lambda lang: (
        lambda: lang.gettext(
            "No game has been played in this channel. `/pachisi history` lists the server's."
        )
    ),
    "no_such_game": lambda lang: (
        lambda game: lang.gettext(
            "There is no game #{game} in this server. `/pachisi history` lists its games.", game=game
        )
    ),
    "cannot_post": lambda lang: (
        lambda: lang.gettext(
            "I can't post the board here: give me Send Messages (in threads too) and Attach Files. The game "
            "is saved: `/pachisi throw` and `/pachisi move` still work."
        )
    ),
    "missing_permissions": lambda lang: (
        lambda permissions: lang.gettext(
            "I can't run a game here: give me {permissions} in this channel.",
            permissions=lang.join([permission_name(lang, p) for p in permissions]),
        )
    ),
    "bad_value": lambda lang: (
        lambda value: lang.gettext("I can't use {value} there: pick one from the list.", value=quoted(value))
    ),
    "not_here": lambda lang: lambda: lang.gettext("That command can't be used here."),
    "puzzle_not_yours": lambda lang: (
        lambda: lang.gettext("That puzzle was sent to another member: `/pachisi puzzle` gives you your own.")
    ),
    "puzzle_old": lambda lang: (
        lambda: lang.gettext("That was an earlier day's puzzle: `/pachisi puzzle` shows today's.")
    ),
    "puzzle_forged": lambda lang: (
        lambda: lang.gettext("That is not a button of today's puzzle: `/pachisi puzzle` shows it.")
    ),
    "puzzle_answered": lambda lang: (
        lambda: lang.gettext(
            "You have answered today's puzzle already, and one answer counts: `/pachisi puzzle` shows "
            "your result. The next puzzle comes at midnight UTC."
        )
    ),
    "puzzle_channel_manage": lambda lang: (
        lambda: lang.gettext(
            "Only a member with Manage Channels can choose where the daily puzzle is posted."
        )
    ),
    "puzzle_cannot_post": lambda lang: (
        lambda: lang.gettext(
            "I can't post in this channel: give me View Channel and Send Messages here, or choose another."
        )
    ),
    "unknown_season": lambda lang: (
        lambda typed: lang.gettext(
            "{typed} is not a season: a season is a month, written like 2026-05; or choose all time.",
            typed=quoted(typed),
        )
    ),
    "no_tournament": lambda lang: lambda: lang.gettext("There is no tournament open here."),
    "tournament_exists": lambda lang: (
        lambda name: lang.gettext(
            "The tournament {name} is already open in this channel: open yours in another channel, or "
            "wait until it ends.",
            name=name,
        )
    ),
    "not_organizer": lambda lang: lambda: lang.gettext("Only the tournament's organizer can do that."),
    "tournament_managers": lambda lang: (
        lambda: lang.gettext("Only a member who may manage the server or its events can open a tournament.")
    ),
    "signup_closed": lambda lang: lambda: lang.gettext("Sign-up for this tournament has closed."),
    "already_in": lambda lang: lambda: lang.gettext("You are already in this tournament."),
    "not_in": lambda lang: lambda: lang.gettext("You are not in this tournament."),
    "member_already_in": lambda lang: (
        lambda member: lang.gettext("<@{member}> is already in this tournament.", member=member)
    ),
    "member_not_in": lambda lang: (
        lambda member: lang.gettext("<@{member}> is not in this tournament.", member=member)
    ),
    "too_few_entrants": lambda lang: (
        lambda count: lang.ngettext(
            "A tournament needs at least {count} entrant to start.",
            "A tournament needs at least {count} entrants to start.",
            count,
        )
    ),
    "round_robin_pairs": lambda lang: (
        lambda: lang.gettext(
            "A round robin is played at 2-player tables: partnerships play a Swiss tournament."
        )
    ),
    "swiss_rounds": lambda lang: (
        lambda most: lang.gettext("A Swiss tournament plays from 1 to {most} rounds.", most=most)
    ),
    "signup_past": lambda lang: (
        lambda: lang.gettext("Sign-up must close later than now: choose a time to come.")
    ),
    "tournament_started": lambda lang: lambda: lang.gettext("This tournament has started already."),
    "tournament_not_started": lambda lang: (
        lambda: lang.gettext("This tournament has not started yet: the organizer starts it.")
    ),
    "tournament_over": lambda lang: lambda: lang.gettext("This tournament is over."),
    "round_playing": lambda lang: (
        lambda round: lang.gettext(
            "Round {round} is still being played: the next round is paired when its last game ends.",
            round=round,
        )
    ),
    "round_not_over": lambda lang: (
        lambda deadline: lang.gettext(
            "The round's time limit has not come yet: games still playing are adjudicated {when}.",
            when=f"<t:{deadline}:R>",
        )
    ),
    "database": lambda lang: (
        lambda: lang.gettext(
            "The database is not answering right now. The game is saved; try again in a moment."
        )
    ),
    "restarting": lambda lang: lambda: lang.gettext("The game is restarting: try again in a moment."),
    "unexpected": lambda lang: (
        lambda ref: lang.gettext("Something went wrong (ref {ref}). The game is saved.", ref=ref)
    ),
}


def refusal(lang: Language, key: str, params: dict[str, Any]) -> str:
    """The sentence for refusal `key` with its parameters, in `lang`."""
    return SAY[key](lang)(**params)
