"""What the test folders share: fixtures, builders, fakes and the AWS call check (decision 222).

A folder's ``conftest.py`` imports the fixtures it uses from here (pytest finds a fixture where
it is imported); the root ``conftest.py`` registers the plugins every folder uses. A test imports
its helpers from here, never from a ``conftest.py``.
"""
