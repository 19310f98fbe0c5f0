"""Helpers that tests import (``from tests.support.browser import OfflinePage``); no tests here.

A test file is never imported by another: what two of them share lives in this package or, for
fixtures, in tests/conftest.py.
"""
