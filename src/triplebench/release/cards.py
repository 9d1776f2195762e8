"""The cards of a release: dataset repo cards and evaluate-module Space cards.

A dataset card is the checkout's ``datasets/<benchmark>/README.md`` with, in its
YAML, ``version`` set to the release and, in its prose, the release's changelog
section (and a note on every config left out for its licence). A Space card is
the module's ``metrics/<benchmark>/README.md`` with the Space YAML that
``evaluate`` writes for its own modules (``sdk: gradio``, ``app_file: app.py``, ...).
"""

from __future__ import annotations

import re

import yaml

from ..errors import TripleBenchError

#: Gradio version of evaluate's Space template (``launch_gradio_widget`` targets it)
GRADIO_VERSION = "3.19.1"

#: the Space keys evaluate's module template writes, in its order
SPACE_KEYS = ("title", "emoji", "colorFrom", "colorTo", "sdk", "sdk_version", "app_file", "pinned", "tags")


def split_card(text: str, where: str) -> tuple[dict, str]:
    """``(metadata, body)`` of a card that starts with a YAML front matter block."""
    match = re.match(r"---\n(.*?\n)---\n", text, flags=re.DOTALL)
    if not match:
        raise TripleBenchError(f"{where}: a card starts with a YAML front matter block between --- lines")
    return yaml.safe_load(match.group(1)) or {}, text[match.end() :]


def join_card(meta: dict, body: str) -> str:
    """A card's text from its metadata and body."""
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000)
    return f"---\n{front}---\n{body}"


def changelog_section(changelog: str, version: str) -> str:
    """The body of the ``## [VERSION]`` section of CHANGELOG.md (Keep a Changelog style).

    Raises
    ------
    TripleBenchError
        When CHANGELOG.md has no section for ``version`` (a release says what changed).
    """
    match = re.search(rf"^## \[{re.escape(version)}\][^\n]*\n(.*?)(?=^## \[|\Z)", changelog, flags=re.MULTILINE | re.DOTALL)
    if not match or not match.group(1).strip():
        raise TripleBenchError(f"CHANGELOG.md: add a `## [{version}]` section saying what changed before releasing {version}")
    return match.group(1).strip()


def dataset_card(text: str, *, benchmark: str, version: str, changes: str, left_out: dict[str, str]) -> str:
    """The release card of one dataset repo.

    Parameters
    ----------
    text
        The checkout's card.
    benchmark, version
        What is released.
    changes
        The changelog section of ``version``.
    left_out
        Config name -> why it is not in this release (its card entry is removed).
    """
    meta, body = split_card(text, f"datasets/{benchmark}/README.md")
    meta["version"] = version
    meta["configs"] = [c for c in meta.get("configs", []) if c["config_name"] not in left_out]
    if meta["configs"] and not any(c.get("default") for c in meta["configs"]):
        meta["configs"][0]["default"] = True
    notes = ""
    if left_out:
        notes = "\n## Not in this release\n\n" + "".join(f"- `{name}`: {why}\n" for name, why in left_out.items())
    release = f"\n## Changelog\n\n### {version}\n\n{changes}\n"
    return join_card(meta, body.rstrip("\n") + "\n" + notes + release)


def space_card(text: str, *, benchmark: str, title: str) -> str:
    """The Space card of one evaluate module (evaluate's Space YAML, then the module's own keys)."""
    meta, body = split_card(text, f"metrics/{benchmark}/README.md")
    space = {
        "title": title,
        "emoji": "🤗",
        "colorFrom": "blue",
        "colorTo": "red",
        "sdk": "gradio",
        "sdk_version": GRADIO_VERSION,
        "app_file": "app.py",
        "pinned": False,
        "tags": ["evaluate", "metric", *[t for t in meta.get("tags", []) if t not in ("evaluate", "metric")]],
    }
    rest = {key: value for key, value in meta.items() if key not in SPACE_KEYS}
    return join_card({**space, **rest}, body)


def space_app(benchmark: str) -> str:
    """``app.py`` of a Space: evaluate's template, loading the module file next to it."""
    return (
        "import evaluate\n"
        "from evaluate.utils import launch_gradio_widget\n"
        "\n"
        f'module = evaluate.load("{benchmark}.py")\n'
        "launch_gradio_widget(module)\n"
    )


def space_requirements(version: str) -> str:
    """``requirements.txt`` of a Space: the scorer the module adapts, at the released version."""
    return f"triplebench=={version}\n"
