"""Every card's Python example runs as written (from the project root, offline), and prints
the numbers its comments say it prints (``print(x)  # 0.888..., 1.0``)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from triplebench.registry import BENCHMARKS, load

ROOT = Path(__file__).resolve().parents[2]


def examples(benchmark: str) -> str:
    card = (ROOT / "metrics" / benchmark / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", card, flags=re.S)
    assert blocks, f"metrics/{benchmark}/README.md has no runnable Python example"
    return "\n".join(blocks)


def run_example(code: str, where: str) -> str:
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{where} example failed:\n{done.stdout}\n{done.stderr[-3000:]}"
    return done.stdout


# -- what a card says its example prints -----------------------------------------------------------

MARK = "@@card-print-{}@@"
#: a number as a card writes it: 1, 0.5, 1e-06, and "0.888..." for a truncated one
NUMBER = r"-?\d+(?:\.\d+)?(?:e-?\d+)?(?:\.\.\.)?"
#: a comment that states printed numbers: only numbers up to its end, a ':' or a word ("# 0.9937...: not 1, ...")
CLAIM = re.compile(rf"\s*({NUMBER}(?:\s*,?\s*{NUMBER})*)\s*(?:$|:|\s+\D)")


def claims(code: str) -> list[tuple[int, str, str]]:
    """(line index, line, claim) of every top-level ``print(`` line whose comment (on the line, or
    the comment-only lines right below it) starts with numbers or a Python literal."""
    lines = code.splitlines()
    out = []
    for i, line in enumerate(lines):
        if not line.startswith("print("):
            continue
        comment = line.split("#", 1)[1].strip() if "#" in line else ""
        j = i + 1
        while not comment and j < len(lines) and lines[j].lstrip().startswith("#"):
            comment = lines[j].lstrip()[1:].strip()
            j += 1
        if comment.startswith(("{", "[")):
            try:
                ast.literal_eval(comment)
            except (ValueError, SyntaxError):
                continue
            out.append((i, line, comment))
        elif match := CLAIM.match(comment):
            out.append((i, line, match.group(1)))
    return out


def instrument(code: str) -> str:
    """The code with a marker line printed before every top-level print, so its output can be told apart."""
    return "\n".join(f"print({MARK.format(i)!r})\n{line}" if line.startswith("print(") else line
                     for i, line in enumerate(code.splitlines()))


def printed_by(stdout: str, index: int) -> str:
    after = stdout.split(MARK.format(index) + "\n", 1)
    assert len(after) == 2, f"no output marker for line {index}"
    return re.split(r"@@card-print-\d+@@\n", after[1], maxsplit=1)[0].strip()


def agrees(claim: str, printed: str) -> bool:
    """A literal claim equals the printed literal; numbers pairwise: "0.888..." is a prefix of the printed
    digits, any other number is the printed value rounded to the digits the card shows."""
    if claim.startswith(("{", "[")):
        try:
            return ast.literal_eval(printed) == ast.literal_eval(claim)
        except (ValueError, SyntaxError):
            return False
    want = re.findall(NUMBER, claim)
    got = re.findall(r"-?\d+(?:\.\d+)?(?:e-?\d+)?", printed)
    if len(want) != len(got):
        return False
    for w, g in zip(want, got):
        if w.endswith("..."):
            if not g.startswith(w[:-3]):
                return False
            continue
        decimals = len(w.split(".")[1]) if "." in w and "e" not in w else 0
        if "e" in w or "e" in g:
            if float(g) != float(w):
                return False
        elif abs(float(g) - float(w)) > 0.5 * 10 ** -decimals + 1e-12:
            return False
    return True


@pytest.mark.parametrize(
    "code, expected",
    [
        ('print(a, b)   # 0.888..., 1.0', ["0.888..., 1.0"]),
        ('print(x)\n# 0.9937...: not 1, as in the reference: 19 sentences', ["0.9937..."]),
        ('print(c["tp"], c["fp"])       # 1 1', ["1 1"]),
        ("print(cov)         # {'placed': 1, 'total': 1}", ["{'placed': 1, 'total': 1}"]),
        ('print(p)           # 1.0: facet C ignores slot boundaries', ["1.0"]),
        ('print(out["scores"])   # precision, recall, f1 as fractions', []),
        ('x = 1   # 0.5', []),
        ('print(a)   # 0.488', ["0.488"]),
    ],
)
def test_claims_are_read_from_the_comments(code, expected):
    assert [c for _, _, c in claims(code)] == expected


@pytest.mark.parametrize(
    "claim, printed, ok",
    [
        ("0.888..., 1.0", "0.8888888888888888 1.0", True),
        ("0.888..., 1.0", "0.8878888888888888 1.0", False),
        ("0.888..., 1.0", "0.8888888888888888 0.5", False),
        ("1 1", "1 1", True),
        ("1 1", "1 2", False),
        ("1 1", "1", False),
        ("0.488", "0.48812", True),
        ("0.488", "0.4871", False),
        ("{'placed': 1, 'total': 1}", "{'placed': 1, 'total': 1}", True),
        ("{'placed': 1, 'total': 1}", "{'placed': 1, 'total': 2}", False),
    ],
)
def test_a_claim_agrees_only_with_what_it_says(claim, printed, ok):
    assert agrees(claim, printed) is ok


@pytest.mark.parametrize("name", BENCHMARKS)
def test_metric_card_example_runs(name: str, built: Path) -> None:
    code = examples(name)
    stdout = run_example(instrument(code), f"metrics/{name}/README.md")
    wrong = [(line, claim, printed_by(stdout, i)) for i, line, claim in claims(code)
             if not agrees(claim, printed_by(stdout, i))]
    assert not wrong, f"metrics/{name}/README.md prints other numbers than its comments say: {wrong}"


DATASET_CARDS_WITH_CODE = [
    name for name in BENCHMARKS if "```python" in (ROOT / "datasets" / name / "README.md").read_text(encoding="utf-8")
]


@pytest.mark.parametrize("name", DATASET_CARDS_WITH_CODE)
def test_dataset_card_example_runs(name: str, built: Path) -> None:
    card = (ROOT / "datasets" / name / "README.md").read_text(encoding="utf-8")
    run_example("\n".join(re.findall(r"```python\n(.*?)```", card, flags=re.S)), f"datasets/{name}/README.md")


# -- what the cards say about input checks is what the modules do (issue 29) -----------------------

#: per module: one bad example per input column, and the (source, example number, field) it must name
BAD_EXAMPLES = {
    "carb": ({"predictions": [{"sentence": "A .", "confidence": 1.0, "predicate": "b", "arguments": "A CEN"}]},
             ("<predictions>", 1, "arguments")),
    "benchie": ({"predictions": [{"sent_id": "1", "subject": "a", "relation": "b", "object": None}]},
                ("<predictions>", 1, "object")),
    "combo": ({"predictions": ["a", None], "references": [["Q1"], ["Q1"]], "subtask": "npc_e_subj"},
              ("<predictions>", 2, "predictions")),
    "genres": ({"predictions": [["aspirin", "treats", "headache"]], "texts": ["Aspirin treats headache."]},
               ("<predictions>", 1, "predictions/0")),
    # ROBUST declares no reader schema in its spec: the features' check alone still names record and field
    "robust": ({"predictions": [{"clique_id": "x", "sentence": "a .", "confidence": 1.0, "predicate": "b",
                                 "arguments": ["a"]}]}, ("<predictions>", 1, "clique_id")),
}


@pytest.mark.parametrize("name", BENCHMARKS)
def test_metric_card_names_the_schemas_its_module_checks(name: str) -> None:
    card = " ".join((ROOT / "metrics" / name / "README.md").read_text(encoding="utf-8").split())
    spec = load(name).metric
    for schema in spec.schemas.values():
        assert f"schemas/{schema}.schema.json" in card, f"metrics/{name}/README.md does not name {schema}"
    assert "checked before `evaluate` stores" in card and "`InputError`" in card


@pytest.mark.parametrize("name", list(BAD_EXAMPLES))
def test_module_refuses_a_bad_example_by_number_and_field(name: str, built: Path, monkeypatch) -> None:
    import evaluate

    from triplebench.errors import InputError

    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    kwargs, where = BAD_EXAMPLES[name]
    module = evaluate.load(f"metrics/{name}", "cdr") if name == "genres" else evaluate.load(f"metrics/{name}")
    with pytest.raises(InputError) as err:
        module.compute(**kwargs)
    assert (err.value.source, err.value.line, err.value.field) == where
