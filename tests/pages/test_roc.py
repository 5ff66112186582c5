"""AppTest: the ROC & AUC page in three languages, the step slider, bad input, bad and good links."""
from __future__ import annotations

import json

import pytest

from metrics.other.roc import AUC_METHODS, auc, pair_counts, parse_binary_labels, rank_loss, roc_steps
from metrics.parse import parse_numbers
from tests.conftest import LANGS, latex, no_exceptions, one_language_each, open_page, texts
from ui.escape import markdown
from ui.i18n import catalogue, t
from ui.numbers import show_trimmed as fmt
from ui.pages.roc import MAX_SAMPLES, samples_text

PAGE = "pages/roc.py"


def data(at):
    return parse_numbers(at.session_state["roc_scores"]), parse_binary_labels(at.session_state["roc_labels"])


def bad(lang: str, name: str, value: str, reason: str, **fmt) -> str:
    """The message ui.state shows for a bad value: parameter, value (escaped, shortened), what is allowed."""
    fmt = {k: markdown(v, 40) if isinstance(v, str) else v for k, v in fmt.items()}
    return t("state.bad_value", lang=lang, name=markdown(name, 40), value=markdown(value, 40),
             reason=t(reason, lang=lang, **fmt))


@pytest.mark.parametrize("lang", LANGS)
def test_default_page_every_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exceptions(at)
    assert not at.error and not at.warning
    assert at.title[0].value == t("roc.title", lang=lang)
    scores, labels = data(at)
    value = auc(scores, labels)
    assert texts(at, "success") == [t("roc.equal", lang=lang, value=fmt(value))]
    body = latex(at)
    assert f"= {fmt(value)}" in body and f"= {fmt(rank_loss(scores, labels))}" in body
    c = pair_counts(scores, labels)
    assert f"\\frac{{{c['wrong']} + \\frac{{1}}{{2}} \\times {c['ties']}}}" in body
    # slider starts at the last step, i.e. the whole curve
    steps = roc_steps(scores, labels)
    assert at.slider(key="roc_step").value == len(steps) - 1
    assert at.metric[0].value == fmt(value)
    charts = at.get("vega_lite_chart")
    assert len(charts) == 2
    assert all("tooltip" in chart.proto.spec for chart in charts)
    # the two AUC methods are named from metrics.other.roc.AUC_METHODS (English written once there)
    names = [m.value for m in at.markdown if m.value.startswith("**")]
    for key, method in AUC_METHODS.items():
        name = method.name if lang == "en" else catalogue(lang)[f"registry.auc_method.{key}.name"]
        assert f"**{name}**" in names


@pytest.mark.parametrize("lang", LANGS)
def test_slider_steps_through_the_thresholds(lang):
    at = open_page(PAGE, lang=lang)
    scores, labels = data(at)
    steps = roc_steps(scores, labels)
    at.slider(key="roc_step").set_value(0).run()
    assert texts(at, "info") == [t("roc.explain_start", lang=lang)]
    assert at.metric[0].value == "0"
    for step in range(1, len(steps)):
        at.slider(key="roc_step").set_value(step).run()
        no_exceptions(at)
        row = steps.iloc[step]
        assert at.metric[0].value == fmt(row["auc_so_far"])
        info = texts(at, "info")[0]
        assert info.startswith(t(f"roc.explain_{row['move']}", lang=lang, threshold=fmt(row["threshold"]),
                                 samples=samples_text(row["samples"]), pos=int(row["new_pos"]),
                                 neg=int(row["new_neg"]), tp=int(row["tp"]), fp=int(row["fp"]),
                                 tpr=fmt(row["tpr"]), fpr=fmt(row["fpr"]), area=fmt(row["area"]))[:12])
        spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
        assert f"(datum.step === {step})" in json.dumps(spec) or f"datum.step === {step}" in json.dumps(spec)
        assert at.query_params["step"] == str(step)
    # the default data has a tied positive/negative pair: one diagonal step
    assert "diagonal" in set(steps["move"])


@one_language_each("scores, labels, key, name, value, reason, fields", [
    ("0.9 0.1 0.5", "1 0 2", "roc_labels", "roc.labels_name", "1 0 2", "roc.reason.not_a_label",
     {"token": "2", "position": 3}),
    ("0.9 0.1 0.5", "1 0 x", "roc_labels", "roc.labels_name", "1 0 x", "state.reason.parse_not_a_number",
     {"token": "x", "position": 3}),
    ("0.9 abc 0.5", "1 0 1", "roc_scores", "roc.scores_name", "0.9 abc 0.5", "state.reason.parse_not_a_number",
     {"token": "abc", "position": 2}),
    ("0.9 0.1 0.5", "1 " * (MAX_SAMPLES + 1), "roc_labels", "roc.labels_name", "1 " * (MAX_SAMPLES + 1),
     "state.reason.too_many", {"n": MAX_SAMPLES + 1, "max": MAX_SAMPLES}),
    ("0.9 0.1 0.5", "", "roc_labels", "roc.labels_name", "", "state.reason.empty", {}),
], ids=["not-a-label", "labels-not-a-number", "scores-not-a-number", "too-many-labels", "empty-labels"])
def test_bad_tokens_named(lang, scores, labels, key, name, value, reason, fields):
    at = open_page(PAGE, lang=lang)
    before = latex(at)
    at.text_area(key="roc_scores").input(scores).run()
    at.text_area(key="roc_labels").input(labels).run()
    no_exceptions(at)
    # the bad field's message comes first (the other box may then not match the last valid one)
    assert texts(at, "error")[0] == bad(lang, t(name, lang=lang), value, reason, **fields)
    assert t("state.kept_last_valid", lang=lang) in texts(at, "caption")
    assert latex(at) == before
    assert at.text_area(key=key).value == value


@pytest.mark.parametrize("lang", LANGS)
def test_unequal_lengths_and_one_class(lang):
    at = open_page(PAGE, lang=lang)
    at.text_area(key="roc_labels").input("1 0").run()
    no_exceptions(at)
    assert texts(at, "error") == [t("roc.unequal", lang=lang, scores=10, labels=2)]
    at.text_area(key="roc_scores").input("0.3 0.2").run()
    at.text_area(key="roc_labels").input("1 1").run()
    no_exceptions(at)
    assert texts(at, "error") == [t("roc.one_class", lang=lang, missing=t("roc.negative", lang=lang))]
    at.text_area(key="roc_labels").input("1 0").run()
    no_exceptions(at)
    assert not at.error
    assert texts(at, "success") == [t("roc.equal", lang=lang, value="1")]


def test_link_parameters_are_read_and_written():
    at = open_page(PAGE, query={"scores": "0.8,0.8,0.1", "labels": "1,0,0", "step": "1"})
    no_exceptions(at)
    assert not at.warning
    assert at.slider(key="roc_step").value == 1
    assert at.info[0].value.startswith(t("roc.explain_diagonal", threshold="0.8", samples="1, 2", pos=1, neg=1, tp=1,
                                         fp=1, tpr="1", fpr="0.5", area="0.25", lang="en"))
    # AUC: pair (0.8, 0.8) ties, (0.8, 0.1) right: (1/2 + 1) / 2 = 0.75
    assert texts(at, "success") == [t("roc.equal", lang="en", value="0.75")]
    assert at.query_params["scores"] == "0.8,0.8,0.1" and at.query_params["labels"] == "1,0,0"


@one_language_each("step, reason, fields", [
    ("x", "state.reason.integer", {"lo": 0, "hi": MAX_SAMPLES}),
    ("-1", "state.reason.range", {"lo": 0, "hi": MAX_SAMPLES}),
    ("³", "state.reason.integer", {"lo": 0, "hi": MAX_SAMPLES}),
    ("9" * 4301, "state.reason.integer", {"lo": 0, "hi": MAX_SAMPLES}),
    ("99", "state.reason.range", {"lo": 0, "hi": 9}),  # the default data's curve has steps 0 to 9
], ids=["letters", "negative", "superscript", "4301-digits", "beyond-curve"])
def test_bad_step_in_link(lang, step, reason, fields):
    at = open_page(PAGE, lang=lang, query={"step": step})
    no_exceptions(at)
    said = bad(lang, "step", step, reason, **fields)
    # a Chinese sentence ends with a full-width stop, and no space follows one
    assert texts(at, "warning") == [said + ("" if said.endswith("。") else " ") + t("state.default_used", lang=lang)]
    scores, labels = data(at)
    assert at.slider(key="roc_step").value == len(roc_steps(scores, labels)) - 1


def test_bad_data_in_link_shows_message_not_crash():
    at = open_page(PAGE, query={"scores": "1,2,3", "labels": "1,0,7"})
    no_exceptions(at)
    assert texts(at, "warning") == [bad("en", "labels", "1,0,7", "roc.reason.not_a_label", token="7", position=3) +
                                    " " + t("state.default_used", lang="en")]
    assert at.success  # the default data is shown meanwhile
    assert "labels" not in at.query_params


def test_many_pairs_skip_the_grid():
    scores = " ".join(str(i) for i in range(80))
    labels = " ".join(str(i % 2) for i in range(80))
    at = open_page(PAGE)
    at.text_area(key="roc_scores").input(scores).run()
    at.text_area(key="roc_labels").input(labels).run()
    no_exceptions(at)
    assert len(at.get("vega_lite_chart")) == 1
    assert t("roc.too_many_pairs", lang="en", pairs=1600, limit=900) in texts(at, "caption")


def test_state_survives_leaving_the_page_and_link_is_exact():
    at = open_page(PAGE)
    at.text_area(key="roc_scores").input("0.123456789, 0.5, 0.2").run()
    at.text_area(key="roc_labels").input("1 0 1").run()
    at.slider(key="roc_step").set_value(1).run()
    at.switch_page("pages/rating.py").run()
    at.switch_page(PAGE).run()
    no_exceptions(at)
    assert at.text_area(key="roc_scores").value == "0.123456789, 0.5, 0.2"
    assert at.slider(key="roc_step").value == 1
    assert (at.query_params["scores"], at.query_params["labels"], at.query_params["step"]) == (
        "0.123456789,0.5,0.2", "1,0,1", "1")


def test_huge_and_tiny_scores():
    at = open_page(PAGE, query={"scores": "1e308,-1e308,1e-300", "labels": "1,0,0"})
    no_exceptions(at)
    assert texts(at, "success") == [t("roc.equal", lang="en", value="1")]
