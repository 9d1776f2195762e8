"""A judge that is a model: asked through the harness like the model under test.

``--judge`` names it the way ``run`` names a model (:mod:`triplebench.harness.adapters.spec`):
``openai:MODEL@URL`` (any OpenAI-compatible server; the reference's call is
``openai:gpt-3.5-turbo-instruct`` on the completions API), ``hf:PATH_OR_NAME`` (a local Hugging
Face model) or ``py:module:function`` (a callable given the filled-in prompts, returning one reply
string each). Each of the paper's two questions is the dataset's template (``prompts`` config,
stripped) with ``$TEXT$`` and ``$TRIPLE$`` filled in, the triple as ``json.dumps`` like the
reference, sent as it is (:func:`~triplebench.harness.runner.verbatim_requests`): factualness
with max_tokens 10, granularity with 200, both at temperature 0.3 (the reference's).

The prompts go through the harness's ask path (:func:`~triplebench.harness.runner.ask_requests`):
the reply cache ``run`` uses (same file format, same keys: a server's URL, model, API and decoding
and the text sent), each distinct prompt asked once, ``concurrency`` requests in flight, the
harness's progress line and HTTP rules (:mod:`triplebench.http`, :mod:`triplebench.endpoints`:
``$OPENAI_API_KEY`` only to api.openai.com, plain http only to loopback unless ``insecure_http``).
A request that fails for good fails the judge. A callable's replies are not cached (the harness's
rule for ``py:``).

A reply is a verdict only when it answers the question asked (:mod:`.judge_replies`): FS
``true``/``false``, GS sub-triples or ``N/A``; any other reply is None, counted by the scorer
(``checks_replies``). Replies of a judge cache written before this judge asked through the harness
(:mod:`.old_judge_cache`) are copied into the reply cache as their prompts are asked, with a
line on the progress stream saying how many.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

from ...errors import TripleBenchError
from ...harness.adapters import Decoding, ServerAdapter, adapter_from_spec
from ...harness.cache import ReplyCache
from ...harness.exchange import Reply
from ...harness.runner import ask_requests, verbatim_requests
from .judge_replies import answers_granularity, count_splits, is_well_formed_factualness, parse_factualness
from .judges import Triple, triple_key
from .old_judge_cache import OldJudgeCache, old_key

#: the paper's judge model (the reference's call)
PAPER_MODEL = "gpt-3.5-turbo-instruct"
#: per question: the template's name in the ``prompts`` config, max_tokens, the score it serves
QUESTIONS = {"FS": ("fact_checker", 10), "GS": ("granularity_checker", 200)}


class ModelJudge:
    """An FS/GS judge behind an adapter spec (see the module docstring).

    Parameters
    ----------
    spec : str
        ``openai:MODEL[@URL]``, ``hf:PATH_OR_NAME`` or ``py:module:function``.
    prompts : dict of str to str
        The judge templates (``fact_checker``, ``granularity_checker``) of the built dataset.
    url : str or None
        A server's base URL when ``spec`` does not carry one (default ``$OPENAI_BASE_URL``, else OpenAI's).
    api : {'completions', 'chat'}
        A server's API (the reference's call: completions).
    key_env : str or None
        The variable holding a server's API key (``$OPENAI_API_KEY`` goes only to api.openai.com).
    insecure_http : bool
        Allow plain http to a server that is not on this machine.
    concurrency : int
        Requests in flight.
    timeout : float
        Seconds one server reply may take in all.
    retries : int
        Further attempts after a retryable server failure.
    temperature : float
        Sampling temperature (the reference's 0.3).
    cache : ReplyCache or None
        The reply cache (None: none).
    old_cache : OldJudgeCache or None
        An old judge cache to copy replies from (:mod:`.old_judge_cache`).
    quiet : bool
        No progress line.
    stream : file or None
        Where progress and the old cache's line go (default stderr).

    Raises
    ------
    InputError
        A bad spec or server option (the harness's messages: :func:`~triplebench.harness.adapters.adapter_from_spec`).
    """

    def __init__(self, spec: str, prompts: dict[str, str], *, url: str | None = None, api: str = "completions",
                 key_env: str | None = None, insecure_http: bool = False, concurrency: int = 32, timeout: float = 60.0,
                 retries: int = 5, temperature: float = 0.3, cache: ReplyCache | None = None,
                 old_cache: OldJudgeCache | None = None, quiet: bool = False, stream: IO[str] | None = None) -> None:
        self.adapters = {score: adapter_from_spec(spec, url=url, api=api, key_env=key_env, insecure_http=insecure_http,
                                                  timeout=timeout, retries=retries,
                                                  decoding=Decoding(max_tokens=tokens, temperature=temperature))
                         for score, (_, tokens) in QUESTIONS.items()}
        first = self.adapters["FS"]
        for adapter in self.adapters.values():  # a server's messages name the judge's options
            adapter.flags = ("--judge-url" if url else "--judge", "--judge-key-env")
        identity = first.identity()
        self.server = isinstance(first, ServerAdapter)
        #: the server's base URL (empty for a local model or a callable) and the model's name
        self.base_url, self.model = identity["url"], identity["model"]
        self.api, self.temperature = api, temperature
        self.name = f"openai:{self.model}" if self.server else first.label
        self.templates = {name: text.strip() for name, text in prompts.items()}
        self.concurrency, self.quiet, self.stream = concurrency, quiet, stream
        self.cache = cache if first.cacheable else None
        self.old_cache = old_cache if self.server and self.cache is not None else None
        for unused in {cache, old_cache} - {self.cache, self.old_cache, None}:  # a callable's replies are not cached
            unused.close()
        #: replies asked from the model, answered from the reply cache, copied from an old judge cache
        self.calls = self.cache_hits = self.migrated = 0
        #: None from this judge is a reply that does not answer the question
        self.checks_replies = True
        #: per score (FS, GS) the first such reply, for the message that refuses them
        self.unparsable_example: dict[str, str] = {}
        #: the stored ``judge-check`` result of this server and model (set by the backends), for a result's details
        self.agreement: dict[str, Any] | None = None

    def _prompt(self, template: str, text: str, triple: str) -> str:
        return self.templates[template].replace("$TEXT$", text).replace("$TRIPLE$", triple)

    def _ask(self, score: str, pairs: Sequence[tuple[str, str]], progress: Callable[[int], None] | None) -> list[str]:
        """The reply to every ``(text, triple key)``, each distinct prompt asked once (cache first)."""
        template, _ = QUESTIONS[score]
        adapter = self.adapters[score]
        distinct = list(dict.fromkeys(pairs))
        keys, requests = verbatim_requests(adapter, [self._prompt(template, *pair) for pair in distinct], f"genres-judge-{score}")
        if self.old_cache is not None:
            self._migrate(score, distinct, keys)
        answers = ask_requests(adapter, requests, cache=self.cache, concurrency=self.concurrency, quiet=self.quiet,
                               stream=self.stream)
        self.calls += answers.stats.asked
        self.cache_hits += answers.stats.cached
        by_pair = {}
        for pair, key in zip(distinct, keys):
            reply = answers.replies[key]
            if reply.extractions is not None:
                raise TripleBenchError(f"{self.name}: the judge returned extractions, not a reply string, for the {score} "
                                       f"prompt of {pair[1]}: a judge callable returns one reply string per prompt")
            by_pair[pair] = reply.text
        if progress:
            progress(len(pairs))
        return [by_pair[pair] for pair in pairs]

    def _migrate(self, score: str, pairs: Sequence[tuple[str, str]], keys: Sequence[str]) -> None:
        """Copy into the reply cache the old judge cache's replies to these prompts that the reply cache lacks."""
        template, tokens = QUESTIONS[score]
        asked = (self.base_url, self.model, self.api, repr(float(self.temperature)), str(tokens),
                 hashlib.sha256(self.templates[template].encode("utf-8")).hexdigest())
        new_of = {old_key(*asked, *pair): key for pair, key in zip(pairs, keys)}
        found = self.old_cache.get_many(new_of)
        if not found:
            return
        have = self.cache.get_many(new_of[old] for old in found)
        copied = 0
        for old, text in found.items():
            if new_of[old] not in have:
                self.cache.put(new_of[old], Reply(text))
                copied += 1
        self.migrated += copied
        if copied and not self.quiet:
            print(f"{self.name}: {copied:,} {score} replies copied from the old judge cache {self.old_cache.path} into the reply "
                  f"cache {self.cache.path} (the old file is left as it is; {len(pairs) - len(found):,} of these {len(pairs):,} "
                  "prompts are not in it)", file=self.stream if self.stream is not None else sys.stderr, flush=True)

    def factualness(self, items: Sequence[tuple[str, Triple]], progress: Callable[[int], None] | None = None) -> list[bool | None]:
        """Ask the fact-checker prompt for each (text, triple).

        Parameters
        ----------
        items : sequence of (str, triple)
            The text and the triple.
        progress : callable or None
            Called with the number of items once they are judged.

        Returns
        -------
        list of bool or None
            True/False, None for a reply other than true/false.
        """
        pairs = [(text, triple_key(triple)) for text, triple in items]
        return [parse_factualness(reply) if is_well_formed_factualness(reply) else self._unparsable("FS", reply)
                for reply in self._ask("FS", pairs, progress)]

    def granularity(self, triples: Sequence[Triple], progress: Callable[[int], None] | None = None,
                    texts: Sequence[str] | None = None) -> list[int | None]:
        """Ask the granularity prompt once per distinct triple (it has no text).

        Parameters
        ----------
        triples : sequence of triple
            The triples.
        progress : callable or None
            Called with the number of triples once they are judged.
        texts : sequence of str or None
            Unused: the prompt holds no text.

        Returns
        -------
        list of int or None
            The split counts, None for a reply that neither lists sub-triples nor says N/A.
        """
        pairs = [("", triple_key(t)) for t in triples]
        return [count_splits(reply) if answers_granularity(reply) else self._unparsable("GS", reply)
                for reply in self._ask("GS", pairs, progress)]

    def _unparsable(self, score: str, reply: str) -> None:
        """No verdict for ``reply``; the first such reply of ``score`` is kept as the example."""
        self.unparsable_example.setdefault(score, reply)

    def close(self) -> None:
        """Close the reply cache and the old judge cache."""
        if self.cache is not None:
            self.cache.close()
        if self.old_cache is not None:
            self.old_cache.close()
