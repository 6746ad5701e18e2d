"""Test the package of this checkout, whatever `pip install -e` last pointed at (several checkouts of
the repository may share one Python environment)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
