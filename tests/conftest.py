"""pytest set-up: the shared helper modules' asserts get pytest's detailed messages, as in a test file."""

import pytest

pytest.register_assert_rewrite("tests.toolkit_script")
