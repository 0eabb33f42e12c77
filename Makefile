# One command each: `make run` serves the site, `make test` runs every test.
# Both set everything up on a fresh machine first (virtualenv, packages, database, catalogs).

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip
HOST ?= 127.0.0.1
PORT ?= 8000
STAMP := $(VENV)/.installed
# Tests run in this many processes (pytest-xdist); each has its own database and servers.
TEST_WORKERS ?= 2

.PHONY: run test test-fast production production-restart production-status production-stop setup install browser catalogs messages static migrate lint format clean

# The site's own error pages, also in development; DEBUG_TECHNICAL_ERRORS=1 make run shows
# Django's technical pages (tracebacks, URL patterns) instead.
run: setup
	@echo "Open http://$(HOST):$(PORT)/ in a browser (Ctrl-C stops the server)."
	$(PY) -m daphne -b $(HOST) -p $(PORT) cardsite.asgi:application

test: setup browser
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -n $(TEST_WORKERS)

# The edit-run loop: engine, services and consumers, without long playouts, browsers or faults.
test-fast: setup
	$(VENV)/bin/lint-imports --no-cache
	$(PY) -m pytest -q -x -m "not slow and not e2e and not faults" --ignore=tests/e2e --ignore=tests/faults

setup: install catalogs static migrate

$(PY):
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed ($(PYTHON) not found)"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# pip's output without what is no news: lines about ignored options, and setuptools' notice
# on every editable install ("BuildBackendWarning: Editable installation." and its box, up to
# the source line pip quotes after it). Everything else, errors first, is printed.
PIP_NEWS := awk ' \
	/BuildBackendWarning: Editable installation/ { skip = 1; bangs = 0; next } \
	skip == 1 && /^ *!!$$/ { if (++bangs == 2) skip = 2; next } \
	skip == 2 { skip = 0; if (/^ /) next } \
	skip || /is ignored/ { next } \
	{ print }'

# Reinstall only when pyproject.toml changes, so a second `make run` starts in seconds.
# A failing install stops make (pip's own exit status, not the filter's); pip's upgrade of
# itself may fail (an offline mirror) without stopping anything.
$(STAMP): pyproject.toml | $(PY)
	@echo "Installing packages into $(VENV) (pip install -e '.[dev]')…"
	@out=$$($(PIP) install -q --upgrade pip 2>&1); \
		[ -z "$$out" ] || printf '%s\n' "$$out" | $(PIP_NEWS)
	@out=$$($(PIP) install -q -e '.[dev]' 2>&1); status=$$?; \
		[ -z "$$out" ] || printf '%s\n' "$$out" | $(PIP_NEWS); exit $$status
	$(PY) -c "import django, channels, daphne, playwright"
	touch $(STAMP)

install: $(STAMP)

catalogs: install
	$(PY) manage.py compilemessages --ignore=.venv -v0

# After changing user-facing strings: update both catalogs, then translate the new German entries.
messages: install
	$(PY) manage.py makemessages -l de -l en -e html,txt,py,jinja --ignore=.venv --ignore=staticfiles --ignore=tests -v0
	msgattrib --clear-fuzzy --empty -o locale/en/LC_MESSAGES/django.po locale/en/LC_MESSAGES/django.po
	msgen -o locale/en/LC_MESSAGES/django.po locale/en/LC_MESSAGES/django.po
	for f in locale/*/LC_MESSAGES/django.po; do msgattrib --no-obsolete -o $$f $$f; done

static: install
	$(PY) manage.py collectstatic --noinput -v0

migrate: install
	$(PY) manage.py migrate --noinput -v0

# Browser tests drive Debian's Chromium. On a Debian machine where we run as root, install it;
# elsewhere the browser tests skip themselves and say why.
browser:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing Chromium for the browser tests (apt)…"; \
		DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "Chromium not found and not installable here: browser tests will be skipped."; fi

lint:
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format:
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV) staticfiles

# The production stack on one machine (README, "Production"): N daphne processes behind nginx,
# under supervisord, on the PostgreSQL and Redis that DATABASE_URL and REDIS_URL name.
production: setup
	$(PY) manage.py check --deploy --fail-level WARNING
	$(PY) -m cardsite.production start

# After an update (git pull): install, catalogs, static files, migrations, then a rolling
# restart, one daphne process at a time, each ready before the next goes.
production-restart: setup
	$(PY) -m cardsite.production restart

production-status:
	@$(PY) -m cardsite.production status

production-stop:
	$(PY) -m cardsite.production stop
