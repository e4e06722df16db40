"""For tests that press Ctrl-C in a child process."""

from __future__ import annotations

import signal


def ctrl_c_restored() -> None:
    """Run in a child before it starts (``preexec_fn``): SIGINT back to its default.

    A shell starts its background jobs with SIGINT ignored, their children inherit that,
    and Python then installs no KeyboardInterrupt handler: a suite run in the background
    (``.ci/run &``, nohup) would see every Ctrl-C test hang. The child's Python installs
    its handler again once SIGINT is back to the default.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
