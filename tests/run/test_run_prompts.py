"""Versioned prompts: rendering, the digest, and prompt files."""

from __future__ import annotations

from dataclasses import replace

import pytest

from triplebench.errors import InputError
from triplebench.harness.prompts import Demonstration, Prompt, load_prompt, template_fields

DEMO = Demonstration({"text": "Obama was born in Hawaii.", "lang": "en"}, "(Obama; was born in; Hawaii)")


def make(**kw) -> Prompt:
    base = {"name": "oie", "version": "1", "user": "[{lang}] Sentence: {text}\nReply as {{\"triples\": [...]}}",
            "system": "Extract tuples.", "demonstrations": (DEMO,)}
    return Prompt(**{**base, **kw})


def test_chat_messages():
    messages = make().messages("Paris is in France.", lang="en")
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[1]["content"] == '[en] Sentence: Obama was born in Hawaii.\nReply as {"triples": [...]}'
    assert messages[2]["content"] == DEMO.output
    assert messages[3]["content"].startswith("[en] Sentence: Paris is in France.")


def test_completion_layout():
    text = make().completion("Paris is in France.", lang="en")
    assert text == ('Extract tuples.\n\n[en] Sentence: Obama was born in Hawaii.\nReply as {"triples": [...]}\n(Obama; was born in; Hawaii)'
                    '\n\n[en] Sentence: Paris is in France.\nReply as {"triples": [...]}\n')
    assert Prompt("p", "1", "{text}").completion("x") == "x\n"


def test_digest_covers_what_is_sent_and_nothing_else():
    p = make()
    assert make(name="other", version="9", source="elsewhere").digest == p.digest
    for changed in (make(system="Extract triples."), make(user="{lang}: {text}"), make(demonstrations=()),
                    make(demonstrations=(Demonstration({**DEMO.fields}, DEMO.output + " "),))):
        assert changed.digest != p.digest
    assert p.short_digest == p.digest[:12] and p.label == f"oie@1#{p.short_digest}"


def test_missing_field_at_render_time():
    with pytest.raises(InputError, match="needs the field"):
        make().messages("x")


@pytest.mark.parametrize("kw, match", [
    ({"user": "no placeholder"}, "containing \\{text\\}"),
    ({"user": "{text} {x.y}"}, "not a plain name"),
    ({"user": "{text} {x!r}"}, "not a plain name"),
    ({"user": "{text} {"}, "balanced braces"),
    ({"name": ""}, "prompt name"),
    ({"version": 1}, "version"),
    ({"demonstrations": (Demonstration({"text": "t"}, "o"),)}, "lacks the template's field"),
])
def test_bad_prompts(kw, match):
    with pytest.raises(InputError, match=match):
        make(**kw)


def test_template_fields():
    assert template_fields("{text} {a} {{b}} {a}") == ("text", "a")


PROMPT_FILE = '''
name = "oie"
version = "1"
source = "tests"
system = "Extract tuples."
user = """[{lang}] Sentence: {text}
Reply as {{"triples": [...]}}"""

[[demonstrations]]
text = "Obama was born in Hawaii."
lang = "en"
output = "(Obama; was born in; Hawaii)"
'''


def test_load_prompt_file(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(PROMPT_FILE, encoding="utf-8")
    loaded = load_prompt(path)
    assert loaded == make() and loaded.digest == make().digest and loaded.source == "tests"


@pytest.mark.parametrize("text, match", [
    ('name = "a"\nversion = "1"\nuser = "{text}"\ncolour = "red"', "unknown key"),
    ('name = "a"\nuser = "{text}"', "'version': is required"),
    ('name = "a"\nversion = 1\nuser = "{text}"', "'version': expected a string"),
    ('name = "a"\nversion = "1"\nuser = "{text}"\n[[demonstrations]]\ntext = "t"', r"demonstrations\[1\]"),
    ('name = "a"\nversion = "1"\nuser = "no text"', "containing"),
    ("name = ", "not TOML"),
])
def test_bad_prompt_files_name_the_file(tmp_path, text, match):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=match) as info:
        load_prompt(path)
    assert str(path) in str(info.value)
    with pytest.raises(InputError, match="cannot read"):
        load_prompt(tmp_path / "missing.toml")


# -- stop sequences (issue 40: the shipped prompts stop a model that invents the next input) -------

def test_stop_sequences_are_part_of_the_digest_only_when_there_are_some():
    assert make(stop=()).digest == make().digest  # prompts written before stop sequences keep their digests
    assert make(stop=("\nSentence:",)).digest != make().digest != make(stop=("\nText:",)).digest
    with pytest.raises(InputError, match="stop"):
        make(stop=("",))
    with pytest.raises(InputError, match="stop"):
        make(stop="\nSentence:")


def test_input_labels_come_from_the_template_and_the_stop_sequences():
    assert Prompt("p", "1", "Extract.\nSentence: {text}\nTuples:").input_labels == ("Sentence:", "Extract.")
    assert Prompt("p", "1", "Sentence: {text}\nTuples:").input_labels == ("Sentence:",)
    assert Prompt("p", "1", "{text}", stop=("\nTest Sentence:", "\n\n\n")).input_labels == ("Test Sentence:",)
    assert make().input_labels == ()  # "[{lang}] Sentence:" holds a placeholder: not a label


def test_a_prompt_file_declares_stop_sequences(tmp_path):
    path = tmp_path / "p.toml"
    text = PROMPT_FILE.replace('source = "tests"\n', 'source = "tests"\nstop = ["\\nSentence:"]\n')
    path.write_text(text, encoding="utf-8")
    assert load_prompt(path).stop == ("\nSentence:",)
    path.write_text(text.replace('stop = ["\\nSentence:"]', 'stop = "\\nSentence:"'), encoding="utf-8")
    with pytest.raises(InputError, match="'stop': expected a list of strings"):
        load_prompt(path)


def test_requests_send_the_prompts_stop_sequences_then_the_users():
    from triplebench.harness import Decoding, ServerAdapter

    prompt = Prompt("p", "1", "Sentence: {text}\nTuples:", stop=("\nSentence:",))
    for api in ("chat", "completions"):
        adapter = ServerAdapter("m", "http://127.0.0.1:1/v1", api=api, decoding=Decoding(stop=("\n\n\n", "\nSentence:")))
        sent = adapter.render(prompt, "a b c", {})
        assert sent == (prompt.messages("a b c") if api == "chat" else prompt.completion("a b c"))
        assert adapter.body(sent)["stop"] == ["\nSentence:", "\n\n\n"]
        assert "stop" not in ServerAdapter("m", "http://127.0.0.1:1/v1", api=api).body(adapter.render(make(), "x", {"lang": "en"}))


def test_the_shipped_prompts_declare_stop_sequences():
    from triplebench.openie.task import openie_prompt

    prompt = openie_prompt([("Obama was born in Hawaii .", [["Obama", "was born in", "Hawaii"]])])
    first = prompt.user.splitlines()[0]
    assert first.startswith("Extract every fact") and prompt.version == "3"
    assert prompt.stop == ("\nSentence:", "\n" + first) and prompt.input_labels == ("Sentence:", first)


# -- every prompt stops where the completion layout opens a new block (W4: Gemma 3 270M re-wrote the instruction) --

@pytest.mark.parametrize("user, opening", [
    ("Extract (a; b; c) tuples.\nSentence: {text}\nTuples:", "Extract (a; b; c) tuples."),
    ("Sentence: {text}\nTuples:", "Sentence:"),
    ("\n  Q {{x}}: {text}", "  Q {x}:"),
    ("[{lang}] Sentence: {text}", None),
    ("1. {text}", None),
    ("{text}", None),
])
def test_every_block_of_the_completion_layout_opens_with_a_stop_sequence(user, opening):
    demos = (Demonstration({"text": "A b c .", "lang": "en"}, "(A; b; c)"),) * 2
    prompt = Prompt("p", "1", user, system="You extract.", demonstrations=demos, stop=("\nEnd:",))
    if opening is None:  # a block that opens with the item's own text has no fixed opening
        assert prompt.stop == ("\nEnd:",)
        return
    assert prompt.stop == ("\nEnd:", "\n" + opening)
    sent = prompt.completion("D e f .", lang="en")
    assert sent.count("\n" + opening) == 3  # two demonstrations and the item, each after a newline
    assert replace(prompt, system="Other.").stop == prompt.stop  # a copy adds it once
    assert Prompt("p", "1", user, stop=("\n" + opening,)).stop == ("\n" + opening,)


def test_the_opening_stop_is_part_of_the_digest():
    with_opening, without = Prompt("p", "1", "Extract.\nSentence: {text}"), Prompt("p", "1", "Sentence: {text}")
    assert with_opening.digest != replace(with_opening, user="Extract!\nSentence: {text}").digest
    assert without.stop == ("\nSentence:",) and without.digest != Prompt("p", "1", "[{lang}] Sentence: {text}").digest


def test_a_reply_is_read_up_to_the_instruction_the_model_rewrites():
    from triplebench.harness.parse import parse_reply, prompt_shown
    from triplebench.openie.task import openie_prompt

    prompt = openie_prompt([("Obama was born in Hawaii .", [["Obama", "was born in", "Hawaii"]])])
    sentence = "32.7 % of all households were made up of individuals ."
    instruction = prompt.user.split("\n\nSentence:")[0]
    reply = f"(32.7 % of all households; were made up of; individuals)\n\n{instruction}\n\nSentence: Paris is big .\nTuples:\n(Paris; is; big)"
    got = parse_reply(reply, arity="nary", finish_reason="stop", shown=prompt_shown(prompt, sentence))
    assert [e.arguments for e in got.extractions] == [("32.7 % of all households", "were made up of", "individuals")]
    assert got.outcome == "ok" and "Extract every fact" in got.reason


def test_the_prompts_stop_sequences_are_part_of_the_request_key():
    from triplebench.harness.exchange import request_key
    from triplebench.harness.prompts import with_stop

    identity = {"kind": "chat", "url": "http://127.0.0.1:1/v1", "model": "m", "decoding": {}}
    messages = [{"role": "user", "content": "x"}]
    assert request_key(identity, with_stop(messages, ())) == request_key(identity, messages)
    assert request_key(identity, with_stop(messages, ("\nSentence:",))) != request_key(identity, messages)


@pytest.mark.data
def test_genres_prompts_stop_at_the_next_prompt_in_either_case_and_at_their_instruction(built):
    from triplebench.benchmarks.genres.task import extraction_prompt
    from triplebench.location import DataLocation

    for name in ("general_bag", "bio_bag"):
        prompt = extraction_prompt(name, DataLocation.default())
        assert prompt.version == "3" and prompt.stop[:2] == ("\nprompt:", "\nPrompt:")
        assert prompt.stop[2:] == ("\n" + prompt.user.splitlines()[0].rstrip(),) and prompt.stop[2].startswith("\nGiven a prompt")
