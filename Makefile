# The two commands: `make demo` and `make test`.  Each sets up what it needs.
VENV    ?= .venv
PY      := $(VENV)/bin/python
STAMP   := $(VENV)/.masa-installed
PYTHON3 ?= python3

.PHONY: demo test system-packages bench clean

$(PY):
	$(PYTHON3) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

# Debian packages the demo and the tests use (installed when run as root;
# otherwise the script says what is missing and the tests that need it are
# skipped with that reason).
system-packages:
	@bash scripts/system-packages.sh

demo: $(STAMP) system-packages
	$(VENV)/bin/masa demo

test: $(STAMP) system-packages
	$(PY) -m pytest -q -rs

bench: $(STAMP) system-packages
	$(VENV)/bin/masa bench all

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
