"""Every link parameter of the five NDCG pages (from their ui.state fields), through app.py: a hostile or
odd value never crashes, is named in a warning with the value shown as text, and leaves the link; the
page keeps working with the default."""
from __future__ import annotations

import pytest

from tests.conftest import no_exceptions, open_page
from ui import check, links, practice, variants, worked_examples

PAGES = {
    "pages/playground.py": links.FIELDS,
    "pages/worked_examples.py": worked_examples.FIELDS,
    "pages/variants.py": variants.FIELDS,
    "pages/check.py": check.FIELDS,
    "pages/practice.py": practice.FIELDS,
}
PARAMS = [(script, f.param) for script, fields in PAGES.items() for f in fields if f.param]
# Unicode digits (isdigit() accepts them), a 4,301-digit number, Markdown that would fetch an image, maths,
# a control character.
BAD = ["፩", "9" * 4301, "![](//evil.example/a.png)", "$\\huge PWN$", "\x00"]


@pytest.mark.parametrize("script, param", PARAMS, ids=[f"{s.split('/')[-1][:-3]}-{p}" for s, p in PARAMS])
def test_hostile_values_are_named_and_dropped(script, param):
    for value in BAD:
        at = open_page(script, query={param: value})
        no_exceptions(at)
        assert [s.key for s in at.sidebar.selectbox] == ["lang"]  # through app.py
        warnings = [w.value for w in at.warning]
        texts = " ".join(warnings + [m.value for m in at.markdown] + [c.value for c in at.caption])
        assert "![](" not in texts and "$\\huge" not in texts  # shown as text, never as markup
        named = any(param.replace("_", "\\_") in w for w in warnings)
        # a refused value is named in a warning; one the page accepts stays in the link (normalised: a label
        # is shortened to one line of 60 characters); a refused seed is replaced by a freshly dealt one
        assert named or param in at.query_params, (param, value, warnings)
        if named and param != "seed":
            assert param not in at.query_params or at.query_params[param] not in (value, [value])
