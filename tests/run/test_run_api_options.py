"""``triplebench.run()`` takes the scorer options ``triplebench run`` takes: each reaches the tasks whose
scorer uses it, a bad value or one no chosen task uses is refused before the model is asked anything."""

from __future__ import annotations

import pytest

import triplebench
from triplebench.errors import InputError
from triplebench.task_lookup import find_tasks

pytestmark = pytest.mark.data


class Recorder:
    """A model from training code that records what it was asked (and extracts nothing)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def __call__(self, texts):
        self.asked.extend(texts)
        return [[] for _ in texts]


def test_a_scorer_option_reaches_the_tasks_that_use_it(built):
    genres, carb = find_tasks(["genres/cdr", "carb"], options={"judge_concurrency": 4, "judge_timeout": 5})
    assert dict(genres.settings) == {"judge_concurrency": 4, "judge_timeout": 5}
    assert dict(carb.settings) == {}


@pytest.mark.parametrize(("options", "named"), [
    ({"judge_concurrency": 0}, "judge_concurrency"),  # below its minimum
    ({"judge_timeout": "soon"}, "judge_timeout"),  # not a number
])
def test_a_bad_value_is_refused_before_anything_is_asked(built, options, named):
    model = Recorder()
    with pytest.raises(InputError) as refused:
        triplebench.run(model, "genres/cdr", quiet=True, **options)
    assert named in str(refused.value)
    assert model.asked == []


def test_an_option_no_chosen_task_uses_is_refused_before_anything_is_asked(built):
    model = Recorder()
    with pytest.raises(InputError, match="minilm_dir.*a run with a task that uses it"):
        triplebench.run(model, "carb", quiet=True, minilm_dir="/nowhere")
    assert model.asked == []
