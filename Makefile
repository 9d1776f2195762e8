# `make`       installs triplebench in .venv, rebuilds every dataset with `dvc repro`
#              and prints the summary table.
# `make test`  the same, then the whole test suite (this is what .ci/run calls).

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: all data test bench clean-venv
all: data

# torch is installed explicitly first so that the genres extra finds the CPU
# build already satisfied and no resolver pulls a CUDA build.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet "torch==2.13.0"
	$(BIN)/pip install --quiet -e ".[genres,test]"
	touch $(STAMP)

data: $(STAMP)
	HF_HUB_OFFLINE=1 PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/dvc repro
	@$(BIN)/triplebench summary

test: data
	HF_HUB_OFFLINE=1 HF_DATASETS_OFFLINE=1 $(BIN)/python -m pytest -q

bench: $(STAMP)
	HF_HUB_OFFLINE=1 $(BIN)/python bench/run_all.py

clean-venv:
	rm -rf $(VENV)
