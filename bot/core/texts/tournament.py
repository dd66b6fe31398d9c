"""A tournament's words in chat: the sign-up card, each round's pairings, adjudications,
withdrawals, the standings as text (the same as the picture's) and the podium.

Members are named by mention (`<@id>`), so Discord shows each reader the name they know; a moment
to come is Discord's timestamp markup (`<t:unix:R>`, "in 2 hours"), which each reader's client
writes in their own language and time zone.
"""

from __future__ import annotations

from datetime import datetime

from bot.core.store import TournamentStatus
from bot.core.texts.board import level_name
from bot.core.texts.language import Language, clip
from bot.core.texts.table import rules_words
from bot.core.tournaments.snapshot import ROUND_ROBIN, TableView, Tournament
from bot.core.tournaments.standings import Line
from engine.rules import Rules
from render.words import points_text


def relative(moment: datetime) -> str:
    """Discord's markup for a moment as "in 2 hours" / "5 minutes ago"."""
    return f"<t:{int(moment.timestamp())}:R>"


def duration(lang: Language, seconds: int) -> str:
    """A time span in its largest whole unit: "2 hours", "90 minutes", "45 seconds"."""
    if seconds % 3600 == 0:
        return lang.ngettext("{count} hour", "{count} hours", seconds // 3600)
    if seconds % 60 == 0:
        return lang.ngettext("{count} minute", "{count} minutes", seconds // 60)
    return lang.ngettext("{count} second", "{count} seconds", seconds)


def format_words(lang: Language, tournament: Tournament) -> str:
    """ "a Swiss tournament of 3 rounds at 2-player tables", or a round robin, or partnerships."""
    if tournament.format == ROUND_ROBIN:
        return lang.gettext("a round robin at 2-player tables: everyone plays everyone once")
    if tournament.table_size == 4:
        return lang.ngettext(
            "a Swiss tournament of {count} round at 4-player tables, partners changing every round",
            "a Swiss tournament of {count} rounds at 4-player tables, partners changing every round",
            tournament.rounds,
        )
    return lang.ngettext(
        "a Swiss tournament of {count} round at 2-player tables",
        "a Swiss tournament of {count} rounds at 2-player tables",
        tournament.rounds,
    )


def computer(lang: Language, level: str) -> str:
    return lang.gettext("Computer ({level})", level=level_name(lang, level))


def card(lang: Language, tournament: Tournament) -> str:
    """The card in the channel, under its Join and Leave buttons: what the event is, its times,
    where it stands and who is in."""
    lines = [
        lang.gettext(
            "**{name}**: {format}, organized by <@{organizer}>.",
            name=tournament.name,
            format=format_words(lang, tournament),
            organizer=tournament.organizer_id,
        ),
        lang.gettext(
            "Rules: {rules}. Each move: {move}; each round: at most {round}, then games still playing "
            "are decided by the win chance. The computer plays at {level} level where a seat is empty.",
            rules=rules_words(lang, Rules.parse(tournament.rules)),
            move=duration(lang, tournament.move_seconds),
            round=duration(lang, tournament.round_seconds),
            level=level_name(lang, tournament.level),
        ),
        _where(lang, tournament),
        _entrants(lang, tournament),
    ]
    return "\n".join(lines)


def _where(lang: Language, tournament: Tournament) -> str:
    status = tournament.status
    if status == TournamentStatus.SIGNUP:
        return lang.gettext(
            "Sign-up closes and the tournament starts {when}: click Join to play.",
            when=relative(tournament.signup_closes_at),
        )
    if status == TournamentStatus.CANCELLED:
        return lang.gettext("The organizer cancelled this tournament.")
    if status == TournamentStatus.FINISHED:
        return lang.gettext("The tournament is over: the standings below are final.")
    text = lang.gettext(
        "Round {round} of {rounds} is being played.", round=tournament.current_round, rounds=tournament.rounds
    )
    if tournament.paused:
        text = lang.gettext("{text} The organizer pairs the next round.", text=text)
    return text


def _entrants(lang: Language, tournament: Tournament) -> str:
    count = len(tournament.entrants)
    if not count:
        return lang.gettext("Nobody has joined yet.")
    names = []
    for entrant in tournament.entrants:
        name = lang.gettext("<@{member}> ({rating})", member=entrant.member, rating=entrant.rating)
        if not entrant.playing:
            name = lang.gettext("{name}, withdrawn", name=name)
        names.append(name)
    return lang.ngettext(
        "{count} entrant: {names}", "{count} entrants: {names}", count, names=", ".join(names)
    )


def side_words(lang: Language, tournament: Tournament, members: tuple[int | None, ...]) -> str:
    """A side at a table: `<@a>`, or partners `<@a> & Computer (normal)`."""
    named = [computer(lang, tournament.level) if m is None else f"<@{m}>" for m in members]
    if len(named) == 1:
        return named[0]
    return lang.gettext("{first} & {second}", first=named[0], second=named[1])


def table_line(lang: Language, tournament: Tournament, table: TableView) -> str:
    """ "Table 2: <@a> vs <@b>", or the bye of a side that faces only the computer."""
    first, second = (side_words(lang, tournament, side) for side in table.sides)
    if table.table.bye:
        bye_side = first if any(m is not None for m in table.sides[0]) else second
        return lang.gettext(
            "Table {number}: {side} has a bye: the game against the computer counts as a win.",
            number=table.number,
            side=bye_side,
        )
    if table.decided_by == "forfeit":
        return lang.gettext(
            "Table {number}: {first} vs {second}, won by forfeit: a player has withdrawn.",
            number=table.number,
            first=first,
            second=second,
        )
    return lang.gettext(
        "Table {number}: {first} vs {second}", number=table.number, first=first, second=second
    )


def round_paired(lang: Language, tournament: Tournament, number: int) -> str:
    """The post that opens a round: its tables, and when games still playing are decided."""
    found = tournament.round(number)
    assert found is not None
    head = lang.gettext(
        "**Round {round} of {rounds}** is paired. Games still playing {when} are decided by the win chance.",
        round=number,
        rounds=tournament.rounds,
        when=relative(found.deadline),
    )
    return "\n".join([head, *(table_line(lang, tournament, t) for t in tournament.round_tables(number))])


def thread_name(lang: Language, tournament: Tournament, table: TableView) -> str:
    """A table's thread."""
    name = lang.gettext(
        "{name}: round {round}, table {number}", name=tournament.name, round=table.round, number=table.number
    )
    return clip(name, 100)


def adjudicated(lang: Language, tournament: Tournament, table: TableView) -> str:
    """A game decided at the round's limit, and the chance that decided it."""
    percent = round(100 * (table.win_chance or 0.5))
    if table.winner is None:
        return lang.gettext(
            "Table {number}: the round's time is up and the win chance is even ({percent} %): a draw.",
            number=table.number,
            percent=percent,
        )
    return lang.gettext(
        "Table {number}: the round's time is up. {side} wins on the win chance ({percent} %).",
        number=table.number,
        side=side_words(lang, tournament, table.sides[table.winner]),
        percent=percent,
    )


def withdrawn(lang: Language, member: int) -> str:
    return lang.gettext(
        "<@{member}> has withdrawn: their games count as losses from this round on.", member=member
    )


def standing_line(lang: Language, line: Line) -> str:
    """A member's line; the rank in bold, since "1." at a line's start would be a Markdown list,
    which numbers its items itself (members sharing a rank would read 1, 2)."""
    return lang.gettext(
        "**{rank}.** <@{member}>: points {points} · Buchholz {buchholz} · opponents' ratings {ratings} · "
        "games {games}",
        rank=line.rank,
        member=line.member,
        points=points_text(line.points),
        buchholz=points_text(line.buchholz),
        ratings=line.opponents_rating,
        games=line.games,
    )


def standings(lang: Language, tournament: Tournament, next_round: int | None = None) -> str:
    """The standings as text, the same as the picture: a line per member, the tie-breaks, and the
    tables of `next_round` when it is paired."""
    after = tournament.current_round if next_round is None else next_round - 1
    if tournament.status == TournamentStatus.FINISHED:
        head = lang.gettext("**{name}: final standings**", name=tournament.name)
    elif after == 0:  # signed up, not started: no round is behind it yet
        head = lang.gettext(
            "**{name}: standings before round 1 of {rounds}**", name=tournament.name, rounds=tournament.rounds
        )
    else:
        head = lang.gettext(
            "**{name}: standings after round {round} of {rounds}**",
            name=tournament.name,
            round=after,
            rounds=tournament.rounds,
        )
    lines = [head, *(standing_line(lang, line) for line in tournament.standings())]
    lines.append(
        lang.gettext("Ties: Buchholz (the points of everyone met), then the opponents' ratings added up.")
    )
    if next_round is not None:
        lines.append(lang.gettext("**Round {round}: who plays whom**", round=next_round))
        lines += [table_line(lang, tournament, t) for t in tournament.round_tables(next_round)]
    return "\n".join(lines)


def podium(lang: Language, tournament: Tournament) -> str:
    """The end: the members ranked first to third."""
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    lines = [lang.gettext("**{name} is over.** Congratulations to the podium:", name=tournament.name)]
    for line in tournament.podium():
        lines.append(
            lang.gettext(
                "{medal} <@{member}>, points {points}",
                medal=medals[line.rank],
                member=line.member,
                points=points_text(line.points),
            )
        )
    return "\n".join(lines)


# --- the organizer's and the members' answers, and a table's welcome --------------------------


def join_label(lang: Language) -> str:
    return lang.gettext("Join")


def leave_label(lang: Language) -> str:
    return lang.gettext("Leave")


def opened(lang: Language, tournament: Tournament) -> str:
    return lang.gettext(
        "The tournament {name} is open: members sign up with the Join button on its card.",
        name=tournament.name,
    )


def joined(lang: Language, tournament: Tournament) -> str:
    return lang.gettext("You are in the tournament {name}.", name=tournament.name)


def left(lang: Language, tournament: Tournament) -> str:
    return lang.gettext("You have left the tournament {name}.", name=tournament.name)


def added(lang: Language, tournament: Tournament, member: int) -> str:
    return lang.gettext("<@{member}> is in the tournament {name}.", member=member, name=tournament.name)


def dropped(lang: Language, tournament: Tournament, member: int) -> str:
    return lang.gettext("<@{member}> is out of the tournament {name}.", member=member, name=tournament.name)


def started(lang: Language, tournament: Tournament) -> str:
    """The organizer's answer to a start, or to `next` (a later round: "has started" would not fit)."""
    if tournament.current_round > 1:
        return lang.gettext(
            "{name}: round {round} of {rounds} is paired.",
            name=tournament.name,
            round=tournament.current_round,
            rounds=tournament.rounds,
        )
    return lang.gettext(
        "The tournament {name} has started: round {round} is paired.",
        name=tournament.name,
        round=tournament.current_round,
    )


def cancelled(lang: Language, tournament: Tournament) -> str:
    return lang.gettext("The tournament {name} is cancelled.", name=tournament.name)


def paused(lang: Language, tournament: Tournament) -> str:
    if tournament.paused:
        return lang.gettext(
            "The next round of {name} waits until the organizer pairs it.",
            name=tournament.name,
        )
    return lang.gettext(
        "The next round of {name} is paired as soon as the last game of this round ends.",
        name=tournament.name,
    )


def welcome(lang: Language, tournament: Tournament, table: TableView) -> str:
    """The first words in a table's thread: who plays whom, the move time and the round's limit."""
    found = tournament.round(table.round)
    assert found is not None
    first, second = (side_words(lang, tournament, side) for side in table.sides)
    return lang.gettext(
        "{first} vs {second}: your game of {name}, round {round}. Each move: {move}, or the computer "
        "plays it for you. Games still playing {when} are decided by the win chance.",
        first=first,
        second=second,
        name=tournament.name,
        round=table.round,
        move=duration(lang, tournament.move_seconds),
        when=relative(found.deadline),
    )


def no_thread(lang: Language, tournament: Tournament, table: TableView) -> str:
    return lang.gettext(
        "Table {number} could not open: the bot may not create threads in this channel.",
        number=table.number,
    )


def help_lines(lang: Language) -> str:
    """What `/pachisi help` says of tournaments."""
    return lang.gettext(
        "`/pachisi tournament open` (Manage Server or Manage Events): open a tournament in this "
        "channel; members sign up with **Join** on its card. Swiss (by score) or round robin, 2 "
        "players a table or 4 in partnerships; each round plays in one thread per table, a move not "
        "made in time is the computer's, and games still playing at the round's limit are decided "
        "by the win chance. The organizer can `start`, `pause`, `resume`, `next`, `add`, `drop` "
        "and `cancel`; `/pachisi tournament standings` shows the standings."
    )


def schedule(lang: Language, tournament: Tournament) -> str:
    """A round robin's whole schedule, posted when it starts: who plays whom in each round."""
    lines = [lang.gettext("**{name}: the whole schedule**", name=tournament.name)]
    for number, tables in enumerate(tournament.schedule(), start=1):
        games = [
            lang.gettext(
                "{first} vs {second}",
                first=side_words(lang, tournament, table.sides[0]),
                second=side_words(lang, tournament, table.sides[1]),
            )
            for table in tables
        ]
        lines.append(lang.gettext("Round {round}: {games}", round=number, games="; ".join(games)))
    return "\n".join(lines)
