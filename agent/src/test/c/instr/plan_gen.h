/*
 * Test helper: writes a runtime instrumentation plan (docs/instrumentation.md) for functions of
 * the calling program (its executable and loaded libraries: one module entry per module, by real
 * path), without the Java planner. Each function's first
 * instructions (at least 5 bytes) are decoded by a tiny decoder that knows only the prologue
 * instructions of the tests (push, mov rbp/rsp, sub rsp, stores to [rbp+d8], endbr64, and
 * RIP-relative lea/mov, which get a relocation), relocated into a trampoline of the contract's
 * shape, with the contract's entry stub. Run it before the agent is loaded (the bytes must be
 * the original ones).
 */
#ifndef RSYS_TEST_PLAN_GEN_H
#define RSYS_TEST_PLAN_GEN_H

#ifdef __cplusplus
extern "C" {
#endif

struct pg_func {
    const char *name;
    const void *addr;
};

/* 0 on success; else prints why on stderr. `bad_entry`: plan one entry of the first module
 * outside the code (the agent must refuse that module with a message and leave it alone). */
int pg_write_plan(const char *out, const struct pg_func *fns, unsigned n, int bad_entry);

#ifdef __cplusplus
}
#endif

#endif
