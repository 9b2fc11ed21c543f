"""compact.py: the stand-in id a reduction is sized with is as long as a real one."""

from tokenjuice import compact
from tokenjuice.state import artifacts


def test_the_stand_in_id_has_the_length_of_a_real_one():
    # The trailer's hint is part of the size budget: a shorter stand-in would let a
    # reduction grow past its input once the real id replaces it.
    assert len(compact.ID_STAND_IN) == len(artifacts.new_id()) == artifacts.ID_LENGTH
    assert artifacts.is_id(compact.ID_STAND_IN)
