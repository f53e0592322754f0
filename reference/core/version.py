"""The package version (one place: ``pyproject.toml``'s ``version`` must equal it, as a test checks)."""

VERSION = "0.1.0"
