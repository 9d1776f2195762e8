"""One CaRB scorer scoring from many threads at once gives each thread the sequential numbers
(``carb.score`` shares one scorer per process, and its encoder learns every new text)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from conftest import upstream_file
from triplebench.benchmarks.carb import EncodedGold
from triplebench.location import DataLocation
from triplebench.openie.formats import read_predictions

DEFAULT_MATCHER = "binary_linient_tuple_match"

SYSTEMS = ("openie4", "openie5", "clausie", "props")


def test_threads_sharing_a_scorer_get_the_sequential_scores(built, frequent_thread_switches):
    inputs = [read_predictions(upstream_file("dair-iitd/CaRB", f"system_outputs/test/{name}_output.txt"), name)[0]
              for name in SYSTEMS]
    expected = [EncodedGold("test", DEFAULT_MATCHER, False, DataLocation.default()).score(rows).to_dict() for rows in inputs]
    for _ in range(3):
        shared = EncodedGold("test", DEFAULT_MATCHER, False, DataLocation.default())  # a fresh encoder: all four systems' texts are new to it at once
        with ThreadPoolExecutor(len(inputs)) as pool:
            assert [result.to_dict() for result in pool.map(shared.score, inputs)] == expected
