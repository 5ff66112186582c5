"""Rounds stored before an exercise held a :class:`metrics.variant.Variant` still load, in the store too.

Until issue 38 a round's task was stored as the exercise's flat fields: ``gain``, ``discount``, ``log_base``,
``k`` and ``ties`` (None without scores), the IDCG source never stored (every judged item when there were
unretrieved items, else the list).  Now the variant is stored in its spec form.  A class that was running
when the server was upgraded must keep its exercise and its answers' verdicts.
"""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import update

from classroom import db
from classroom.models import rounds
from classroom.store import Store
from classroom.tasks import DIFFICULTIES, EXAMPLE_KEYS, FIELDS, Task, example_task, practice_task, ranking_task

#: Document 003's worked example as the code before this change stored it (copied from a stored row):
#: grades 3 2 3 0 1 2, judged items 3 and 0 not retrieved, k = 6, linear gain, log2(i + 1).
ROW_003 = ('{"decimals": 2, "difficulty": "easy", "discount": "standard", "gain": "linear", '
           '"grades": [3.0, 2.0, 3.0, 0.0, 1.0, 2.0], "k": 6, "labels": ["D1", "D2", "D3", "D4", "D5", "D6"], '
           '"log_base": 2.0, "origin": "example", "ref": "003-blog", "scores": null, "seed": 0, "ties": null, '
           '"unretrieved": [3.0, 0.0]}')
#: A row older still: stored before the exercise's seed and difficulty were kept.
ROW_RANKING = ('{"decimals": 2, "discount": "jarvelin", "gain": "exponential", "grades": [3.0, 2.0, 1.0], '
               '"k": null, "labels": ["D1", "D2", "D3"], "log_base": 10.0, "origin": "ranking", "ref": "", '
               '"scores": null, "ties": null, "unretrieved": []}')


def old_row(task: Task) -> str:
    """What the code before the Variant wrote for ``task`` (its writer, written out here)."""
    ex, v = task.ex, task.ex.variant
    data = {"origin": task.origin, "ref": task.ref, "seed": ex.seed, "difficulty": ex.difficulty,
            "labels": list(ex.labels), "grades": list(ex.grades),
            "scores": None if ex.scores is None else list(ex.scores),
            "ties": None if ex.scores is None else v.ties, "unretrieved": list(ex.unretrieved), "k": v.k,
            "gain": v.gain, "discount": v.discount, "log_base": v.log_base, "decimals": ex.decimals}
    return json.dumps(data, sort_keys=True, allow_nan=False)


def test_hand_written_old_rows_load():
    task = Task.from_json(ROW_003)
    assert task == example_task("003-blog")
    # 003's numbers (see tests/classroom/test_store.py): DCG 6.8611, IDCG 8.3841 (every judged item), NDCG 0.8184
    sol = task.exercise().solution()
    assert (round(sol["dcg"], 4), round(sol["idcg"], 4), round(sol["ndcg"], 4)) == (6.8611, 8.3841, 0.8184)
    old = Task.from_json(ROW_RANKING)
    assert old == ranking_task([3, 2, 1], gain="exponential", discount="jarvelin", log_base=10)
    assert old.ex.variant.idcg == "list" and old.ex.variant.k is None


@given(seed=st.integers(0, 2**32 - 1), difficulty=st.sampled_from(sorted(DIFFICULTIES)))
def test_every_old_practice_row_loads_as_the_same_exercise(seed, difficulty):
    task = practice_task(seed, difficulty)
    assert Task.from_json(old_row(task)) == task
    assert Task.from_json(task.to_json()) == task


@pytest.mark.parametrize("key", EXAMPLE_KEYS)
def test_every_old_example_row_loads(key):
    task = example_task(key)
    assert Task.from_json(old_row(task)) == task


@pytest.mark.parametrize("answers", [{"dcg": "6.86", "ndcg": "0.82"}, {"dcg": "6.83", "idcg": "7.14"}])
def test_an_old_round_in_the_store_gives_the_same_verdicts(db_url, answers):
    """A round whose stored task is the old form: the store reads it, and answers get the verdicts the
    exercise gives today."""
    store = Store(db_url)
    info, _ = store.create(example_task("003-blog"), fields=FIELDS)
    with db.write(store.engine) as conn:
        conn.execute(update(rounds).where(rounds.c.session_id == info.id).values(task=ROW_003))
    stored = store.round(info.id)
    assert stored.task == example_task("003-blog")
    assert stored.task.check(answers) == example_task("003-blog").check(answers)
