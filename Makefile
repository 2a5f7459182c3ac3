# claimledger. `make run` and `make test` work on a fresh clone (they create .venv).
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
PYTEST_ARGS ?=

.PHONY: run test lint ui serve bench install clean model

$(VENV)/.installed: pyproject.toml constraints.txt
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) on PATH"; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check -c constraints.txt -e '.[dev,celery]'
	@touch $@

install: $(VENV)/.installed

## run: the whole pipeline (ingest, extract, edges) on the bundled sample corpus, in-process
run: install
	CLAIMS_POLICY_FILE=samples/policy.yaml $(BIN)/claims run samples/corpus --register samples/register.yaml

## test: the whole suite (starts a throwaway PostgreSQL when initdb is available)
test: install
	scripts/with-postgres.sh $(PY) -m pytest -n 2 $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy claims

## ui: Dagster's UI + daemon on the sample corpus (DAGSTER_HOME=.claims/dagster)
ui: install
	$(BIN)/claims ui samples/corpus --register samples/register.yaml

serve: install
	$(BIN)/claims serve

## model: retrain the shipped tagger + parser (claims/parser/model) from the UD treebanks
TREEBANK ?= ../shared/data/treebank
model: install
	OMP_NUM_THREADS=1 $(PY) scripts/train_parser.py --treebank $(TREEBANK)

bench: install
	@for b in bench/bench_*.py; do echo "== $$b"; $(PY) $$b; done

clean:
	rm -rf $(VENV) .claims
