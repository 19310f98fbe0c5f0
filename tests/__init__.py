"""The module's tests, one folder per concern (see tests/conftest.py).

Every folder is a package, so that pytest imports each test file under its full dotted name
(tests.book.test_slides) and helper modules are imported as tests.support.browser, never by a
bare name that two folders could both use.
"""
