"""Every link parameter of the five NDCG pages (from their ui.state fields), through app.py: a hostile or
odd value never crashes, is named in a warning with the value shown as text, and leaves the link; the
page keeps working with the default."""
from __future__ import annotations

import pytest

from tests.conftest import no_exceptions, open_page
from tests.pages.test_fuzz import kept_values
from ui import links
from ui.i18n import t
from ui.pages import check, practice, variants, worked_examples

PAGES = {
    "pages/playground.py": links.FIELDS,
    "pages/worked_examples.py": worked_examples.FIELDS,
    "pages/variants.py": variants.FIELDS,
    "pages/check.py": check.FIELDS,
    "pages/practice.py": practice.FIELDS,
}


def page_name(script: str) -> str:
    return "playground" if script.endswith("playground.py") else script.split("/")[-1][:-3]


# Unicode digits (isdigit() accepts them), a 4,301-digit number, Markdown that would fetch an image, maths,
# a control character.
BAD = ["፩", "9" * 4301, "![](//evil.example/a.png)", "$\\huge PWN$", "\x00"]
CASES = [(script, value) for script in PAGES for value in BAD]


@pytest.mark.parametrize("script, value", CASES,
                         ids=[f"{s.split('/')[-1][:-3]}-{i % len(BAD)}" for i, (s, _) in enumerate(CASES)])
def test_hostile_values_are_named_and_dropped(script, value):
    # every link parameter of the page gets the value at once: ui.state reads each field on its own, so one
    # run checks them all (each named in its own warning, or accepted and kept in the link)
    params = [f.param for f in PAGES[script] if f.param]
    at = open_page(script, query={param: value for param in params})
    no_exceptions(at)
    assert [s.key for s in at.sidebar.segmented_control] == ["lang"]  # through app.py
    warnings = [w.value for w in at.warning]
    texts = " ".join(warnings + [m.value for m in at.markdown] + [c.value for c in at.caption])
    assert "![](" not in texts and "$\\huge" not in texts  # shown as text, never as markup
    for param in params:
        marker = "**" + param.replace("_", "\\_") + "**"  # how ui.state names a link parameter
        named = any(w.startswith(marker) for w in warnings)
        # a refused value is named in a warning; one the page accepts stays in the link (normalised: a label
        # is shortened to one line of 60 characters); a refused seed is replaced by a freshly dealt one
        if not named and param not in at.query_params:
            # accepted, but the link cannot hold several 4,301-character values (8,000 at most): the page
            # says so and keeps the value in its state
            f = next(f for f in PAGES[script] if f.param == param)
            assert t("common.link_too_long") in [i.value for i in at.info], (param, value, warnings)
            assert kept_values(at, page_name(script))[f.key] == f.parse(value), (param, value)
            continue
        if named and param != "seed":
            assert param not in at.query_params or at.query_params[param] not in (value, [value])
