"""The web app in collectstatic's output, for nginx: `app/<name>` and `app/<hashed name>` (assets.py), lean."""

from __future__ import annotations

import os
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import utils
from django.contrib.staticfiles.finders import BaseFinder
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage

from . import assets, lean

PREFIX = "app"  # the app's address under /app/, and its folder under STATIC_ROOT
_NOT_SHIPPED = ["README.md", "index.html"]  # index.html is a template (backend/web/views.py)


class _FrontendStorage(FileSystemStorage):
    """FRONTEND_DIR read as collectstatic copies it: every file as shipped, also under its hashed name."""

    prefix = PREFIX

    def path(self, name):
        return super().path(assets.unhash(name) or name)

    def open(self, name, mode="rb"):
        if not lean.ships_lean(name):
            return super().open(name, mode)
        return ContentFile(lean.lean_bytes(Path(self.path(name))), name=os.path.basename(name))


class FrontendFinder(BaseFinder):
    """Puts the web app into collectstatic's output as `app/...`, lean, so nginx can serve `/app/` from STATIC_ROOT."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.storage = _FrontendStorage(location=settings.FRONTEND_DIR)

    def find(self, path, find_all=False, **kwargs):
        name = path.removeprefix(PREFIX + "/")
        shipped = name != path and name not in _NOT_SHIPPED and self.storage.exists(name)
        found = [self.storage.path(name)] if shipped else []
        return found if find_all or kwargs.get("all") else (found[0] if found else [])

    def list(self, ignore_patterns):
        hashed = assets.manifest().names
        for name in utils.get_files(self.storage, list(ignore_patterns or []) + _NOT_SHIPPED):
            yield name, self.storage
            if name in hashed:
                yield hashed[name], self.storage
