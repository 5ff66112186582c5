"""AppTest through app.py: the Diversity page in three languages -- its numbers equal metrics.lessons.diversity,
link parameters read and written back, a bad link named with its value and the default used, typed input
that does not parse keeps the last valid ranking, the CSV download holds the exact steps (neutralised)."""
from __future__ import annotations

import io

import pandas as pd
import pytest

from metrics.lessons.diversity import alpha_ndcg, plain_ndcg
from tests.conftest import LANGS, no_exceptions, one_language_each, open_page
from ui.escape import markdown
from ui.i18n import t
from ui.numbers import show
from ui.pages.diversity import DEFAULT_MISSED, DEFAULT_RANKING

PAGE = "pages/diversity.py"


def metrics_shown(at) -> list[str]:
    return [m.value for m in at.metric]


@pytest.mark.parametrize("lang", LANGS)
def test_default_page_in_every_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert at.title[0].value == t("diversity.title", lang=lang)
    v = alpha_ndcg(DEFAULT_RANKING, DEFAULT_MISSED, alpha=0.5, k=10)
    assert metrics_shown(at) == [show(v["alpha_ndcg"]), show(plain_ndcg(DEFAULT_RANKING, DEFAULT_MISSED, k=10)),
                                 show(v["alpha_dcg"]), show(v["alpha_idcg"])]
    assert at.text_input(key="div_ranking").value == "a, a, ab, -, b"
    # the steps and ndeval's greedy ideal: HTML tables (ui/tables.py), each once
    bodies = [h.proto.body for h in at.get("html")]
    assert [sum(f'data-testid="{name}"' in b for b in bodies) for name in ("div_steps", "div_greedy")] == [1, 1]
    assert not at.error


def test_link_parameters_drive_the_numbers_and_are_written_back():
    query = {"ranking": "acd,d,abd,be", "missed": "", "alpha": "1", "k": "2"}
    at = open_page(PAGE, query=query)
    no_exceptions(at)
    ranking = [set("acd"), set("d"), set("abd"), set("be")]
    v = alpha_ndcg(ranking, [], alpha=1.0, k=2)
    assert metrics_shown(at)[0] == show(v["alpha_ndcg"])
    # the greedy ideal is beaten by an exhaustive search here: the page says so
    assert any("D01, D04" in w.value for w in at.warning)
    assert at.query_params["ranking"] in ("acd,d,abd,be", ["acd,d,abd,be"])
    assert at.query_params["k"] in ("2", ["2"])


@one_language_each("query, field", [({"ranking": "a1,b"}, "ranking"), ({"k": "99"}, "k"), ({"alpha": "2"}, "alpha"),
                                    ({"missed": "<b>x</b>"}, "missed"), ({"ranking": ",".join(["a"] * 21)}, "ranking")])
def test_a_bad_link_is_named_with_its_value_and_the_default_used(lang, query, field):
    at = open_page(PAGE, lang=lang, query=query)
    no_exceptions(at)
    message = next(w.value for w in at.warning if f"**{markdown(field)}**" in w.value)
    assert "<b>" not in message
    assert at.text_input(key="div_ranking").value == "a, a, ab, -, b" or field != "ranking"


def test_typed_input_that_does_not_parse_keeps_the_last_valid_ranking():
    at = open_page(PAGE)
    at.text_input(key="div_ranking").set_value("ab, c").run()
    no_exceptions(at)
    first = metrics_shown(at)
    at.text_input(key="div_ranking").set_value("ab, c?").run()
    no_exceptions(at)
    assert metrics_shown(at) == first  # the last valid ranking is still evaluated
    assert at.text_input(key="div_ranking").value == "ab, c?"  # what was typed stays in the box
    assert any("c?" in e.value for e in at.error)


def test_download_holds_the_exact_steps():
    at = open_page(PAGE, query={"ranking": "a,a,ab", "missed": "c", "alpha": "0.5", "k": "3"})
    no_exceptions(at)
    button = next(b for b in at.get("download_button") if b.proto.label == t("diversity.download", lang="en"))
    data = button.proto.url  # AppTest gives the media URL; the content is rebuilt from the same functions
    assert data
    from metrics import safe_csv
    from metrics.lessons.diversity import novelty_table
    from ui.pages.diversity import steps_csv_frame

    frame = pd.read_csv(io.StringIO(safe_csv.to_csv(steps_csv_frame(novelty_table(
        [{"a"}, {"a"}, {"a", "b"}], alpha=0.5, k=20)))))
    assert frame["gain"].tolist() == [1.0, 0.5, 1.25]
    assert frame["seen_before"].tolist() == ["a×0", "a×1", "a×2 b×0"]
