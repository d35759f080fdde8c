"""native_link's own logic that needs no link: the device ranges one call lends."""

from __future__ import annotations

from omp2gpu.native_link import joined_ranges


def test_overlapping_and_touching_ranges_are_joined_and_an_empty_one_counts_one_byte():
    assert joined_ranges([(100, 8), (104, 8), (200, 0), (112, 4), (300, 4)]) == [(100, 16), (200, 1), (300, 4)]
    assert joined_ranges([(50, 10), (0, 100)]) == [(0, 100)]
    assert joined_ranges([]) == []
