"""The files in deploy/ say what the app needs: every setting, valid units, a Compose file clients parse."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.support.deploy import DEPLOY, ROOT, worker_argv

BIN = Path(sys.executable).parent  # this virtualenv's bin/

# What the app reads from its environment, anywhere under backend/.
_READS = re.compile(r"""(?:os\.environ\.get|os\.getenv|env_bool)\(\s*["']([A-Z][A-Z0-9_]+)["']""")
REMOVED = {"DB_CONN_MAX_AGE"}  # read only to refuse it with a message
COMPOSE_ONLY = {"POSTGRES_USER", "POSTGRES_DB", "POSTGRES_PASSWORD"}  # the database container's, not the app's


def _settings_read() -> set[str]:
    return {name for path in (ROOT / "backend").rglob("*.py") for name in _READS.findall(path.read_text())}


def test_env_example_lists_every_setting_the_app_reads_and_no_other():
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", (DEPLOY / "env.example").read_text(), re.M))
    read = _settings_read()
    assert {"DATABASE_URL", "REDIS_URL", "LOG_FORMAT", "CHANNEL_LAYER_PREFIX", "DB_POOL_MAX"} <= read
    assert read - listed == set(), "missing from deploy/env.example"
    assert listed - read - COMPOSE_ONLY == set(), "listed in deploy/env.example but read nowhere"
    assert not REMOVED & listed


def test_the_readme_settings_table_names_every_setting():
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Settings"):]
    named = set(re.findall(r"`([A-Z][A-Z0-9_]+)`", table[:table.index("\n## ", 1)]))
    assert _settings_read() - REMOVED - named == set()


def _rendered_units(directory) -> list:
    """The shipped units with this checkout and virtualenv in place of /srv/games."""
    out = []
    for unit in sorted((DEPLOY / "systemd").iterdir()):
        text = unit.read_text().replace("/srv/games/venv/bin/", f"{BIN}/").replace("/srv/games/app", str(ROOT))
        name = unit.name.replace("@.", "@8001.")
        (directory / name).write_text(text)
        out.append(directory / name)
    return out


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_units_verify(tmp_path):
    units = _rendered_units(tmp_path)
    assert {u.name for u in units} == {"games@8001.service", "games-migrate.service", "games-notify.service",
                                       "games.target"}
    done = subprocess.run(["systemd-analyze", "verify", "--man=no", *map(str, units)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip() and not done.stdout.strip(), done.stderr + done.stdout


def test_the_worker_unit_is_hardened_and_the_image_runs_the_same_command():
    unit = (DEPLOY / "systemd" / "games@.service").read_text()
    for line in ("NoNewPrivileges=yes", "ProtectSystem=strict", "LimitNOFILE=65536", "Restart=always",
                 "KillSignal=SIGTERM", "User=games"):
        assert f"\n{line}\n" in unit, line
    argv = ["daphne", *worker_argv(8001)]
    cmd = json.loads(re.search(r"^CMD (\[.*\])$", (DEPLOY / "Dockerfile").read_text(), re.M).group(1))

    def flags(args: list[str]) -> list[str]:
        skip = {"--bind", "--port"}
        return [a for i, a in enumerate(args[1:], 1) if a not in skip and args[i - 1] not in skip]

    assert flags(argv) == flags(cmd)
    assert "--proxy-headers" in argv and argv[argv.index("--verbosity") + 1] == "0"


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_runs_each_part_with_health_checks_restarts_and_volumes():
    services = _compose()["services"]
    assert {"db", "redis", "migrate", "worker-1", "worker-2", "nginx"} <= set(services)
    for name, service in services.items():
        if name == "migrate":
            assert service["restart"] == "no" and "migrate" in service["command"][-1]
            assert "collectstatic" in service["command"][-1]
            continue
        assert service["restart"] == "unless-stopped", name
        assert service["healthcheck"]["test"], name
    workers = [s for n, s in services.items() if n.startswith("worker-")]
    assert all("/readyz" in " ".join(w["healthcheck"]["test"]) for w in workers)
    assert all(w["depends_on"]["migrate"]["condition"] == "service_completed_successfully" for w in workers)
    assert "pgdata:/var/lib/postgresql/data" in services["db"]["volumes"]
    mounts = " ".join(services["nginx"]["volumes"])
    for shipped in ("nginx/nginx.conf", "nginx/games.conf", "nginx/games-upstreams.compose.conf"):
        assert f"./{shipped}:" in mounts
    upstreams = (DEPLOY / "nginx" / "games-upstreams.compose.conf").read_text()
    assert all(f"server {name}:8000;" in upstreams for name in services if name.startswith("worker-"))


def _compose_client() -> list[str] | None:
    if shutil.which("docker") and subprocess.run(["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    return ["docker-compose"] if shutil.which("docker-compose") else None


@pytest.mark.skipif(_compose_client() is None, reason="no Compose client (docker compose or docker-compose)")
def test_compose_config_parses(tmp_path):
    """`docker compose config` on a copy of deploy/ with env.example as its games.env."""
    copy = tmp_path / "deploy"
    shutil.copytree(DEPLOY, copy)
    shutil.copy(DEPLOY / "env.example", copy / "games.env")
    done = subprocess.run([*_compose_client(), "-f", str(copy / "compose.yaml"), "config"], capture_output=True,
                          text=True, cwd=copy)
    assert done.returncode == 0, done.stderr
    resolved = yaml.safe_load(done.stdout)
    assert resolved["services"]["worker-2"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert resolved["services"]["worker-2"]["environment"]["LOG_FORMAT"] == "json"


def test_the_notify_worker_runs_beside_the_server_everywhere():
    """make run, the systemd unit and the Compose service all start manage.py notify_worker (docs/notifications.md)."""
    assert "manage.py notify_worker" in (ROOT / "Makefile").read_text()
    unit = (DEPLOY / "systemd" / "games-notify.service").read_text()
    assert "\nExecStart=/srv/games/venv/bin/python manage.py notify_worker\n" in unit
    assert "\nPartOf=games.target\n" in unit and "\nRestart=always\n" in unit and "\nUser=games\n" in unit
    notify = _compose()["services"]["notify"]
    assert notify["command"] == ["python", "manage.py", "notify_worker"]
    assert notify["healthcheck"]["test"][-3:] == ["notify_worker", "--health", "300"]
