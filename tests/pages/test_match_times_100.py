"""Both "which number" pages (AppTest through app.py) in every language: an NDCG ×100 written without its %
sign is said as such — Which convention gives my number? (the tester's 81.84 for the default ranking) and Run
files' Where did this number come from? (a sample run's trec_eval mean ×100 at 1 decimal); a percent's
decimals are said as written."""
from __future__ import annotations

from pathlib import Path

import pytest

from metrics.lessons.libraries import LIBRARIES
from metrics.runfiles import evaluate_measures, read_qrels, read_run
from tests.conftest import LANGS, no_exceptions, open_page
from ui import escape
from ui.i18n import MISSING_KEYS, t

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"
CUT = "\x00"


def before(key: str, lang: str, **fmt) -> str:
    """A translated sentence up to its ``{conventions}`` (the names are checked elsewhere)."""
    return t(key, lang=lang, conventions=CUT, **fmt).split(CUT)[0]


@pytest.mark.parametrize("lang", LANGS)
def test_which_convention_names_81_84_as_trec_eval_times_100(lang):
    # the default ranking 3, 2, 3, 0, 1, 2 with 3, 0 not retrieved, k = 6: trec_eval's NDCG is
    # 6.86112 / 8.38406 = 0.818354 (tests/metrics/lessons/test_match_times_100.py derives it)
    at = open_page("pages/match.py", lang=lang, query={"value": "81.84"})
    no_exceptions(at)
    assert not at.error and not MISSING_KEYS
    body = "\n".join(m.value for m in at.markdown)
    assert t("match.no_explanation", lang=lang) not in " ".join(i.value for i in at.info)
    first = next(line for line in body.splitlines() if line.startswith("- 81.84"))  # the Most likely list's first
    assert first.startswith("- " + before("match.explain_times_100_rounded", lang, typed="81.84", exact="0.818354",
                                          hundred="81.8354", p=2)), first
    for key in ("trec_eval_ndcg_cut", "ranx_ndcg"):
        assert t("match.lib_sentence_times_100", lang=lang, library=escape.markdown(LIBRARIES[key].short, 0),
                 k=t("match.with_k", lang=lang, k=6), value="0.818354", hundred="81.8354") in body, key
    captions = " ".join(c.value for c in at.caption)
    assert t("match.precision", lang=lang, value="81.84", decimals=2, lo="81.835", hi="81.845") in captions
    assert t("match.precision_times_100", lang=lang, fraction="0.8184", lo="0.81835", hi="0.81845") in captions


@pytest.mark.parametrize("lang", LANGS)
def test_which_convention_says_a_percents_decimals_as_written(lang):
    at = open_page("pages/match.py", lang=lang, query={"value": "81.8%"})
    no_exceptions(at)
    captions = " ".join(c.value for c in at.caption)
    assert t("match.precision_percent_one", lang=lang, value=escape.markdown("81.8%", 0), decimals=1,
             fraction="0.818", lo="0.8175", hi="0.8185") in captions
    assert t("match.precision_times_100", lang=lang, fraction="0.818", lo="0.8175", hi="0.8185") not in captions
    explained = [line for m in at.markdown for line in m.value.splitlines() if line.startswith("- 81.8%")]
    assert explained and not any("×100" in line for line in explained)  # with its sign: a percent, as before


def trec_eval_mean(run: str, k: int = 10) -> float:
    """trec_eval's ndcg_cut mean of a sample run, from the engine's trec_eval measures (not the match code)."""
    frame = evaluate_measures(read_qrels((SAMPLES / "qrels.txt").read_bytes()).table,
                              [read_run((SAMPLES / run).read_bytes(), name=run).table], [f"ndcg_cut.{k}"])
    return float(frame[(frame.qid == "all")]["value"].iloc[0])


@pytest.mark.parametrize("lang", LANGS)
def test_run_files_finds_a_mean_times_100(lang):
    mean = trec_eval_mean("bm25.run")
    typed = f"{100 * mean:.1f}"
    at = open_page("pages/run_files.py", lang=lang, query={"match": typed})
    no_exceptions(at)
    assert not at.error and not MISSING_KEYS
    body = " ".join(m.value for m in at.markdown)
    assert t("run_match.library_times_100_one", lang=lang, library="trec\\_eval 9.0.8", mean=f"{mean:.6f}", n=6,
             hundred=f"{100 * mean:.4f}", p=1, value=typed,
             call=escape.markdown("trec_eval -m ndcg_cut.10 qrels run", 0)) in body
    assert t("run_match.no_library", lang=lang, value=typed) not in " ".join(i.value for i in at.info)
    captions = " ".join(c.value for c in at.caption)
    fraction = f"{float(typed) / 100:.3f}"
    assert t("run_match.precision_times_100_one", lang=lang, value=typed, decimals=1, fraction=fraction,
             lo=f"{float(typed) / 100 - 0.0005:.4f}", hi=f"{float(typed) / 100 + 0.0005:.4f}") in captions
    # the families of settings say the mean ×100 too
    assert t("run_match.family_times_100", lang=lang, settings=CUT, mean=f"{mean:.6f}",
             hundred=f"{100 * mean:.4f}").split(CUT)[1] in body
