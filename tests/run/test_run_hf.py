"""The local Hugging Face adapter against a tiny GPT-2 built here (random weights, a byte-level BPE
trained on a few lines): no download. It needs the run-hf extra (transformers, torch); without it
these tests fail naming the extra, they are not skipped."""

from __future__ import annotations

import sys

import pytest
from run_toy import ToyTask, texts

from triplebench.errors import InputError, TripleBenchError
from triplebench.harness import Decoding, adapter_from_spec, run
from triplebench.harness.prompts import Prompt

TEMPLATE = "{% for m in messages %}<{{ m.role }}>{{ m.content }}\n{% endfor %}{% if add_generation_prompt %}<assistant>{% endif %}"


def _transformers():
    try:
        import torch  # noqa: F401
        import transformers
    except ImportError as exc:
        pytest.fail(f"the hf: adapter tests need the run-hf extra (transformers and torch; missing {exc.name}): "
                    "pip install 'triplebench[run-hf]'")
    return transformers


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """Two copies of one tiny model: without and with a chat template."""
    transformers = _transformers()
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=320, special_tokens=["<eos>"], initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tokenizer.train_from_iterator([*texts(50), "(Obama; was born in; Hawaii)", "Sentence: é ü ß"], trainer)
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tokenizer, eos_token="<eos>", pad_token="<eos>")
    eos = fast.convert_tokens_to_ids("<eos>")
    torch.manual_seed(0)
    model = transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=len(fast), n_positions=128, n_embd=32, n_layer=1, n_head=2,
                                                                 bos_token_id=eos, eos_token_id=eos))
    plain, chat = tmp_path_factory.mktemp("plain"), tmp_path_factory.mktemp("chat")
    for folder in (plain, chat):
        model.save_pretrained(folder)
        fast.save_pretrained(folder)
    fast.chat_template = TEMPLATE
    fast.save_pretrained(chat)
    return plain, chat


def make(path, **kw):
    from triplebench.harness.adapters.hf import HFAdapter

    return HFAdapter(str(path), **kw)


def test_greedy_replies_with_logprobs_counts_and_a_stable_key(tiny, tmp_path):
    plain, _ = tiny
    adapter = make(plain, decoding=Decoding(max_tokens=6, logprobs=True), batch_size=3)
    assert adapter.identity()["revision"].startswith("files:") and adapter.identity()["chat_template"] is False
    task = ToyTask("toy/a", texts(5))
    # random weights write no tuple within 6 tokens: nothing to score, the replies counted and cached all the same
    refused = run(adapter, [task], cache=tmp_path / "c.sqlite", out=tmp_path / "run", quiet=True)["toy/a"]
    assert refused.status == "refused" and refused.reason.startswith("not one of the 5 replies holds an extraction (5 truncated)")
    from triplebench.harness.cache import ReplyCache
    from triplebench.harness.exchange import request_key

    cache = ReplyCache(tmp_path / "c.sqlite")
    keys = [request_key(adapter.identity(), adapter.render(task.prompt, item.text, item.fields)) for item in task.inputs()]
    replies = list(cache.get_many(keys).values())
    cache.close()
    assert len(replies) == 5
    for reply in replies:
        assert reply.finish_reason in ("length", "stop") and 0 < reply.completion_tokens <= 6 and reply.prompt_tokens > 0
        assert reply.tokens is not None and "".join(t for t, _ in reply.tokens) == reply.text
        assert all(lp <= 0 for _, lp in reply.tokens)
    again = make(plain, decoding=Decoding(max_tokens=6, logprobs=True), batch_size=1)
    assert [r.text for r in again_replies(again, task)] == [r.text for r in again_replies(adapter, task)]  # greedy, batch-independent


def again_replies(adapter, task):
    import threading

    adapter.start(threading.Event(), 1)
    try:
        return adapter.complete([adapter.render(task.prompt, item.text, item.fields) for item in task.inputs()])
    finally:
        adapter.close()


def test_a_cached_rerun_never_loads_the_weights(tiny, tmp_path, monkeypatch):
    plain, _ = tiny
    task = ToyTask("toy/a", texts(3))
    first = run(make(plain, decoding=Decoding(max_tokens=4)), [task], cache=tmp_path / "c.sqlite", quiet=True)["toy/a"]
    assert "nothing to score" in first.reason  # random weights: no tuple, but every reply cached
    import transformers

    def refuse(*args, **kwargs):
        raise AssertionError("the weights were loaded")

    monkeypatch.setattr(transformers.AutoModelForCausalLM, "from_pretrained", refuse)
    again = run(make(plain, decoding=Decoding(max_tokens=4)), [task], cache=tmp_path / "c.sqlite", quiet=True)["toy/a"]
    assert again.reason == first.reason  # the same answer from the cache alone


def test_the_chat_template_renders_what_is_sent(tiny):
    plain, chat = tiny
    prompt = Prompt("p", "1", "Text: {text}", system="Extract.")
    assert make(chat).render(prompt, "a b c", {}) == "<system>Extract.\n<user>Text: a b c\n<assistant>"
    assert make(chat, chat_template=False).render(prompt, "a b c", {}) == "Extract.\n\nText: a b c\n"
    assert make(plain).render(prompt, "a b c", {}) == "Extract.\n\nText: a b c\n"
    with pytest.raises(InputError, match="chat template"):
        make(plain, chat_template=True)


def test_the_spec_form_and_stop_sequences(tiny):
    _, chat = tiny
    task = ToyTask("toy/a", texts(2))
    free = again_replies(adapter_from_spec(f"hf:{chat}", decoding=Decoding(max_tokens=8, logprobs=True)), task)
    stop = free[0].text[1:3]
    cut = again_replies(adapter_from_spec(f"hf:{chat}", decoding=Decoding(max_tokens=8, logprobs=True, stop=(stop,))), task)
    first = free[0].text.index(stop)
    assert cut[0].text == free[0].text[:first] and cut[0].finish_reason == "stop"
    assert "".join(t for t, _ in cut[0].tokens) == cut[0].text
    with pytest.raises(InputError, match=r"'max_tokens': expected at most \d+ for .* \(context 128 tokens"):
        run(f"hf:{chat}", [task], cache=False, quiet=True)  # the default 512 tokens do not fit


def test_sampling_is_refused(tiny):
    plain, _ = tiny
    with pytest.raises(InputError, match="decodes greedily"):
        make(plain, decoding=Decoding(temperature=0.7))


def test_a_missing_extra_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "transformers", None)
    with pytest.raises(TripleBenchError, match=r"needs the optional packages transformers and torch .*triplebench\[run-hf\]"):
        make("anything")


def test_batches_sorted_by_length_reply_in_the_inputs_order(tiny, monkeypatch):
    """Inputs of mixed lengths come back in their order, each as generated alone; the batches the
    model sees hold inputs sorted by length (longest first), ``batch_size`` at most."""
    plain, _ = tiny
    texts_ = ["a", "Sentence: é ü ß and a much longer text than the others", "bb", "(Obama; was born in; Hawaii)", "c d"]
    alone = [again_replies_of(make(plain, decoding=Decoding(max_tokens=5), batch_size=1), [t])[0] for t in texts_]
    adapter = make(plain, decoding=Decoding(max_tokens=5), batch_size=2)
    widths = []
    generate = adapter._generate
    monkeypatch.setattr(adapter, "_generate", lambda ids, inputs: widths.append([len(i) for i in ids]) or generate(ids, inputs))
    together = again_replies_of(adapter, texts_)
    assert [(r.text, r.finish_reason, r.prompt_tokens, r.completion_tokens) for r in together] == \
        [(r.text, r.finish_reason, r.prompt_tokens, r.completion_tokens) for r in alone]
    flat = [w for batch in widths for w in batch]
    assert flat == sorted(flat, reverse=True) and len(widths) == 3 and all(len(b) <= 2 for b in widths)


def test_tokens_only_when_logprobs_are_asked_and_they_concatenate_to_the_reply(tiny):
    plain, _ = tiny
    texts_ = ["Sentence: é ü ß", "(Obama; was born in; Hawaii)"]
    without = again_replies_of(make(plain, decoding=Decoding(max_tokens=12)), texts_)
    assert all(r.tokens is None for r in without)
    asked = again_replies_of(make(plain, decoding=Decoding(max_tokens=12, logprobs=True)), texts_)
    assert [r.text for r in asked] == [r.text for r in without]
    for reply in asked:
        assert len(reply.tokens) == reply.completion_tokens and "".join(t for t, _ in reply.tokens) == reply.text


def test_each_token_text_is_what_it_adds_to_the_decoded_prefix(tiny):
    """The windowed decoding gives each token what decoding the whole prefix adds (where that is
    a whole character), multi-byte characters included."""
    plain, _ = tiny
    adapter = make(plain)
    ids = adapter.tokenizer("Sentence: é ü ß (Obama; was born in; Hawaii)")["input_ids"]
    pieces = adapter._pieces(ids)
    by_prefix, before = [], ""
    for k in range(1, len(ids) + 1):
        now = adapter.tokenizer.decode(ids[:k])
        by_prefix.append(now[len(before):] if not now.endswith("\ufffd") else "")
        before = now if not now.endswith("\ufffd") else before
    assert pieces == by_prefix and "".join(pieces) == adapter.tokenizer.decode(ids)


def test_batch_size_auto_and_a_bad_one(tiny):
    plain, _ = tiny
    from triplebench.harness.adapters.hf import SORT_WINDOW

    adapter = adapter_from_spec(f"hf:{plain}", decoding=Decoding(max_tokens=4))
    assert adapter.generate_batch == "auto" and adapter.batch_size == SORT_WINDOW
    assert len(again_replies_of(adapter, ["a", "bb"])) == 2
    with pytest.raises(InputError, match="an integer >= 1 or auto"):
        make(plain, batch_size="big")


def again_replies_of(adapter, inputs):
    import threading

    adapter.start(threading.Event(), 1)
    try:
        return adapter.complete(inputs)
    finally:
        adapter.close()
