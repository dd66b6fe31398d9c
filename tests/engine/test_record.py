"""Game records: written, read back and replayed; every kind of broken record named by its line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from random import Random

import pytest

from engine import record as record_module
from engine.record import Record, RecordError, Throw, read_record
from engine.rules import Rules
from engine.state import Position
from engine.throws import throw_value


def random_throws(rules: Rules, seed: int, limit: int | None = None) -> list[Throw]:
    """A whole game (or its first `limit` throws) with uniformly random moves."""
    rng = Random(seed)
    position = Position.initial(rules)
    throws: list[Throw] = []
    while position.result is None and (limit is None or len(throws) < limit):
        value = throw_value(rng)
        moves = position.legal_moves(value)
        move = rng.choice(moves) if moves else None
        throws.append(Throw(position.turn, value, move))
        position = position.play(value, move)
    return throws


TAGS = {"Event": "Pachisi", "Game": "12", "Date": "2026-12-01", "Black": 'Asha "A\\B" (user 17)'}


@pytest.mark.parametrize(
    "rules_text",
    [
        "classic",
        "standard",
        "classic,players=2",
        "classic,pieces=2,enter_moves=on",
        "standard,players=2,pieces=1",
    ],
)
def test_a_written_record_reads_back_to_the_same_game(rules_text: str) -> None:
    rules = Rules.parse(rules_text)
    for seed in range(3):
        throws = random_throws(rules, seed)
        record = Record.play(rules, throws, TAGS)
        again = read_record(record.text())
        assert again == record
        assert again.throws == tuple(throws)
        assert again.termination == "win"
        assert again.result in ("black+yellow", "red+green", "black", "yellow")
        assert len(again.positions) == len(throws) + 1
        assert again.tags == TAGS


def test_the_text_has_the_tags_first_then_one_numbered_line_per_throw() -> None:
    rules = Rules.parse("classic,players=2,last_square=off")
    record = Record.play(rules, random_throws(rules, 1, limit=3), {"Yellow": "computer (hard)", "Site": "x"})
    lines = record.text().splitlines()
    assert lines[:7] == [
        '[Site "x"]',
        '[Rules "classic,last_square=off"]',
        '[Players "2"]',
        '[Pieces "4"]',
        '[Yellow "computer (hard)"]',
        '[Result "*"]',
        '[Termination "unfinished"]',
    ]
    assert lines[7] == ""
    assert [line.split(" ")[0] for line in lines[8:]] == ["1.", "2.", "3."]


def test_a_frozen_game_is_a_draw_by_freezing() -> None:
    rules = Rules.parse("classic,last_square=off")
    for seed in range(40):
        record = Record.play(rules, random_throws(rules, seed))
        if record.termination == "frozen":
            break
    else:
        pytest.fail("no frozen game in 40 random games with last_square off")
    assert record.result == "draw"
    assert read_record(record.text()).final == record.final


def test_the_throw_cap_ends_the_game_as_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_module, "MAX_THROWS", 30)
    rules = Rules()
    throws = random_throws(rules, 5, limit=31)
    record = Record.play(rules, throws[:30])
    assert (record.result, record.termination) == ("draw", "throw_limit")
    assert read_record(record.text()) == record
    with pytest.raises(RecordError, match="throw 31: the game is already over"):
        Record.play(rules, throws)


def test_a_stopped_game_reads_back_with_its_reason() -> None:
    rules = Rules()
    record = Record.play(rules, random_throws(rules, 2, limit=50), stopped="abandoned")
    assert (record.result, record.termination) == ("*", "abandoned")
    assert read_record(record.text()).final == record.final


def test_a_resigned_game_reads_back_with_the_side_that_won() -> None:
    rules = Rules(players=2)
    throws = random_throws(rules, 3, limit=40)
    record = Record.play(rules, throws, resigned=0)  # Black concedes to Yellow
    assert (record.result, record.termination) == ("yellow", "resignation")
    assert '[Result "yellow"]\n[Termination "resignation"]' in record.text()
    assert read_record(record.text()) == record
    for result, words in (("*", "names the side that wins"), ("draw", "names the side that wins")):
        with pytest.raises(RecordError, match=words):
            read_record(record.text().replace('[Result "yellow"]', f'[Result "{result}"]'))
    whole = random_throws(rules, 3)
    with pytest.raises(RecordError, match="ended by win cannot be resigned"):
        Record.play(rules, whole, resigned=0)


def test_notes_are_kept() -> None:
    rules = Rules()
    first, *rest = random_throws(rules, 4, limit=5)
    throws = [Throw(first.seat, first.throw, first.move, "timer"), *rest]
    text = Record.play(rules, throws).text()
    assert "1. black " in text and "{timer}" in text.splitlines()[6]
    assert read_record(text).throws[0].note == "timer"


GOOD = """[Rules "classic"]
[Players "2"]
[Pieces "4"]
[Result "*"]
[Termination "unfinished"]

1. black 3 black:0-1
2. yellow 10 yellow:0-1
3. yellow 4 yellow:1-5
4. black 25 black:0-1
"""


def broken(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        (broken("3. yellow 4 yellow:1-5", "3. black 4 black:1-5"), 9, "yellow's throw, not black's"),
        (broken("3. yellow 4 yellow:1-5", "3. yellow 4 yellow:1-6"), 9, "not legal with a throw of 4"),
        (broken("3. yellow 4 yellow:1-5", "3. yellow 7 yellow:1-8"), 9, "7 is not a throw"),
        (broken("3. yellow 4 yellow:1-5", "3. yellow 4 pass"), 9, "must be played"),
        (broken("3. yellow 4 yellow:1-5", "4. yellow 4 yellow:1-5"), 9, "expected throw number 3"),
        (broken("3. yellow 4 yellow:1-5", "3. purple 4 yellow:1-5"), 9, "not a seat"),
        (broken("3. yellow 4 yellow:1-5", "3 yellow 4 yellow:1-5"), 9, "a throw is written"),
        (broken("4. black 25 black:0-1", '4. black 25 black:0-1\n[Date "x"]'), 11, "tag lines come before"),
        (broken('[Pieces "4"]', '[Pieces "4"]\n[Pieces "3"]'), 4, "Pieces given twice"),
        (broken('[Pieces "4"]', "[Pieces 4]"), 3, "a tag line is written"),
        (broken('[Pieces "4"]', '[Pieces "6"]'), 2, "pieces must be 1-4"),
        (broken('[Rules "classic"]', '[Rules "classic,players=4"]'), 1, "unknown rule option"),
        (broken('[Result "*"]\n', ""), 1, "no Result tag"),
        (broken('[Result "*"]', '[Result "black"]'), 4, "the throws end with the game still going"),
        (broken('[Termination "unfinished"]', '[Termination "win"]'), 5, "not over after throw 4"),
        (broken('[Termination "unfinished"]', '[Termination "resigned"]'), 5, "Termination is one of"),
        (broken('[Pieces "4"]', '[Pieces "4"]\n[Red "Bo"]'), 4, "Red is not a seat in a 2-player game"),
    ],
)
def test_a_broken_record_is_refused_at_its_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert caught.value.line == line, str(caught.value)
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"line {line}: ")


def test_the_good_record_reads() -> None:
    record = read_record(GOOD)
    assert (
        record.final.notation() == "black:0,0,1,1 yellow:0,0,0,5 turn:black captured:- rules:classic"
    )  # 25 is a grace: black again


def test_throws_after_the_end_and_a_wrong_result_are_refused() -> None:
    rules = Rules.parse("classic,players=2,pieces=1")
    throws = random_throws(rules, 9)
    text = Record.play(rules, throws).text()
    lines = text.splitlines()
    winner = Record.play(rules, throws).result
    loser = "yellow" if winner == "black" else "black"
    with pytest.raises(RecordError, match=f"Result says {loser} but the throws end with {winner} winning"):
        read_record(text.replace(f'[Result "{winner}"]', f'[Result "{loser}"]'))
    extra = f"{len(throws) + 1}. {loser} 2 pass"
    with pytest.raises(RecordError) as caught:
        read_record("\n".join([*lines, extra]))
    assert caught.value.line == len(lines) + 1
    assert "the game is already over" in str(caught.value)


def run_replay(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_cli_prints_the_final_position_or_every_position(tmp_path: Path) -> None:
    rules = Rules()
    record = Record.play(rules, random_throws(rules, 6))
    path = tmp_path / "game.txt"
    path.write_text(record.text())
    done = run_replay(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == record.final.notation() + "\n"
    every = run_replay(str(path), "--positions")
    assert every.stdout.splitlines() == [p.notation() for p in record.positions[1:]]
    piped = run_replay("-", stdin=record.text())
    assert piped.stdout == done.stdout


def test_the_cli_names_the_bad_line_and_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(broken("3. yellow 4 yellow:1-5", "3. yellow 4 yellow:1-6"))
    done = run_replay(str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("line 9: yellow:1-6 is not legal with a throw of 4")
    missing = run_replay(str(tmp_path / "nothing.txt"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_the_example_in_the_rules_document_reads() -> None:
    """docs/RULES.md's example, cut at its '...' and marked unfinished, is a legal record."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "RULES.md").read_text()
    section = doc[doc.index("## Game records") :]
    example = section.split("```\n")[1].split("...")[0]
    example = example.replace('[Result "black+yellow"]', '[Result "*"]').replace('"win"', '"unfinished"')
    record = read_record(example)
    assert len(record.throws) == 4 and record.throws[1].note == "timer"
    assert record.tags["Yellow"] == "Ravi (user 7730); computer (normal)"
