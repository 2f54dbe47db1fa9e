"""One-off maintenance scripts; a package so tests can reuse their helpers."""
