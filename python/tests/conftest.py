"""Shared fixtures: the command line to compare with, a folder for outputs."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def cli() -> str:
    """The btforge command line: BTFORGE_CLI (CTest passes the one it built),
    else the one `pip install ./python` put beside the package."""
    path = os.environ.get("BTFORGE_CLI") or shutil.which("btforge")
    if not path:
        pytest.fail("no btforge command line: set BTFORGE_CLI or pip install ./python")
    return path


@pytest.fixture
def run_cli(cli, tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        done = subprocess.run([cli, *args], cwd=tmp_path, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done

    return run


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where a test leaves what a person may want to look at (the report's
    screenshot): BTFORGE_TEST_OUTPUT, else a temporary folder."""
    folder = Path(os.environ.get("BTFORGE_TEST_OUTPUT") or "/tmp/btforge-python-tests")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
