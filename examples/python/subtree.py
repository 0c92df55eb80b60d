#!/usr/bin/env python3
# Upstream's excluded subtree: with -E ^skipme$ nothing beneath skipme is recorded, while helper,
# leaf and gen_sum are recorded where they are called from elsewhere; a generator, an exception
# and recursion inside and outside the excluded function (PythonEndToEndIT, device-bench.sh).
def leaf():
    return 1

def helper():
    return leaf() + 1

def skipme(n):
    if n > 0:
        return skipme(n - 1)
    return helper() + gen_sum()

def gen():
    for i in range(3):
        yield leaf()

def gen_sum():
    return sum(gen())

def boom():
    helper()
    raise ValueError("x")

def outer():
    for _ in range(2):
        helper()
        skipme(2)
    try:
        boom()
    except ValueError:
        pass
    gen_sum()

outer()
