"""Factories of the GenRES backends from the scorer's options (judge, embedder, topic model).

Every option is checked here before anything loads, so a bad URL or cache path is an
:class:`~triplebench.errors.InputError` naming the option, not a traceback after a
model load. Credentials: ``$OPENAI_API_KEY`` is sent only to ``api.openai.com``; to
send a key to another server name the variable that holds it (``judge_key_env``).
Plain ``http`` is accepted only for loopback servers (a local vLLM, llama.cpp server
or Ollama) unless ``insecure_http=True``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...endpoints import endpoint
from ...errors import InputError
from ...options import Option

if TYPE_CHECKING:
    from ...location import DataLocation

#: what to do when FS/GS have no judge for a new system
JUDGE_HELP = (
    "name a judge model like run's: --judge openai:MODEL[@URL] (the paper's judge is openai:gpt-3.5-turbo-instruct at "
    "api.openai.com with $OPENAI_API_KEY; a local server works too, e.g. vLLM `--judge openai:M@http://localhost:8000/v1`, "
    "llama.cpp server `@http://localhost:8080/v1`, Ollama `--judge openai:llama3@http://localhost:11434/v1 --judge-api chat`), "
    "--judge hf:PATH_OR_NAME or --judge py:module:function; Python: judge='openai:MODEL@URL'"
)

#: the spellings of a judge model (``openai`` alone: the server and model from --judge-url and --judge-model)
JUDGE_FORMS = "archived, openai:MODEL[@URL], hf:PATH_OR_NAME, py:module:function, or openai with --judge-model/--judge-url"
#: the judge's options named by the harness's messages, as the judge's options
_OPTION_OF = {"url": "judge_url", "key_env": "judge_key_env", "api": "judge_api", "model": "judge"}


def judge(opts: dict[str, Any], dataset: str, location: DataLocation, given: Any = None, *, stream: Any = None):
    """The FS/GS judge the options ask for (``given``: a user object with the Judge methods).

    The archived verdicts and the judge's prompt templates are read from the built dataset at ``location``;
    a model judge (:class:`~.model_judge.ModelJudge`) gets its reply cache (:func:`judge_cache`) and the last
    ``judge-check`` of its server and model. ``--judge openai`` with ``--judge-model M --judge-url U`` is
    ``--judge openai:M@U`` (the model defaulting to ``$GENRES_JUDGE_MODEL``, else the paper's).

    Raises
    ------
    InputError
        An unknown judge spelling, ``--judge-url``/``--judge-model`` beside a spec that names its own,
        a URL or key the endpoint rules refuse, a cache that cannot be used (each naming its option).
    """
    import os

    from .judges import ArchivedJudge, load_prompts
    from .model_judge import PAPER_MODEL, ModelJudge

    if given is not None:
        return given
    if opts["judge"] == "archived":
        return ArchivedJudge(dataset, location, model=opts["archived_model"], seed=opts["archived_seed"])
    from .agreement_store import stored_agreement

    spec = opts["judge"]
    if spec == "openai":
        spec = f"openai:{opts['judge_model'] or os.environ.get('GENRES_JUDGE_MODEL') or PAPER_MODEL}"
    elif opts["judge_model"]:
        raise InputError.option("judge_model", opts["judge_model"], f"no --judge-model with --judge {spec}: it names the "
                                "model (openai:MODEL[@URL])")
    else:
        check_judge(spec)
    cache, old = judge_cache(opts["judge_cache"])
    try:
        found = ModelJudge(spec, load_prompts(location), url=opts["judge_url"], api=opts["judge_api"],
                           key_env=opts["judge_key_env"], insecure_http=opts["insecure_http"],
                           concurrency=opts["judge_concurrency"], timeout=opts["judge_timeout"], cache=cache, old_cache=old,
                           stream=stream)
    except InputError as exc:
        if cache is not None:
            cache.close()
        if old is not None:
            old.close()
        if exc.source is None and exc.field in _OPTION_OF:  # the harness names run's options: name the judge's
            named = "judge" if exc.field == "url" and not opts["judge_url"] else _OPTION_OF[exc.field]
            raise InputError(None, None, exc.detail, field=named) from None
        raise
    if found.base_url and found.model:
        found.agreement = stored_agreement(found.base_url, found.model, dataset)  # the last `judge-check` of this judge
    return found


def check_judge(value: Any) -> None:
    """Refuse a ``judge`` option that is none of the judge's spellings (:data:`JUDGE_FORMS`); a judge object passes.

    Raises
    ------
    InputError
        A string that is not ``archived``, ``openai`` or ``openai:``/``hf:``/``py:`` followed by a name.
    """
    if isinstance(value, str) and value not in ("archived", "openai") and (
            value.partition(":")[0] not in ("openai", "hf", "py") or not value.partition(":")[2]):
        raise InputError.option("judge", value, JUDGE_FORMS)


def judge_cache(path: str | None):
    """The reply cache a model judge uses (``path``, else ``run``'s default one), and an old judge cache to read.

    An old judge cache (:mod:`.old_judge_cache`) is read from ``path`` when ``path`` is one (the replies
    then go to the default reply cache), else from its old default place when a file is there.

    Returns
    -------
    tuple of (ReplyCache, OldJudgeCache or None)
        The open reply cache; the old judge cache, opened read-only, or None.

    Raises
    ------
    InputError
        The path is a directory, cannot be created or written, or the file is neither a reply cache nor an
        old judge cache. It is never deleted: it holds paid replies.
    """
    import sqlite3

    from ...errors import TripleBenchError
    from ...harness.cache import ReplyCache, default_cache_path
    from ...io import output_file
    from .old_judge_cache import OldJudgeCache, default_path, is_old_judge_cache

    old_path = Path(path) if path and is_old_judge_cache(path) else default_path()
    if path and old_path != Path(path):
        target = output_file(path, "reply cache (SQLite)")
    else:
        target = default_cache_path()
    where = "pass --judge-cache a writable path" if path else "set $TRIPLEBENCH_CACHE or pass --judge-cache a writable path"
    if target.is_dir():
        raise InputError(target, None, f"is a directory, not a reply cache file: {where}", field="judge_cache")
    try:
        cache = ReplyCache(target)
    except TripleBenchError as exc:
        cause = str(exc).removeprefix(f"{target}: reply cache: ")
        raise InputError(target, None, f"cannot be the judge's reply cache: {cause}; it is left untouched (it may hold paid "
                         f"replies): {where}", field="judge_cache") from None
    if not is_old_judge_cache(old_path):
        return cache, None
    try:
        return cache, OldJudgeCache(old_path)
    except sqlite3.Error as exc:
        cache.close()
        raise InputError(old_path, None, f"an old judge cache that cannot be read ({exc}): move it away",
                         field="judge_cache") from None


def embedder(opts: dict[str, Any], given: Any = None):
    """The US/CS embedder, wrapped so each distinct string is embedded once and its vectors kept.

    Vectors are kept in the ``embedding_cache`` folder when given; for the built-in ``minilm``
    otherwise in the per-user cache, one store per set (best effort: an unwritable cache
    directory, or ``TRIPLEBENCH_NO_CACHE``, means no cache); for other embedders nowhere.

    Raises
    ------
    InputError
        ``embedding_cache`` is a file, or a folder holding another embedder's vectors; ``minilm_dir``
        lacks a model file.
    TripleBenchError
        The minilm embedder's files are nowhere (:func:`.weights.model_folder`).
    """
    from .embedders import CachedEmbedder, MiniLMEmbedder, OpenAIEmbedder, default_cache_path

    if isinstance(given, CachedEmbedder):
        return given
    default = None
    if given is not None:
        backend = given
    elif opts["embedder"] == "minilm":
        from ...cache import enabled

        backend = MiniLMEmbedder(folder=opts.get("minilm_dir"))
        if opts.get("dataset") and enabled():  # TRIPLEBENCH_NO_CACHE: vectors in memory only
            default = default_cache_path(backend.name, opts["dataset"])
    else:
        base, key = endpoint("embed_url", opts["embed_url"], opts["embed_key_env"], opts["insecure_http"])
        backend = OpenAIEmbedder(base_url=base, model=opts["embed_model"], api_key=key, insecure_http=opts["insecure_http"])
    if not opts["embedding_cache"]:
        return CachedEmbedder(backend, default, best_effort=True)
    cache = Path(opts["embedding_cache"])
    try:
        return CachedEmbedder(backend, cache)
    except (OSError, ValueError) as exc:
        raise InputError(cache, None, f"not an embedding cache of this embedder ({exc}); it is left untouched: "
                         "pass another --embedding-cache folder", field="embedding_cache") from None


def topic_model_path(opts: dict[str, Any], dataset: str, location: DataLocation) -> Path:
    """The LDA model file TS will use: ``--topic-model``, else the set's model trained from the data at
    ``location`` (:func:`~.topics.model_for`: the checkout's, or the per-user cache's, trained once).

    Raises
    ------
    InputError
        The given file is missing, or there is no ``corpora`` config to train from.
    """
    from ...io import input_file
    from .topics import model_for

    if opts["topic_model"]:
        return input_file(opts["topic_model"], "LDA topic model (.npz)")
    return model_for(dataset, location)


def topic_model(opts: dict[str, Any], dataset: str, location: DataLocation, given: Any = None):
    """The LDA topic model of ``dataset`` (``given``: a loaded :class:`~.topics.TopicModel`)."""
    from .topics import TopicModel

    if given is not None:
        return given
    path = topic_model_path(opts, dataset, location)
    try:
        return TopicModel.load(path)
    except (OSError, ValueError, KeyError) as exc:
        raise InputError(path, None, f"not a triplebench LDA topic model (.npz): {exc}", field="topic_model") from None


#: plain http to a server that is not on this machine (judge and embedder alike)
INSECURE_HTTP = Option("insecure_http", "bool", False, "allow plain http to a judge/embedding server that is not on "
                       "this machine")

#: the judge options of ``score genres`` (``judge_check`` takes the same, with a model judge)
JUDGE_SPEC: tuple[Option, ...] = (
    Option("judge", "str", "archived", "FS/GS judge: archived (the paper's judge's verdicts on the published runs' "
           "triples), or a model named like run's: openai:MODEL[@URL], hf:PATH_OR_NAME, py:module:function"),
    Option("archived_model", "str", None, "archived judge: only this upstream run's verdicts (e.g. gpt-4)"),
    Option("archived_seed", "int", None, "archived judge: only this seed's verdicts", minimum=0),
    Option("judge_url", "str", None, "with --judge openai: the server's base URL [default: $OPENAI_BASE_URL or "
           "https://api.openai.com/v1] (--judge openai:MODEL@URL says it in one)"),
    Option("judge_key_env", "str", None, "environment variable holding the judge server's API key"),
    Option("judge_model", "str", None, "with --judge openai: the model [default: $GENRES_JUDGE_MODEL or "
           "gpt-3.5-turbo-instruct]"),
    Option("judge_api", "choice", "completions", "the judge server's API (the paper's judge: completions)",
           choices=("completions", "chat")),
    Option("judge_concurrency", "int", 32, "judge requests in flight (vLLM: 32-64; llama.cpp: its --parallel slots; "
           "Ollama: $OLLAMA_NUM_PARALLEL; a rate-limited API: fewer)", minimum=1, maximum=64),
    Option("judge_timeout", "float", 60.0, "seconds one judge reply may take in all (a deadline: connecting, sending, "
           "the whole reply read)", minimum=0.1, maximum=3600),
    Option("judge_cache", "path", None, "the reply cache of the judge's replies (run's format) [default: run's per-user "
           "reply cache]; an old GenRES judge cache given here is read and its replies copied there"),
    Option("max_unparsable", "float", 0.05, "model judge: the largest share of a score's judged triples whose reply "
           "does not answer the question (FS: true/false; GS: sub-triples or N/A); past it FS/GS are refused, below "
           "it those triples are left out", minimum=0.0, maximum=1.0),
)
