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
    "configure an OpenAI-compatible judge: --judge openai --judge-model MODEL [--judge-url URL] "
    "(the paper's judge is gpt-3.5-turbo-instruct at api.openai.com with $OPENAI_API_KEY; a local server works "
    "too, e.g. vLLM `--judge-url http://localhost:8000/v1`, llama.cpp server `http://localhost:8080/v1`, "
    "Ollama `--judge-url http://localhost:11434/v1 --judge-api chat --judge-model llama3`); "
    "Python: judge='openai', judge_url=..., judge_model=..."
)


def judge(opts: dict[str, Any], dataset: str, location: DataLocation, given: Any = None):
    """The FS/GS judge the options ask for (``given``: a user object with the Judge methods).

    The archived verdicts and the judge's prompt templates are read from the built dataset at ``location``.
    """
    from .judges import ArchivedJudge, OpenAIJudge, load_prompts

    if given is not None:
        return given
    if opts["judge"] == "archived":
        return ArchivedJudge(dataset, location, model=opts["archived_model"], seed=opts["archived_seed"])
    from .agreement_store import stored_agreement

    base, key = endpoint("judge_url", opts["judge_url"], opts["judge_key_env"], opts["insecure_http"])
    found = OpenAIJudge(base_url=base, model=opts["judge_model"], api_key=key, api=opts["judge_api"],
                        insecure_http=opts["insecure_http"],
                        concurrency=opts["judge_concurrency"], timeout=opts["judge_timeout"],
                        cache=judge_cache(opts["judge_cache"]), prompts=load_prompts(location))
    found.agreement = stored_agreement(found.base_url, found.model, dataset)  # the last `judge-check` of this judge
    return found


def judge_cache(path: str | None):
    """The SQLite reply cache at ``path`` (default: the per-user one), opened and checked.

    Raises
    ------
    InputError
        The path is a directory, cannot be created or written, or the file is not a
        judge cache. It is never deleted: it holds paid replies.
    """
    import sqlite3

    from ...io import output_file
    from .judges import JudgeCache, default_cache_path

    target = output_file(path, "judge cache (SQLite)") if path else default_cache_path()
    where = "pass --judge-cache a writable path" if path else "set $TRIPLEBENCH_CACHE or pass --judge-cache a writable path"
    try:
        return JudgeCache(target)
    except (OSError, sqlite3.OperationalError) as exc:
        cause = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise InputError(target, None, f"cannot create or write the judge cache here ({cause}): {where}",
                         field="judge_cache") from None
    except sqlite3.DatabaseError as exc:
        raise InputError(target, None, f"not a triplebench judge cache ({exc}); it is left untouched (it may hold "
                         "paid replies): move it away or pass --judge-cache another path", field="judge_cache") from None


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

#: the judge options of ``score genres`` (``judge_check`` takes the same, with an OpenAI-compatible judge)
JUDGE_SPEC: tuple[Option, ...] = (
    Option("judge", "choice", "archived", "FS/GS judge: the archived upstream verdicts, or an OpenAI-compatible "
           "server", choices=("archived", "openai")),
    Option("archived_model", "str", None, "archived judge: only this upstream run's verdicts (e.g. gpt-4)"),
    Option("archived_seed", "int", None, "archived judge: only this seed's verdicts", minimum=0),
    Option("judge_url", "str", None, "judge server base URL [default: $OPENAI_BASE_URL or https://api.openai.com/v1]"),
    Option("judge_key_env", "str", None, "environment variable holding the judge server's API key"),
    Option("judge_model", "str", None, "judge model [default: $GENRES_JUDGE_MODEL or gpt-3.5-turbo-instruct]"),
    Option("judge_api", "choice", "completions", "the judge server's API", choices=("completions", "chat")),
    Option("judge_concurrency", "int", 32, "judge requests in flight (vLLM: 32-64; llama.cpp: its --parallel slots; "
           "Ollama: $OLLAMA_NUM_PARALLEL; a rate-limited API: fewer)", minimum=1, maximum=64),
    Option("judge_timeout", "float", 60.0, "seconds one judge reply may take in all (a deadline: connecting, sending, "
           "the whole reply read)", minimum=0.1, maximum=3600),
    Option("judge_cache", "path", None, "SQLite cache of judge replies [default: the per-user cache]"),
    Option("max_unparsable", "float", 0.05, "openai judge: the largest share of a score's judged triples whose reply "
           "does not answer the question (FS: true/false; GS: sub-triples or N/A); past it FS/GS are refused, below "
           "it those triples are left out", minimum=0.0, maximum=1.0),
)
