"""A sixth benchmark is exactly the README's recipe ("Add a benchmark"): its folder, its data files, its
two test inputs, one registry entry and the rewritten ``dvc.yaml``.

``template/`` is a toy benchmark laid out like the others: its folder
``src/triplebench/benchmarks/toy/`` (``__init__.py`` declaring ``BENCHMARK``, ``pins.toml``,
``formats.py``, ``build.py``), its record schema ``schemas/toy/``, its result schema
``schemas/results/toy.schema.json``, its card ``datasets/toy/README.md``, its evaluate module
``metrics/toy/``, its contract input ``tests/toy/contract_input.py``, and the upstream file it pins.
The test copies the project's code and pipeline files into a scratch project, adds the template and
one line to :data:`triplebench.registry.TABLE` (asserted to be the only edit of an existing file),
rewrites ``dvc.yaml`` with ``tests/pipeline/lineage.py`` (the toy's stages and their lineage, nothing
else), and then uses the toy through every door a benchmark has: the DVC pipeline
(``fetch@toy -> build@toy -> validate@toy``), the API and the cross-benchmark contract (its input
scored, the result valid against its schema), the CLI, the evaluate module, ``compare``, the summary,
the release tree, ``download``'s choices, the report index and ``report --add``. Anything that still
names the benchmarks by hand makes one of these fail. (The recipe's ``tests/<b>/fuzz_inputs.py`` is
read by the fuzz suite only; the toy has none.)
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

#: a scratch copy of the project with a sixth benchmark, its pipeline and release: the slow tier
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = Path(__file__).resolve().parent / "template"
ENTRY = ('    "toy": {"title": "Toy", "selectors": ["split"], "unit": "sentence", "main_score": "f1",'
         ' "headline": ["precision", "recall", "f1"], "percent": False, "decimals": 3},\n')
PREDICTIONS = [
    {"sent_id": "1", "subject": "Paris", "relation": "is capital of", "object": "France"},
    {"sent_id": "2", "subject": "Ada", "relation": "wrote", "object": "a program"},
    {"sent_id": "3", "subject": "Rain", "relation": "falls in", "object": "Spain"},
]


def _copy_tracked(dest: Path) -> None:
    tracked = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                              "src", "schemas", "metrics", "dvc.yaml", "params.yaml", ".dvc/config", ".dvcignore",
                              "tests/pipeline/closure.py", "tests/pipeline/lineage.py"],
                             cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    for rel in filter(None, tracked):
        if (ROOT / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / rel, dest / rel)


def _add_registry_entry(registry: Path) -> list[str]:
    """Insert :data:`ENTRY` as the last entry of ``TABLE``; the unified diff's changed lines."""
    before = registry.read_text(encoding="utf-8")
    start = before.index("\nTABLE = {")
    end = before.index("\n}\n", start)
    after = before[: end + 1] + ENTRY + before[end + 1:]
    registry.write_text(after, encoding="utf-8")
    diff = difflib.unified_diff(before.splitlines(True), after.splitlines(True), n=0)
    return [line for line in diff if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The scratch project with the toy benchmark added, and its dataset built through DVC."""
    dest = tmp_path_factory.mktemp("sixth") / "project"
    _copy_tracked(dest)
    changed = _add_registry_entry(dest / "src" / "triplebench" / "registry.py")
    assert changed == ["+" + ENTRY], changed
    for path in TEMPLATE.rglob("*"):
        rel = path.relative_to(TEMPLATE)
        if path.is_file() and rel.parts[0] != "upstream" and "__pycache__" not in rel.parts:
            assert not (dest / rel).exists(), f"the template would overwrite {rel}: a toy adds files only"
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest / rel)
    mirrored = dest / "mirror" / "github.com" / "toy-org" / "toy" / "0123456789abcdef0123456789abcdef01234567"
    mirrored.mkdir(parents=True)
    shutil.copy2(TEMPLATE / "upstream" / "gold.tsv", mirrored / "gold.tsv")
    subprocess.run(["git", "init", "-q"], cwd=dest, check=True)
    before = (dest / "dvc.yaml").read_text(encoding="utf-8")
    _run(dest, [sys.executable, "tests/pipeline/lineage.py"])
    added = [line for line in difflib.unified_diff(before.splitlines(), (dest / "dvc.yaml").read_text(encoding="utf-8").splitlines(), n=0)
             if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert added and all("toy" in line and line.startswith("+") for line in added), added  # the toy's items, nothing else
    done = _run(dest, [str(Path(sys.executable).parent / "dvc"), "repro", "validate@toy"])
    assert "fetch@toy" in done and "build@toy" in done and "validate@toy" in done, done
    return dest


def _env(project: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(project / "src"), "TRIPLEBENCH_ROOT": str(project),
            "TRIPLEBENCH_MIRROR": str(project / "mirror"), "TRIPLEBENCH_CACHE": str(project / "cache"),
            "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1",
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}


def _run(project: Path, argv: list[str], status: int = 0) -> str:
    done = subprocess.run(argv, cwd=project, env=_env(project), capture_output=True, text=True, timeout=600)
    assert done.returncode == status, f"{argv}: exit {done.returncode}\n{done.stdout}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def _python(project: Path, code: str) -> dict:
    """Run ``code`` in the scratch project; it prints one JSON object last."""
    out = _run(project, [sys.executable, "-c", code])
    return json.loads(out.strip().splitlines()[-1])


def test_the_scratch_copy_is_the_code_under_test(project: Path) -> None:
    got = _python(project, "import json, triplebench; print(json.dumps({'file': triplebench.__file__}))")
    assert got["file"].startswith(str(project / "src"))


def test_the_pipeline_template_makes_the_toy_stages(project: Path) -> None:
    stages = _run(project, [str(Path(sys.executable).parent / "dvc"), "stage", "list"])
    assert {"fetch@toy", "build@toy", "validate@toy"} <= {line.split()[0] for line in stages.splitlines() if line}
    built = project / "datasets" / "toy" / "data" / "triples" / "test-00000-of-00001.parquet"
    assert built.is_file()
    report = json.loads((project / "reports" / "datasets" / "toy.json").read_text(encoding="utf-8"))
    assert [(f["config"], f["split"], f["rows"]) for f in report["files"]] == [("triples", "test", 4)]


def test_the_api_scores_and_compares_the_toy(project: Path) -> None:
    got = _python(project, f"""
import json, triplebench
from triplebench.registry import BENCHMARKS
a = triplebench.score("toy", {PREDICTIONS!r}, bootstrap=50)
b = triplebench.score("toy", {PREDICTIONS[:1]!r})
c = triplebench.compare(a, b, bootstrap=50)
print(json.dumps({{"benchmarks": BENCHMARKS, "scores": a.scores, "signature": a.signature,
                  "table": a.format(), "delta": c.delta, "unit": c.unit, "intervals": sorted(a.intervals)}}))
""")
    assert got["benchmarks"][-1] == "toy"
    # two of four gold triples found, one wrong: P = 2/3, R = 2/4
    assert got["scores"] == {"precision": 2 / 3, "recall": 0.5, "f1": 2 * (2 / 3) * 0.5 / (2 / 3 + 0.5)}
    assert got["signature"].startswith("toy|split:test|data:1.0.0+toy@0123456|v:")
    assert got["table"].startswith("Toy") and got["unit"] == "sentence" and got["intervals"] == ["f1", "precision", "recall"]


def test_the_toy_keeps_the_cross_benchmark_contract(project: Path) -> None:
    """What tests/foundation/test_contract.py asks of every benchmark, from the toy's two recipe files."""
    got = _python(project, """
import importlib.util, json, jsonschema, triplebench
spec = importlib.util.spec_from_file_location("contract_input_toy", "tests/toy/contract_input.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
predictions, options = module.contract_input()
record = triplebench.score("toy", predictions, bootstrap=50, **options).to_dict()
schema = json.loads(open("schemas/results/toy.schema.json", encoding="utf-8").read())
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.validate(record, schema)
print(json.dumps({"benchmark": record["benchmark"], "recall": record["scores"]["recall"]}))
""")
    assert got == {"benchmark": "toy", "recall": 0.5}


def test_the_cli_scores_the_toy_and_refuses_unknown_sentences(project: Path) -> None:
    predictions = project / "toy.tsv"
    predictions.write_text("".join("\t".join(r.values()) + "\n" for r in PREDICTIONS), encoding="utf-8")
    cli = [sys.executable, "-c", "import sys; from triplebench.cli.main import main; sys.exit(main(sys.argv[1:]))"]
    assert "toy" in _run(project, [*cli, "score", "--help"])
    out = _run(project, [*cli, "score", "toy", str(predictions), "--json"])
    assert json.loads(out[out.index("{"):])["scores"]["recall"] == 0.5
    wrong = project / "wrong.tsv"
    wrong.write_text("9\tParis\tis capital of\tFrance\n", encoding="utf-8")
    assert "not in the gold" in _run(project, [*cli, "score", "toy", str(wrong)], status=2)
    assert "toy" in _run(project, [*cli, "download", "--help"])
    assert "toy  [toy]\n  layout:  sent_id, subject, relation, object" in _run(project, [*cli, "formats"])
    refused = _run(project, [*cli, "report", "toy", "--add", f"mine={predictions}"], status=2)
    assert "toy" in refused and "carb" in refused  # no report: refused, naming those that have one
    refused = _run(project, [*cli, "report", "toy"], status=2)
    assert "toy" in refused and "a report stage of params.yaml: carb | benchie" in refused  # no `reports: toy:` section


def test_the_evaluate_module_and_the_summary_know_the_toy(project: Path) -> None:
    got = _python(project, f"""
import json, evaluate
from triplebench.summary import summary
metric = evaluate.load("metrics/toy")
out = metric.compute(predictions={PREDICTIONS!r})
print(json.dumps({{"recall": out["scores"]["recall"], "summary": summary()}}))
""")
    assert got["recall"] == 0.5
    assert any(line.split()[:3] == ["toy", "triples", "test"] for line in got["summary"].splitlines())


def test_the_release_tree_carries_the_toy(project: Path, tmp_path: Path) -> None:
    (project / "CHANGELOG.md").write_text("# Changelog\n\n## [9.9.9]\n\n- the toy\n", encoding="utf-8")
    got = _python(project, f"""
import json
from pathlib import Path
from triplebench.release import tree
built = tree.assemble(Path("."), Path({str(tmp_path / "tree")!r}), "9.9.9", benchmarks=("toy",))
print(json.dumps({{"left_out": built.left_out}}))
""")
    assert got["left_out"] == {"toy": {}}
    assert (tmp_path / "tree" / "datasets" / "toy" / "data" / "triples" / "test-00000-of-00001.parquet").is_file()
    assert (tmp_path / "tree" / "metrics" / "toy" / "toy.py").is_file()
