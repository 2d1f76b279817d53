from eventlog.events import APSpent, RoundStarted

from conftest import given, pc, refused, rolled, when


def test_r17_spending_more_than_left_refused():
    s = given(pc("rook"), rolled("rook", 5), RoundStarted(round=1))
    s = when(s, APSpent(combatant="rook", cost=2, category="major"))
    message = refused(s, APSpent(combatant="rook", cost=2, category="major"), "R17")
    assert "rook has 1 AP left, cannot spend 2 (R17)" == message
