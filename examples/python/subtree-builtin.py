#!/usr/bin/env python3
# Builtin mode (rocprof-sys-python -b -E ^root$): profiling starts inside root, an excluded
# function already running then, and goes on after it returns: mid and leaf beneath root are not
# recorded, the mid called after root is.
def leaf():
    return 1


def mid():
    return leaf()


def root():
    profile.start()  # noqa: F821 (the builtin rocprof-sys-python puts there)
    mid()
    return leaf()


root()
mid()
profile.stop()  # noqa: F821
