#!/usr/bin/env python3
# Profiled functions on two threads and in a forked child.
import os
import threading


def leaf(n):
    return n * 2


def worker(n):
    return sum(leaf(i) for i in range(n))


def child_work():
    return worker(10)


if __name__ == "__main__":
    threads = [threading.Thread(target=worker, args=(20,)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    pid = os.fork()
    if pid == 0:
        child_work()
        os._exit(0)
    os.waitpid(pid, 0)
    worker(5)
