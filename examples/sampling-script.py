"""A CPU-bound Python script for call-stack sampling tests (rocprof-sys-sample -- python3 ...)."""
import sys


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    total = 0
    for _ in range(rounds):
        total += fib(24)
    print("fib total", total)


if __name__ == "__main__":
    main()
