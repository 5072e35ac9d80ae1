"""Every test's pattern databases live in a temporary directory, never the user's cache: set
before the first solve loads any table (the 6-6-3 4×4 tables are built there in seconds), and
removed when the tests end."""

import atexit
import os
import shutil
import tempfile

os.environ["NPUZZLE_CACHE_DIR"] = tempfile.mkdtemp(prefix="npuzzle-pytest-")
atexit.register(shutil.rmtree, os.environ["NPUZZLE_CACHE_DIR"], ignore_errors=True)
