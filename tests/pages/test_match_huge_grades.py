"""Which convention? with grades whose exponential gains leave decimal's 28 digits or overflow when scaled:
found by the page fuzzer (one grade 74.0 -> InvalidOperation in the rounding explanations; 1023 -> OverflowError in
the near misses' truncation check)."""
from __future__ import annotations

import pytest

from tests.conftest import no_exceptions, open_page


@pytest.mark.parametrize("grades", ["74.0", "1023", "1023 1023 1023", "500 2", "74 3 2"])
@pytest.mark.parametrize("value", ["0.91", "1e308", "81.86%"])
def test_huge_grades_never_break_the_page(grades, value):
    at = open_page("pages/match.py", query={"rels": grades, "value": value})
    no_exceptions(at)
    at.text_area(key="mt_rels").input(grades + " 1").run()
    no_exceptions(at)
