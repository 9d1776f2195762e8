"""Releases: the built tree as tagged Hub repos (datasets) and Spaces (evaluate modules).

* :mod:`.tree` assembles the release folder of a version from the checkout:
  ``datasets/<benchmark>/`` (a Hub dataset repo: card, ``.gitattributes``, parquet)
  and ``metrics/<benchmark>/`` (a Hub Space: module, card, ``app.py``,
  ``requirements.txt``), leaving restricted (LDC) text out unless asked;
* :mod:`.cards` writes the release cards;
* :mod:`.versioning` checks the version rule against the previous release;
* :mod:`.publish` commits, tags ``v<VERSION>`` and pushes (git) or uploads (Hub).
"""
