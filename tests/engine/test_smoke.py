from engine import Position


def test_initial_position_offers_entry_on_any_throw() -> None:
    assert [str(m) for m in Position.initial().legal_moves(3)] == ["black:0-1"]
