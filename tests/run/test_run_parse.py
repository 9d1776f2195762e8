"""The parse rules of triplebench.harness.parse.PARSE_RULES, one by one, and the confidence rule."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from triplebench.errors import InputError
from triplebench.harness.confidence import span_confidence, token_offsets, with_confidence
from triplebench.harness.parse import ARITIES, OUTCOMES, PARSE_RULES, Shown, direct, parse_reply, tuples_in


def args(text: str, **kw) -> list[tuple[str, ...]]:
    return [e.arguments for e in parse_reply(text, **kw).extractions]


ABC = [("a", "b", "c")]
ABC_DEF = [("a", "b", "c"), ("d", "e", "f")]


# -- rule 1: reasoning ---------------------------------------------------------------------------

def test_think_blocks_are_not_read():
    assert args("<think>maybe (x; y; z)</think>\n(a; b; c)") == ABC
    p = parse_reply("<think>still thinking (x; y; z)", finish_reason="length")
    assert p.outcome == "truncated" and p.extractions == ()


# -- rule 2: fences ------------------------------------------------------------------------------

def test_only_fenced_contents_are_read():
    assert args('Sure! (not; a; triple)\n```json\n[["a", "b", "c"]]\n```\nHope this helps (x; y; z)') == ABC


def test_empty_fences_fall_back_to_the_whole_reply():
    assert args("```\n```\n(a; b; c)") == ABC


# -- rule 3: JSON ----------------------------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    '[["a", "b", "c"], ["d", "e", "f"]]',
    '[{"subject": "a", "relation": "b", "object": "c"}, {"head": "d", "predicate": "e", "tail": "f"}]',
    '{"triples": [["a", "b", "c"], ["d", "e", "f"]]}',
    '{"note": "x", "extractions": [{"arg1": "a", "rel": "b", "arg2": "c"}, {"Subject": "d", "Relation": "e", "Object": "f"}]}',
    'Here are the triples:\n[["a", "b", "c"],\n ["d", "e", "f"]]\nLet me know if you need more.',
    '["a", "b", "c"]\n["d", "e", "f"]',
    '1. ["a", "b", "c"]\n2. ["d", "e", "f"]',
    '{"subject": "a", "relation": "b", "object": "c"}\n{"subject": "d", "relation": "e", "object": "f"}',
    '[\n  {\n    "subject": "a",\n    "relation": "b",\n    "object": "c"\n  },\n  {"subject": "d", "relation": "e", "object": "f"}\n]',
])
def test_json_shapes(reply):
    assert args(reply) == ABC_DEF


def test_json_nary_arguments_and_numbers():
    reply = '[{"subject": "a", "relation": "b", "object": ["c", "d"], "arguments": ["e"], "arg4": "g", "arg3": "f"}, ["x", "born", 1961]]'
    assert args(reply, arity="nary") == [("a", "b", "c", "d", "e", "f", "g"), ("x", "born", "1961")]


def test_json_elements_that_are_not_text_reject_the_item():
    p = parse_reply('[["a", "b", null], ["d", "e", "f"], {"object": "x"}]')
    assert [e.arguments for e in p.extractions] == [("d", "e", "f")]
    assert sorted(r.cause for r in p.rejected) == ["no_keys", "not_text"]


# -- rule 4: lines ---------------------------------------------------------------------------------

@pytest.mark.parametrize("reply", [
    "(a; b; c)\n(d; e; f)",
    "(a, b, c)\n(d, e, f)",
    "[a, b, c]\n[d, e, f]",
    "a | b | c\nd | e | f",
    "a\tb\tc\nd\te\tf",
    "a; b; c\nd; e; f",
    "1. (a; b; c)\n2) (d; e; f)",
    "1.(a; b; c)\n2.[d, e, f]",
    "- (a; b; c)\n* (d; e; f)",
    "• a | b | c\n+ d | e | f",
    "(a; b; c), (d; e; f)",
    "Triple 1: (a; b; c)\nTriple 2: (d; e; f)",
    "[('a', 'b', 'c'), ('d', 'e', 'f')]",
    '[\n  ("a", "b", "c"),\n  ("d", "e", "f")\n]',
    "Here are the triples:\n\n(a; b; c)\n(d; e; f)\n\nThese are all.",
    "| Subject | Relation | Object |\n|---|---|---|\n| a | b | c |\n| d | e | f |",
])
def test_line_shapes(reply):
    assert args(reply) == ABC_DEF


def test_quoted_elements_keep_their_commas():
    assert args('("Obama", "born in", "Honolulu, Hawaii")') == [("Obama", "born in", "Honolulu, Hawaii")]
    assert args("('Obama', 'born in', 'Honolulu, Hawaii')") == [("Obama", "born in", "Honolulu, Hawaii")]
    assert args('(Obama; "born in"; Honolulu, Hawaii)') == [("Obama", "born in", "Honolulu, Hawaii")]


def test_nested_brackets_stay_in_their_element():
    assert args("(Obama; was born in; Honolulu (Hawaii))") == [("Obama", "was born in", "Honolulu (Hawaii)")]


def test_prose_lines_are_counted_not_read():
    p = parse_reply("The president (Obama, 2009) said so.\nI think that is all")
    assert p.outcome == "unparsable" and "2 lines of text" in p.reason


def test_bare_lines_need_three_elements():
    p = parse_reply("It rained; we stayed home.")
    assert p.outcome == "unparsable" and p.rejected == ()


def test_an_empty_element_is_kept_and_only_empty_elements_reject_the_item():
    p = parse_reply("(a; ; c)\n(; ; )")
    assert [e.arguments for e in p.extractions] == [("a", "", "c")] and [r.cause for r in p.rejected] == ["empty_element"]
    assert [e.arguments for e in parse_reply('[["d", "e", ""]]').extractions] == [("d", "e", "")]


def test_an_unclosed_group_inside_the_reply_is_rejected():
    p = parse_reply("(a; b; c\n(d; e; f)")
    assert [r.cause for r in p.rejected] == ["unclosed"] and p.outcome == "ok"


# -- rule 5: arity ---------------------------------------------------------------------------------

def test_triple_mode_rejects_two_and_four_elements_and_counts_them():
    p = parse_reply("(a; b)\n(a; b; c)\n(a; b; c; d)", arity="triple")
    assert [e.arguments for e in p.extractions] == ABC
    assert sorted(r.cause for r in p.rejected) == ["too_few", "too_many"]
    assert p.reason == "1 extraction; 2 items rejected (1 too few elements, 1 too many elements)"


def test_nary_mode_keeps_two_and_four_elements():
    p = parse_reply("(a)\n(a; b)\n(a; b; c)\n(a; b; c; d)", arity="nary")
    assert [e.arguments for e in p.extractions] == [("a", "b"), ("a", "b", "c"), ("a", "b", "c", "d")]
    assert [r.cause for r in p.rejected] == ["too_few"]
    assert p.extractions[2].objects == ("c", "d") and p.extractions[0].objects == ()


def test_unknown_arity_is_an_error():
    with pytest.raises(InputError, match="arity"):
        parse_reply("(a; b; c)", arity="binary")


# -- rule 6: outcomes ------------------------------------------------------------------------------

@pytest.mark.parametrize("reply", ["[]", '{"triples": []}', "None", "None.", "N/A", "No triples.", "no extractions found",
                                   "There are no relations in this sentence.", "Here are the triples:\nNone", "```json\n[]\n```"])
def test_empty_when_the_model_says_there_is_none(reply):
    p = parse_reply(reply)
    assert p.outcome == "empty" and p.parsed and p.extractions == ()


@pytest.mark.parametrize("reply, reason", [("", "the reply is empty"), ("   \n", "the reply is empty"),
                                           ("I cannot help with that.", "no tuple, list or JSON found in 1 line of text"),
                                           ("(a; b)", "no extraction: 0 extractions; 1 item rejected (1 too few elements)")])
def test_unparsable(reply, reason):
    p = parse_reply(reply)
    assert (p.outcome, p.reason, p.parsed) == ("unparsable", reason, False)


def test_finish_reason_length_is_truncated_and_keeps_what_came_before():
    p = parse_reply("(a; b; c)\n(d; e; f)\n(g; h", finish_reason="length")
    assert p.outcome == "truncated" and [e.arguments for e in p.extractions] == ABC_DEF
    assert [r.cause for r in p.rejected] == ["cut"] and "finish_reason length" in p.reason


def test_an_unterminated_bare_line_at_max_tokens_counts_as_cut():
    p = parse_reply("a | b | c\nd | e | f", finish_reason="length")
    assert [e.arguments for e in p.extractions] == ABC and [r.cause for r in p.rejected] == ["cut"]
    assert len(parse_reply("a | b | c\nd | e | f\n", finish_reason="length").extractions) == 2


@pytest.mark.parametrize("reply, inside", [('[["a", "b", "c"], ["d", "e', "an unclosed JSON value"),
                                           ('{"triples": [["a", "b", "c"], ["d"', "an unclosed JSON value"),
                                           ("(a; b; c)\n(d; e", "an unclosed tuple")])
def test_a_reply_ending_inside_a_value_is_truncated_only_at_max_tokens(reply, inside):
    """Issue 40: "truncated" only when the server stopped at max_tokens; otherwise the open item is rejected, and said so."""
    for finish in (None, "stop"):
        p = parse_reply(reply, finish_reason=finish)
        assert p.outcome == "ok" and [e.arguments for e in p.extractions] == ABC
        assert [r.cause for r in p.rejected] == ["unclosed"] and "(1 unclosed)" in p.reason
    p = parse_reply(reply, finish_reason="length")
    assert p.outcome == "truncated" and [e.arguments for e in p.extractions] == ABC and [r.cause for r in p.rejected] == ["cut"]
    assert p.reason.startswith(f"cut at max_tokens (finish_reason length) mid-item ({inside})")


def test_truncated_with_nothing_before_the_cut():
    assert parse_reply("", finish_reason="length").outcome == "truncated"
    assert parse_reply('{"subject": "a", "rel', finish_reason="length").outcome == "truncated"
    assert parse_reply('{"subject": "a", "rel').outcome == "unparsable"


def test_every_outcome_and_mode_is_documented():
    for word in (*OUTCOMES, *ARITIES, "think", "```", "triples", "extractions", "Markdown", "too few", "too many"):
        assert word in PARSE_RULES


# -- spans -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("reply", ["1. (a; b; c)\n2. (d; e; f)", '[["a","b","c"],["d","e","f"]]', "x: a | b | c\nd | e | f"])
def test_each_extraction_keeps_its_span(reply):
    for e in parse_reply(reply).extractions:
        start, end = e.span
        piece = reply[start:end]
        assert all(a in piece for a in e.arguments), (piece, e.arguments)


# -- extractions returned by a callable ------------------------------------------------------------

def test_direct_extractions_follow_the_arity_rule():
    p = direct([("a", "b", "c"), ["a", "b"], {"arguments": ["d", "e", "f"], "confidence": 0.25}])
    assert p.outcome == "ok" and [e.confidence for e in p.extractions] == [None, 0.25] and [r.cause for r in p.rejected] == ["too_few"]
    assert direct([]).outcome == "empty" and direct([["a"]]).outcome == "unparsable"
    with pytest.raises(InputError, match=r"<callable>:1: field 'extraction'"):
        direct(["a b c"])
    with pytest.raises(InputError, match="confidence"):
        direct([{"arguments": ["a", "b", "c"], "confidence": "high"}])


# -- confidence ------------------------------------------------------------------------------------

def test_confidence_is_the_geometric_mean_probability_over_the_span():
    text = "(a; b; c)\n(d; e; f)"
    tokens = [(text[i: i + 3], -0.1 * (i // 3)) for i in range(0, len(text), 3)]
    parsed = with_confidence(parse_reply(text), text, tokens)
    first, second = parsed.extractions
    assert first.confidence == pytest.approx(math.exp(-(0.0 + 0.1 + 0.2) / 3))  # tokens 0..2 cover [0, 9)
    assert second.confidence == pytest.approx(math.exp(-(0.3 + 0.4 + 0.5 + 0.6) / 4))  # tokens 3..6 overlap [10, 19)


def test_no_confidence_when_the_tokens_do_not_spell_the_reply():
    text = "(a; b; c)"
    assert token_offsets(text, [("(a;", -0.1)]) is None
    assert with_confidence(parse_reply(text), text, [(" (a; b; c)", -0.1)]).extractions[0].confidence is None
    assert with_confidence(parse_reply(text), text, None).extractions[0].confidence is None
    assert span_confidence([("(a; b; c)", float("-inf"))], [(0, 9)], (0, 9)) is None


def test_tokens_past_the_reply_are_the_stop_sequence_a_server_cut_off():
    # llama_cpp.server (seen with Gemma 3 270M): the text ends before the stop sequence, its log-probabilities do not
    text = "(Paris; was the capital of; France)\n"
    tokens = [("(Paris;", -0.5), (" was the capital of;", -0.25), (" France)", -0.75), ("\n\n", -0.1), ("Sentence", -2.0), (":", -0.1)]
    only = with_confidence(parse_reply(text, arity="nary"), text, tokens).extractions[0]
    assert only.confidence == pytest.approx(math.exp(-(0.5 + 0.25 + 0.75) / 3))  # the span ends before the newline
    assert token_offsets(text, [("(Paris; was", -0.1), (" the", -0.1)]) is None  # tokens that stop short of the text still refuse


# -- any text gets an outcome ----------------------------------------------------------------------

PIECES = st.sampled_from(['(', ')', '[', ']', '{', '}', '"', "'", ";", ",", "|", "\t", "\n", " ", "a", "b c", "1.", "- ", "```",
                          "```json\n", "None", '"subject": ', '"triples": ', ":", "\\", "<think>", "</think>", "é"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=40), st.sampled_from(ARITIES), st.sampled_from([None, "stop", "length"]))
def test_any_reply_gets_an_outcome_and_spans_inside_it(pieces, arity, finish):
    text = "".join(pieces)
    p = parse_reply(text, arity=arity, finish_reason=finish)
    assert p.outcome in OUTCOMES and p.reason and "\n" not in p.reason
    assert bool(p.extractions) if p.outcome == "ok" else not p.extractions if p.outcome in ("empty", "unparsable") else True
    for e in p.extractions:
        assert 0 <= e.span[0] <= e.span[1] <= len(text) and any(e.arguments)
        assert len(e.arguments) == 3 if arity == "triple" else len(e.arguments) >= 2
    for r in p.rejected:
        assert 0 <= r.span[0] <= r.span[1] <= len(text)


def test_triplebench_formats_prints_the_parse_rules_beside_the_layouts(capsys):
    """The rules are documented where users look up input layouts."""
    from triplebench.cli.main import main
    from triplebench.harness import PARSE_RULES

    assert main(["formats"]) == 0
    out = capsys.readouterr().out
    assert "openie4" in out and out.rstrip().endswith(PARSE_RULES.rstrip())


# -- issue 40: quotes and brackets inside an argument are text --------------------------------------

@pytest.mark.parametrize("reply, expected", [
    ("(KFI; aired; by President Franklin D. Roosevelt's \"Fireside Chats)",
     ("KFI", "aired", "by President Franklin D. Roosevelt's \"Fireside Chats")),
    ("(He; is; 5' 10\" tall)", ("He", "is", "5' 10\" tall")),
    ("(a; b; c d))", ("a", "b", "c d)")),
    ("(a; b; c (d)", ("a", "b", "c (d")),
    ("(a; b; {c)", ("a", "b", "{c")),
    ("[a; b; c]]", ("a", "b", "c]")),
])
def test_an_unbalanced_quote_or_bracket_inside_an_argument_is_text(reply, expected):
    for form in (reply, f"- {reply}", f"1. {reply}", f"(x; y; z)\n{reply}\n(x; y; z)"):
        p = parse_reply(form, arity="nary", finish_reason="stop")
        assert p.outcome == "ok" and expected in [e.arguments for e in p.extractions] and p.rejected == (), (form, p)


def test_an_unbalanced_brace_in_a_bullet_drops_nothing():
    reply = "- a; b; {c\n- d; e; f\n- g; h; i}"
    assert args(reply) == [("a", "b", "{c"), ("d", "e", "f"), ("g", "h", "i}")]


# -- issue 40: Subject: / Relation: / Object: blocks -----------------------------------------------

@pytest.mark.parametrize("reply", [
    "Subject: a\nRelation: b\nObject: c\n\nSubject: d\nRelation: e\nObject: f",
    "Subject: a\nRelation: b\nObject: c\nSubject: d\nRelation: e\nObject: f",
    "1. Subject: a\n   Relation: b\n   Object: c\n2. Subject: d\n   Relation: e\n   Object: f",
    "1.\nSubject: a\nPredicate: b\nObject: c\n2.\nSubject: d\nPredicate: e\nObject: f",
    "Triple 1:\n**Subject:** a\n**Relation:** b\n**Object:** c\n\nTriple 2:\n- Head: d\n- Relation: e\n- Tail: f",
    "Subject: a; Relation: b; Object: c\nSubject: d | Relation: e | Object: f",
    "1. Subject: a, Relation: b, Object: c\n2. (Subject: d, Relation: e, Object: f)",
])
def test_subject_relation_object_blocks(reply):
    assert args(reply) == ABC_DEF


def test_a_comma_inside_an_inline_field_stays_in_its_value():
    assert args("Subject: Obama, Relation: was born in, Object: Honolulu, Hawaii") == [("Obama", "was born in", "Honolulu, Hawaii")]


def test_blocks_with_numbered_arguments_and_missing_keys():
    assert args("Arg1: a\nRel: b\nArg2: c\nArg3: d", arity="nary") == [("a", "b", "c", "d")]
    p = parse_reply("Subject: a\nObject: c\n\nSubject: d\nRelation: e\nObject: f")
    assert [e.arguments for e in p.extractions] == [("d", "e", "f")] and [r.cause for r in p.rejected] == ["no_keys"]


def test_a_block_cut_at_max_tokens_is_cut():
    p = parse_reply("Subject: a\nRelation: b\nObject: c\nSubject: d\nRelation: e", finish_reason="length")
    assert [e.arguments for e in p.extractions] == ABC and [r.cause for r in p.rejected] == ["cut"]


# -- issue 40: text copied from the prompt, invented follow-up blocks -------------------------------

SHOWN = Shown.of([("subject", "relation", "object", "further objects ..."), ("Penicillin", "is a type of", "antibiotic")],
                 labels=["Sentence:"], own_text="Obama was born in Hawaii .")


def test_a_tuple_the_prompt_shows_is_rejected_as_copied():
    p = parse_reply("(Subject; relation; object)\n(Penicillin, is a  type of, Antibiotic)\n(Obama; was born in; Hawaii)", shown=SHOWN)
    assert [e.arguments for e in p.extractions] == [("Obama", "was born in", "Hawaii")]
    assert [r.cause for r in p.rejected] == ["copied", "copied"] and "2 copied from the prompt" in p.reason
    assert parse_reply("(Subject; relation; object)", shown=SHOWN).outcome == "unparsable"


def test_a_shown_tuple_the_items_text_supports_is_kept():
    shown = Shown.of([("Penicillin", "is a type of", "antibiotic")], own_text="Penicillin is an antibiotic used widely.")
    assert args("(Penicillin; is a type of; antibiotic)", shown=shown) == [("Penicillin", "is a type of", "antibiotic")]


def test_the_prompts_own_tuples_are_found_anywhere_in_it():
    text = ('Provide a list of triplets in the format [`ENTITY 1`, `RELATIONSHIP`, `ENTITY 2`].\nrelations:\n'
            '[["Penicillin", "is a type of", "antibiotic"], ["Penicillin", "treats", "infections"]]\nas (subject; relation; object).')
    assert tuples_in(text) == [("ENTITY 1", "RELATIONSHIP", "ENTITY 2"), ("Penicillin", "is a type of", "antibiotic"),
                               ("Penicillin", "treats", "infections"), ("Penicillin", "is a type of", "antibiotic"),
                               ("Penicillin", "treats", "infections"), ("subject", "relation", "object")]


def test_the_reply_is_read_up_to_a_block_the_model_invented():
    reply = "(a; b; c)\n(d; e; f)\n\nSentence: Paris is in France .\nTuples:\n(Paris; is in; France)\n(Paris; is"
    p = parse_reply(reply, shown=SHOWN, finish_reason="length")
    assert p.outcome == "ok" and [e.arguments for e in p.extractions] == ABC_DEF
    assert p.reason == "2 extractions; read up to line 4, where the model began a new 'Sentence:' block"
    assert args("Sentence: x\n(a; b; c)", shown=SHOWN) == ABC  # an echo of the input before the answer is not a new block


# -- issue 40: what a reply cut at max_tokens was doing ------------------------------------------------

def test_a_loop_prose_and_a_cut_item_are_told_apart():
    loop = parse_reply("(a; b; c)\n" + "(d; e; f)\n" * 6 + "(d; e", finish_reason="length")
    assert loop.outcome == "truncated" and "repeats itself (5 of 7 lines" in loop.reason and "mid-item" not in loop.reason
    one_line = parse_reply("(a; b; c), " + "(d; e; f), " * 5 + "(d; e", finish_reason="length")
    assert one_line.cut == "repeats" and "(4 of 6 items repeat" in one_line.reason
    prose = parse_reply("(a; b; c)\nThe sentence says that a b c, which is interesting because", finish_reason="length")
    assert prose.outcome == "truncated" and "in prose after the last item" in prose.reason
    cut = parse_reply("(a; b; c)\n(d; e", finish_reason="length")
    assert "mid-item (an unclosed tuple)" in cut.reason
    after = parse_reply("(a; b; c)\n(d; e; f)\n", finish_reason="length")
    assert [p.cut for p in (loop, prose, cut, after)] == ["repeats", "prose", "mid-item", "after-item"]
    assert parse_reply("(a; b; c)").cut == ""


def test_every_rejected_item_names_its_cause_in_the_reason():
    from triplebench.harness.parse import CAUSES

    p = parse_reply('(a)\n(a; b; c; d)\n(; ; )\n[["x", "y", null]]\n{"object": "o"}\n(Subject; relation; object)\n(g; h', shown=SHOWN)
    assert p.rejected and all(CAUSES[r.cause] in p.reason for r in p.rejected)


def test_a_group_holding_a_group_and_text_is_one_group():
    assert args("((LRB) a; b; c)") == [("(LRB) a", "b", "c")]
    assert args("[(a, b, c), (d, e, f)]") == ABC_DEF


def test_one_quoted_string_is_not_a_tuple_of_one():
    assert args('("Nobody told us; he said; nobody called us.")') == [('"Nobody told us', "he said", 'nobody called us."')]


# -- what a small base model wrote (W4: Gemma 3 270M through llama_cpp.server) --------------------------------------

def test_a_line_of_the_instruction_written_again_is_never_an_extraction():
    """The reply opens with the instruction's first line (no stop sequence can end a reply before it starts): its
    ';'-split pieces were an extraction of every sentence."""
    from triplebench.harness.parse import prompt_shown
    from triplebench.openie.task import openie_prompt

    prompt = openie_prompt()
    sentence = "32.7 % of all households were made up of individuals ."
    first = prompt.user.splitlines()[0]
    for copy in (first, "1. " + first.upper(), "  " + first.replace(" ", "  ")):
        got = parse_reply(f"{copy}\n(32.7 % of all households; were made up of; individuals)", arity="nary", finish_reason="stop",
                          shown=prompt_shown(prompt, sentence))
        assert [e.arguments for e in got.extractions] == [("32.7 % of all households", "were made up of", "individuals")]
        assert [r.cause for r in got.rejected] == ["copied"]
    # a line of the model's own that only starts like one of the instruction's is read as it is
    own = parse_reply("Write one tuple per line: (32.7 % of all households; were made up of; individuals)", arity="nary",
                      shown=prompt_shown(prompt, sentence))
    assert [e.arguments for e in own.extractions] == [("32.7 % of all households", "were made up of", "individuals")]


def test_an_invented_block_is_cut_at_its_label_in_any_case():
    """GenRES's label is 'prompt:'; the model began its invented block with 'Prompt:' and ran to max_tokens."""
    from triplebench.harness.parse import prompt_shown
    from triplebench.harness.prompts import Prompt

    prompt = Prompt("g", "1", "List the triples.\n\nprompt: {text}\nrelations:", stop=("\nprompt:",))
    reply = '[["Cuba", "held", "elections"]]\n\nPrompt: Paris is big.\nrelations:\n[["Paris", "is", "big"]]\n\nPrompt: ...'
    got = parse_reply(reply, finish_reason="length", shown=prompt_shown(prompt, "Cuba held elections."))
    assert [e.arguments for e in got.extractions] == [("Cuba", "held", "elections")]
    assert got.outcome == "ok" and "where the model began a new 'prompt:' block" in got.reason


def test_a_placeholder_inside_prose_and_the_sentence_in_every_slot_are_copies():
    """W4 P1/P2: '1. Extract all facts from the sentence (subject; relation; object; further objects).' was read as a
    4-tuple of prose and placeholder words, and Subject:/Relation:/Object: each holding the whole sentence as a triple."""
    from triplebench.harness.parse import prompt_shown
    from triplebench.openie.task import openie_prompt

    sentence = "He was the first president ."
    shown = prompt_shown(openie_prompt(), sentence)
    for reply in ("1. Extract all facts from the sentence (subject; relation; object; further objects).",
                  "The sentence is a tuple (subject; relation; object; further objects ...).",
                  f"Subject: {sentence}\nRelation: {sentence}\nObject: {sentence}"):
        got = parse_reply(reply, arity="nary", shown=shown)
        assert got.outcome == "unparsable" and [r.cause for r in got.rejected] == ["copied"], reply
    for reply in ("(He; was; the first president)", "He; was; the first president", f"({sentence}; is; a sentence)"):
        assert parse_reply(reply, arity="nary", shown=shown).outcome == "ok", reply
    # one group of a line that copies leaves the others on the line as they are
    got = parse_reply("(He; was; the first president), (Subject; relation; object)", arity="nary", shown=shown)
    assert [e.arguments for e in got.extractions] == [("He", "was", "the first president")] and len(got.rejected) == 1


def test_a_reply_that_is_not_python_raises_no_syntax_warning():
    # the group reader tries a Python literal; "1in" (a number before a keyword) printed "SyntaxWarning: invalid decimal literal" mid-run
    import warnings

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert args("(Blair; was elected; 1in 3 votes)") == [("Blair", "was elected", "1in 3 votes")]
    assert not shown
