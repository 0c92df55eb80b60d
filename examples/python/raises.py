#!/usr/bin/env python3
# Profiled work, then an uncaught exception: the work before it stays in the profile.
def work(n):
    return sum(range(n))


def fail():
    raise ValueError("raised on purpose")


if __name__ == "__main__":
    for _ in range(3):
        work(1000)
    fail()
