"""BenchIE scorer: upstream README numbers to every printed digit, Table 5, quirks, bad input."""

from __future__ import annotations

import json
import unicodedata

import pytest

from conftest import upstream_file
from triplebench.benchmarks.benchie import score
from triplebench.errors import CoverageError, InputError

REPO = "gkiril/benchie"
SYS = "data/oie_systems_explicit_extractions/"

# The upstream README's demo output (default facet, EN): precision, recall, f1 as printed.
README = {
    "clausie": ("clausie_explicit.txt", 0.5029154518950437, 0.25555555555555554, 0.33889980353634575),
    "minie": ("minie_explicit.txt", 0.4290617848970252, 0.2777777777777778, 0.33723021582733814),
    "stanford": ("stanford_explicit.txt", 0.11082070047046524, 0.15703703703703703, 0.12994177137603433),
    "openie6": ("openie6_explicit.txt", 0.3110871905274489, 0.21407407407407408, 0.2536200087757789),
    "roie_t": ("roi_t_explicit.txt", 0.3732394366197183, 0.07851851851851852, 0.12974296205630356),
    "roie_n": ("roi_n_explicit.txt", 0.20287539936102236, 0.09407407407407407, 0.12854251012145748),
    "naive": ("naive_oie_explicit.txt", 0.03336921420882669, 0.022962962962962963, 0.02720491443615621),
    "m2oie_en": ("m2oie_en_explicit.txt", 0.3924050632911392, 0.16074074074074074, 0.2280609563846558),
}


@pytest.mark.parametrize("system", sorted(README))
def test_upstream_readme_numbers_exact(built, system):
    name, p, r, f1 = README[system]
    result = score(upstream_file(REPO, SYS + name), language="en")
    s, c = result.scores, result.counts
    # repr() is what the reference prints (str(float)): every digit must agree
    assert (repr(s["precision"]), repr(s["recall"]), repr(s["f1"])) == (repr(p), repr(r), repr(f1))
    assert c["tp"] + c["fn"] == 1350
    per = result.details["sentences"]
    assert sum(per["tp"]) == c["tp"] and sum(per["fn"]) == c["fn"]
    assert result.signature.startswith("benchie|language:en|facet:default|match:slot|gold:en_expanded|")


@pytest.mark.parametrize("lang, p, r, f1", [("zh", 0.18, 0.10, 0.13), ("de", 0.09, 0.03, 0.04)])
def test_m2oie_table5(built, lang, p, r, f1):
    result = score(upstream_file(REPO, SYS + f"m2oie_{lang}_explicit.txt"), language=lang)
    s = result.scores
    assert (round(s["precision"], 2), round(s["recall"], 2), round(s["f1"], 2)) == (p, r, f1)


def test_facets_order_as_paper_section6(built):
    """Paper section 6: C is more lenient than default for every system, M the lowest."""
    for system, (name, *_ ) in README.items():
        path = upstream_file(REPO, SYS + name)
        default, c, m = (score(path, language="en", facet=facet)["f1"] for facet in ("default", "C", "M"))
        assert c > default > m, system
    # MinIE is best on M (paper: "MinIE ... yields the best performance on this facet")
    m_f1 = {s: score(upstream_file(REPO, SYS + n), language="en", facet="M")["f1"] for s, (n, *_ ) in README.items()}
    assert max(m_f1, key=m_f1.get) == "minie"


def _gold(tmp_path, text):
    path = tmp_path / "gold_e.txt"
    path.write_text(text, encoding="utf-8")
    return path


GOLD = (
    "sent_id:1\tA b c d .\n"
    "1--> Cluster 1:\nA --> b --> c\nA --> b c --> d\n"
    "1--> Cluster 2:\nA --> b --> [the] d\n"
    "1--> Cluster 3:\nA --> is --> x\n\n"
    "sent_id:2\tE f g .\n2--> Cluster 1:\nE --> f --> g\n"
)


def test_exact_matching_and_counts(tmp_path):
    gold = _gold(tmp_path, GOLD)
    preds = [
        {"sent_id": 1, "subject": "A", "relation": "b", "object": "c"},  # synset 1
        {"sent_id": "1", "subject": "A", "relation": "b c", "object": "d"},  # synset 1 again: TP, no FP
        {"sent_id": "1", "subject": "A", "relation": "b", "object": "d"},  # synset 2 (optional token)
        {"sent_id": "1", "subject": "A", "relation": "b", "object": "zzz"},  # FP
        {"sent_id": "1", "subject": "A", "relation": "b", "object": "zzz"},  # FP again (duplicate)
        {"sent_id": "9", "subject": "A", "relation": "b", "object": "c"},  # unknown sentence: ignored (opt-in)
    ]
    r = score(preds, language="en", facet="E", gold=gold, allow_partial=True)
    assert (r.counts["tp"], r.counts["fp"], r.counts["fn"]) == (2, 2, 2)
    assert r["precision"] == 2 / 4 and r["recall"] == 2 / 4
    assert r.counts["ignored_extractions"] == 1 and r.counts["duplicates"] == 1
    assert r.per_sentence() == {"1": (2, 2, 1), "2": (0, 0, 1)}
    assert "facet:E" in r.signature and "gold:file:gold_e.txt@" in r.signature and "partial:yes" in r.signature
    with pytest.raises(CoverageError) as err:  # the reference ignores unknown ids; by default that is refused
        score(preds, language="en", facet="E", gold=gold)
    assert err.value.source.endswith(":6") and "'9'" in str(err.value) and (err.value.count, err.value.total) == (1, 2)


def test_stripped_match_credits_last_synset(tmp_path):
    """Reference quirk: a match only after stripping gets synset index -1 (the last one)."""
    gold = _gold(tmp_path, GOLD)
    r = score([("1", "A ", "b", "c")], language="en", facet="E", gold=gold)
    assert (r.counts["tp"], r.counts["fp"]) == (1, 0)
    # synset 1 was matched, but the credit went to synset 3: a later exact match of synset 1 still adds a TP
    r = score([("1", "A ", "b", "c"), ("1", "A", "b", "c")], language="en", facet="E", gold=gold)
    assert r.counts["tp"] == 2


def test_zero_division_and_empty_slots(tmp_path):
    gold = _gold(tmp_path, GOLD)
    r = score([("9", "x", "y", "z")], language="en", facet="E", gold=gold, allow_partial=True)
    assert (r["precision"], r["recall"], r["f1"], r.counts["ignored_extractions"]) == (0.0, 0.0, 0.0, 1)
    gold2 = _gold(tmp_path, "sent_id:1\tA b .\n1--> Cluster 1:\nA --> b --> [the]\n")
    r = score([("1", "A", "b", "   ")], language="en", facet="E", gold=gold2)  # all-optional object: empty slot matches
    assert (r.counts["tp"], r.counts["empty_slots"]) == (1, 1)


def test_nary_conversion_and_jsonl(tmp_path):
    gold = _gold(tmp_path, GOLD)
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps({"sent_id": 1, "subject": "A", "relation": "b", "arguments": ["c", "d"]}) + "\n"
                    + json.dumps({"sent_id": 1, "subject": "A", "relation": "b c", "arguments": ["d"]}) + "\n", encoding="utf-8")
    r = score(path, language="en", facet="E", gold=gold)
    c = r.counts
    assert c["nary_converted"] == 1 and c["tp"] == 1 and c["fp"] == 1  # "c d" is not a gold object; "b c"/"d" is
    r = score([("1", "A", "b", "[the]", "c"), ("1", "A", "b", "the", "d")], language="en", facet="E", gold=gold)
    c = r.counts
    assert c["nary_converted"] == 2 and (c["tp"], c["fp"]) == (1, 1)  # "the d" is a realisation of synset 2


def test_non_integer_sentence_ids_are_strings(tmp_path):
    gold = _gold(tmp_path, GOLD)
    r = score([("01", "A", "b", "c"), ("s1", "A", "b", "c"), (" 1 ", "A", "b", "c")], language="en", facet="E",
              gold=gold, allow_partial=True)
    assert r.counts["ignored_extractions"] == 2 and r.counts["tp"] == 1  # "01" and "s1" are not "1"; blanks are stripped


def test_concatenation_facet_on_handwritten_gold(built):
    # BenchIE-C ignores slot boundaries: the upstream README's sentence 1 gold triple
    # "He --> served as --> the first Prime Minister of Australia", split differently
    a = score([("1", "He served", "as the", "first Prime Minister of Australia")], language="en", facet="C").counts
    b = score([("1", "He served", "as the", "first Prime Minister of Australia")], language="en").counts
    assert (a["tp"], a["fp"], b["tp"], b["fp"]) == (1, 0, 0, 1)


@pytest.mark.parametrize(
    "records, field, needle",
    [
        ([{"sent_id": 1, "subject": "A", "relation": "b\tc", "object": "d"}], "relation", "tab"),
        ([{"sent_id": 1, "subject": "A", "object": "d"}], "relation", "missing"),
        ([{"sent_id": 1.5, "subject": "A", "relation": "b", "object": "d"}], "sent_id", "integer"),
        ([{"sent_id": 1, "subject": "A", "relation": "b", "object": 3}], "object", "string"),
        ([{"sent_id": 1, "subject": "A", "relation": "b", "object": "d", "arguments": ["d"]}], "object", "exactly one"),
    ],
)
def test_bad_records(records, field, needle, tmp_path):
    gold = _gold(tmp_path, GOLD)
    with pytest.raises(InputError) as err:
        score(records, language="en", facet="E", gold=gold)
    assert err.value.field == field and err.value.line == 1 and needle in str(err.value)


def test_bad_tsv(tmp_path, built):
    p = tmp_path / "p.tsv"
    p.write_text("1\tHe\tserved\tas\n2\tGraner\thandcuffed\n", encoding="utf-8")
    with pytest.raises(InputError) as err:
        score(p, language="en")
    assert err.value.source == str(p) and err.value.line == 2
    p.write_text("1\tHe\tserved as\tthe\tfirst\n", encoding="utf-8")
    with pytest.raises(InputError, match="tab inside a slot"):
        score(p, language="en")
    with pytest.raises(InputError, match="facet E needs"):
        score([("1", "a", "b", "c")], language="en", facet="E")
    with pytest.raises(InputError, match="option 'facet': expected one of default"):
        score([("1", "a", "b", "c")], language="en", facet="X")


def test_unicode_normalisation_and_mixed_languages(built):
    # German gold is NFC: an NFD umlaut does not match unless normalize="NFC" is asked for
    path = upstream_file(REPO, SYS + "m2oie_de_explicit.txt")
    lines = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    nfd = [(a, unicodedata.normalize("NFD", b), unicodedata.normalize("NFD", c), unicodedata.normalize("NFD", d)) for a, b, c, d in lines]
    ref = score(path, language="de")
    raw = score(nfd, language="de")
    fixed = score(nfd, language="de", normalize="NFC")
    assert raw.counts["not_nfc"] > 0 and raw.counts["tp"] < ref.counts["tp"]
    assert (fixed.counts["tp"], fixed.counts["fp"], fixed["f1"]) == (ref.counts["tp"], ref.counts["fp"], ref["f1"])
    assert "norm:NFC" in fixed.signature and "norm:none" in ref.signature
    # Chinese predictions scored against the English gold: refused by default; flagged, and they match nothing
    with pytest.raises(CoverageError, match="Chinese"):
        score(upstream_file(REPO, SYS + "m2oie_zh_explicit.txt"), language="en")
    zh = score(upstream_file(REPO, SYS + "m2oie_zh_explicit.txt"), language="en", allow_partial=True).counts
    assert zh["foreign_script"] > 0.9 * zh["extractions"] and zh["tp"] == 0
    assert score(upstream_file(REPO, SYS + "m2oie_zh_explicit.txt"), language="zh").counts["foreign_script"] < 0.1 * zh["extractions"]


def test_jsonl_validated_against_prediction_schema(tmp_path):
    gold = _gold(tmp_path, GOLD)
    path = tmp_path / "p.jsonl"
    path.write_text('{"sent_id": 1, "subject": "A", "relation": "b", "object": "c"}\n'
                    '{"sent_id": 1, "subject": "A", "relation": ["b"], "object": "c"}\n', encoding="utf-8")
    with pytest.raises(InputError) as err:
        score(path, language="en", facet="E", gold=gold)
    assert (err.value.line, err.value.field) == (2, "relation") and "schema benchie/prediction" in str(err.value)
    path.write_text('{"sent_id": 1, "subject": "A", "relation": "b"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="schema benchie/prediction"):
        score(path, language="en", facet="E", gold=gold)
    path.write_text('{"sent_id": 1, "subject": "A", "relation": "b", "object": "c"\n', encoding="utf-8")
    with pytest.raises(InputError, match="invalid JSON"):
        score(path, language="en", facet="E", gold=gold)
