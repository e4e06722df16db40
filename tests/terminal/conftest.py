"""The terminal tests spawn `motherlode play` on a pseudo-terminal (pexpect: os.forkpty).

Where an earlier test in the same xdist worker imported JAX (the batched engines' JAX
backend), JAX warns that fork() and its threads may deadlock. The child here only execs
the command at once (no JAX code runs in it), so the warning does not apply; it is silenced
for these tests alone, not for the suite.
"""

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/terminal/" in item.nodeid.replace("\\", "/"):
            item.add_marker(
                pytest.mark.filterwarnings("ignore:os.fork\\(\\) was called:RuntimeWarning")
            )
