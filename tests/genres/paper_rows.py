"""The GenRES paper's printed rows (Tables 2-4) and the runs known to deviate from them.

Shared by test_genres_reproduce.py (archived_run) and test_genres_cli_evaluate.py
(score(ArchivedRun)). The numbers are the paper's printed columns (#tri, #tok, FS, GS)
of Tables 2-4 (../shared/papers/003_93d3e08aa4b6d995.txt), the specification, kept in
the tests apart from src/triplebench/benchmarks/genres/paper.py (which
test_genres_cli_evaluate.py compares with them through details["paper"]).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from triplebench.benchmarks.genres.formats import PAPER_MODELS

# (set, model): (#tri, #tok, FS %, GS %) as printed in Tables 2-4
PAPER = {
    ("cdr", "groundtruth"): (10.1, 5.8, 93.5, 98.1),
    ("cdr", "vicuna-1.5-7b"): (6.8, 8.4, 84.7, 44.6),
    ("cdr", "vicuna-1.3-33b"): (6.4, 10.5, 97.3, 38.4),
    ("cdr", "llama-2-7b"): (5.6, 6.7, 62.0, 44.9),
    ("cdr", "llama-2-70b"): (10.8, 8.1, 96.6, 57.8),
    ("cdr", "wizardlm-70b"): (10.2, 7.8, 76.4, 46.2),
    ("cdr", "text-davinci-003"): (12.7, 8.3, 96.8, 55.4),
    ("cdr", "gpt-3.5-turbo-instruct"): (16.1, 8.3, 96.8, 54.2),
    ("cdr", "gpt-3.5-turbo-1106"): (11.2, 11.4, 98.2, 40.3),
    ("cdr", "gpt-4"): (14.3, 9.3, 97.9, 49.1),
    ("cdr", "gpt-4-1106-preview"): (18.6, 8.5, 96.8, 53.1),
    ("cdr", "mistral"): (14.2, 9.1, 93.5, 51.1),
    ("cdr", "zephyr-7b-beta"): (25.9, 8.8, 70.1, 57.7),
    ("cdr", "galactica-30b"): (0.2, 0.3, 0.9, 44.4),
    ("cdr", "openchat"): (8.6, 12.6, 97.4, 38.2),
    ("docred", "groundtruth"): (12.4, 6.0, 94.4, 81.9),
    ("docred", "vicuna-1.5-7b"): (7.4, 9.9, 93.4, 46.8),
    ("docred", "vicuna-1.3-33b"): (10.8, 9.8, 97.2, 49.6),
    ("docred", "llama-2-7b"): (2.7, 3.2, 34.0, 60.6),
    ("docred", "llama-2-70b"): (13.8, 8.7, 97.3, 60.9),
    ("docred", "wizardlm-70b"): (5.8, 3.6, 37.9, 56.7),
    ("docred", "text-davinci-003"): (15.3, 8.5, 97.6, 59.8),
    ("docred", "gpt-3.5-turbo-instruct"): (17.8, 8.9, 98.1, 56.2),
    ("docred", "gpt-3.5-turbo-1106"): (15.0, 9.9, 98.5, 49.1),
    ("docred", "gpt-4"): (17.8, 8.7, 98.6, 59.6),
    ("docred", "gpt-4-1106-preview"): (21.5, 8.7, 97.6, 63.1),
    ("docred", "mistral"): (11.3, 9.6, 94.1, 55.2),
    ("docred", "zephyr-7b-beta"): (18.6, 8.6, 94.7, 64.7),
    ("docred", "galactica-30b"): (0.0, 0.0, 0.0, 0.0),
    ("docred", "openchat"): (15.4, 8.9, 98.1, 61.7),
    ("nyt10m", "groundtruth"): (1.4, 4.5, 84.1, 93.1),
    ("nyt10m", "vicuna-1.5-7b"): (3.1, 7.8, 80.0, 60.2),
    ("nyt10m", "vicuna-1.3-33b"): (4.7, 7.2, 75.1, 65.2),
    ("nyt10m", "llama-2-7b"): (3.1, 6.0, 78.9, 69.2),
    ("nyt10m", "llama-2-70b"): (5.0, 6.9, 81.7, 71.8),
    ("nyt10m", "wizardlm-70b"): (4.4, 4.2, 43.9, 68.9),
    ("nyt10m", "text-davinci-003"): (4.9, 7.1, 85.8, 69.3),
    ("nyt10m", "gpt-3.5-turbo-instruct"): (5.8, 7.0, 84.0, 71.9),
    ("nyt10m", "gpt-3.5-turbo-1106"): (4.1, 6.2, 68.2, 62.8),
    ("nyt10m", "gpt-4"): (5.1, 7.4, 89.0, 68.2),
    ("nyt10m", "gpt-4-1106-preview"): (5.3, 7.8, 89.6, 69.1),
    ("nyt10m", "mistral"): (5.7, 7.4, 75.4, 62.9),
    ("nyt10m", "zephyr-7b-beta"): (7.8, 7.2, 64.9, 73.8),
    ("nyt10m", "galactica-30b"): (8.3, 8.7, 52.4, 60.6),
    ("nyt10m", "openchat"): (5.2, 7.2, 84.3, 69.7),
    ("wiki20m", "groundtruth"): (2.0, 6.3, 88.7, 85.1),
    ("wiki20m", "vicuna-1.5-7b"): (3.0, 7.5, 50.0, 68.6),
    ("wiki20m", "vicuna-1.3-33b"): (4.1, 7.0, 84.4, 75.4),
    ("wiki20m", "llama-2-7b"): (3.1, 6.3, 73.4, 75.6),
    ("wiki20m", "llama-2-70b"): (4.1, 6.9, 87.1, 78.4),
    ("wiki20m", "wizardlm-70b"): (3.6, 5.6, 67.3, 75.0),
    ("wiki20m", "text-davinci-003"): (3.7, 8.2, 91.3, 73.3),
    ("wiki20m", "gpt-3.5-turbo-instruct"): (4.8, 7.7, 90.1, 78.9),
    ("wiki20m", "gpt-3.5-turbo-1106"): (3.6, 7.7, 80.2, 72.7),
    ("wiki20m", "gpt-4"): (3.8, 8.1, 93.2, 77.2),
    ("wiki20m", "gpt-4-1106-preview"): (4.2, 7.6, 92.4, 81.2),
    ("wiki20m", "mistral"): (4.0, 6.9, 83.6, 69.9),
    ("wiki20m", "zephyr-7b-beta"): (5.2, 6.8, 75.5, 79.0),
    ("wiki20m", "galactica-30b"): (6.0, 8.4, 65.2, 66.8),
    ("wiki20m", "openchat"): (4.3, 7.0, 90.5, 76.0),
    ("tacred", "groundtruth"): (1.4, 4.6, 87.0, 94.9),
    ("tacred", "vicuna-1.5-7b"): (2.6, 8.7, 75.6, 58.9),
    ("tacred", "vicuna-1.3-33b"): (4.3, 7.3, 71.0, 69.2),
    ("tacred", "llama-2-7b"): (2.8, 6.3, 66.9, 71.2),
    ("tacred", "llama-2-70b"): (4.1, 6.4, 74.5, 76.8),
    ("tacred", "wizardlm-70b"): (2.1, 2.9, 28.0, 72.1),
    ("tacred", "text-davinci-003"): (4.4, 7.1, 84.0, 72.8),
    ("tacred", "gpt-3.5-turbo-instruct"): (5.0, 7.0, 81.6, 72.6),
    ("tacred", "gpt-3.5-turbo-1106"): (3.9, 6.8, 76.4, 67.5),
    ("tacred", "gpt-4"): (4.3, 7.5, 87.6, 69.1),
    ("tacred", "gpt-4-1106-preview"): (4.4, 7.8, 88.6, 73.2),
    ("tacred", "mistral"): (4.7, 7.1, 71.0, 65.5),
    ("tacred", "zephyr-7b-beta"): (5.4, 7.6, 65.8, 72.0),
    ("tacred", "galactica-30b"): (8.5, 8.9, 57.5, 64.1),
    ("tacred", "openchat"): (4.3, 7.1, 80.4, 72.1),
    ("wiki80", "groundtruth"): (1.0, 5.8, 90.1, 84.4),
    ("wiki80", "vicuna-1.5-7b"): (2.4, 7.9, 81.0, 61.7),
    ("wiki80", "vicuna-1.3-33b"): (3.8, 7.2, 79.9, 73.8),
    ("wiki80", "llama-2-7b"): (2.4, 5.8, 60.4, 76.9),
    ("wiki80", "llama-2-70b"): (3.7, 6.6, 82.4, 76.9),
    ("wiki80", "wizardlm-70b"): (2.1, 3.2, 36.6, 74.4),
    ("wiki80", "text-davinci-003"): (4.0, 6.8, 89.2, 74.9),
    ("wiki80", "gpt-3.5-turbo-instruct"): (4.4, 6.9, 88.7, 75.4),
    ("wiki80", "gpt-3.5-turbo-1106"): (3.4, 6.3, 75.6, 68.9),
    ("wiki80", "gpt-4"): (4.0, 7.1, 92.3, 74.2),
    ("wiki80", "gpt-4-1106-preview"): (4.0, 7.6, 92.8, 74.5),
    ("wiki80", "mistral"): (3.6, 7.8, 83.9, 67.7),
    ("wiki80", "zephyr-7b-beta"): (4.5, 7.8, 77.8, 74.2),
    ("wiki80", "galactica-30b"): (5.6, 7.2, 63.1, 73.3),
    ("wiki80", "openchat"): (4.0, 7.0, 88.7, 74.9),}

# Runs whose archived files are not what the paper was computed from. Each entry
# says which column cannot match and why; the test checks they still deviate, so
# a fixed upstream file is noticed.
KNOWN = {
    # #tok one decimal off: Punkt's pretrained English abbreviation list is a data
    # download not available offline; the generic list in benchmarks/genres/tokenize.py
    # splits a few elements into sentences differently (not fitted to these numbers)
    ("docred", "gpt-3.5-turbo-instruct"): {"tok"},
    ("wiki80", "vicuna-1.3-33b"): {"tok"},
    ("wiki80", "text-davinci-003"): {"tok"},
    # processed_results has only the seed-44 file; the factualness file (seed 1)
    # judged another output (its texts have other triples), each text's whole triple list
    # as one triple: archived_run keeps those verdicts aside (FS_whole_lists, GS_whole_lists)
    ("nyt10m", "llama-2-7b"): {"tri", "tok", "FS", "GS"},
    # GS printed in the paper differs from the repository's own newer table
    # (results_new/GS.json), which our archived GS equals: TACRED GPT-4-Turbo 71.2 vs 73.2
    # printed, TACRED GPT-4 69.03 (repo 69.08) vs 69.1 printed, and every Wiki20m row
    # (printed 2-8 points higher than the repository's table)
    ("tacred", "gpt-4-1106-preview"): {"GS"},
    ("tacred", "gpt-4"): {"GS"},
    **{("wiki20m", m): {"GS"} for m in PAPER_MODELS if m not in ("mistral", "zephyr-7b-beta", "galactica-30b")},
    # the seed-1 factualness files were re-judged after the paper: the repo's old
    # results/FS.json holds the printed 80.2 / 87.1, the archived verdicts give 85.2 / 88.1
    # (and its #tri: 3.548 in the archive and in the repo's own average_num_triples.json, 3.6 printed)
    ("wiki20m", "gpt-3.5-turbo-1106"): {"FS", "tri", "GS"},
    ("wiki20m", "llama-2-70b"): {"FS", "GS"},
}

# #tok where the printed decimal is not reached: NYT10m Galactica prints 8.7 while the
# repository's own full-precision table has 8.6472 (we get 8.650); TACRED LLaMA-2-7B
# 6.2546 upstream vs 6.2483 here (Punkt's sentence splitting is approximated, see
# tokenize.py). Asserted within 0.06 instead.
TOK_ROUNDING = {("nyt10m", "galactica-30b"), ("tacred", "llama-2-7b")}


def one_decimal(x: float) -> float:
    return float(Decimal(repr(float(x))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))
