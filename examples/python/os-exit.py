#!/usr/bin/env python3
# Profiled work, then os._exit(7) (no interpreter shutdown, no atexit): the work stays.
import os
import sys


def work(n):
    return sum(range(n))


if __name__ == "__main__":
    for _ in range(3):
        work(1000)
    sys.stdout.flush()
    os._exit(7)
