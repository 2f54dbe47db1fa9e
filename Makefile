# The two commands that matter: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test install migrate bench messages clean

$(VENV)/.installed: requirements.txt constraints.txt
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is required"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt -c constraints.txt
	@touch $@

install: $(VENV)/.installed

migrate: install
	$(PY) manage.py migrate --noinput

# The notify worker (docs/notifications.md) runs beside the server and stops with it.
run: migrate
	@$(PY) manage.py notify_worker & notify=$$!; trap 'kill $$notify 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/daphne -b $(HOST) -p $(PORT) backend.asgi:application

# The whole suite. DATABASE_URL / REDIS_URL select PostgreSQL / Redis; unset,
# it runs on the embedded default (SQLite, in-memory channel layer).
# TEST_WORKERS processes share the tests (pytest-xdist); the browser tests and the
# deployment tests each stay together on one of them (tests/conftest.py), and each
# process has its own test database, Redis database and channel prefix.
# TEST_WORKERS=0 (or 1) runs everything in this one process; BROWSER_GROUPS=2 splits
# the browser tests into two groups (a server and a Chromium each) for two workers.
TEST_WORKERS ?= 2
XDIST = $(if $(filter-out 0 1,$(TEST_WORKERS)),-n $(TEST_WORKERS) --dist loadgroup)
test: install
	BOT_DELAY=0 $(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

bench: install
	$(PY) bench/engines.py

# The server's translation catalogue (backend/locale/hu): collect every gettext
# string into the .po (translate the new entries there), then compile the .mo.
# Commit both; tests/platform/test_i18n.py fails on a stale .mo or an untranslated
# entry. Needs GNU gettext (msgfmt, xgettext). The app's own words live in
# frontend/i18n/ (frontend/README.md).
MESSAGES_IGNORE := --ignore=.venv --ignore=tests --ignore=bench --ignore=tools --ignore=deploy --ignore=test-artifacts
messages: install
	$(PY) manage.py makemessages --locale=hu --add-location=file $(MESSAGES_IGNORE)
	$(PY) manage.py compilemessages --locale=hu $(MESSAGES_IGNORE)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
