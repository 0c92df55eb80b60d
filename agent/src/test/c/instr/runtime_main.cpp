/*
 * Agent instrumentation test, runtime-plan mode: C++ functions (compiled -O0 with frame pointers,
 * so their first instructions are ones plan_gen.c knows) and asm ones (runtime_funcs.S).
 *
 *   runtime_test --gen <plan> [bad]   write the plan for this executable and for
 *                                     libinstr_plain_dso.so (next to it; run without the agent)
 *   runtime_test <scenario>           basic | exceptions | threads | dlopen
 * dlopen: loads libinstr_plain_dso.so (planned: the agent applies its part of the plan after the
 * dlopen) and libinstr_rw_dso.so (rewritten by hand: found by its PT_NOTE after the dlopen), both
 * by bare name, found through this executable's RUNPATH ($ORIGIN), and calls their functions.
 * Prints calls.<function>=N for every instrumented function, and results.
 *
 * exceptions: throws through several instrumented frames (recursion, destructors that call
 * instrumented functions while unwinding), catches, rethrows (catch (...) { throw; }), and
 * catches an exception inside a destructor that runs while another one is in flight.
 */
#include "plan_gen.h"

#include <dlfcn.h>
#include <unistd.h>

#include <climits>
#include <cstdint>
#include <string>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

extern "C" {
int64_t rt_lea(void);
int64_t rt_frame(int64_t a, int64_t b);
extern int64_t rt_counter;
}

static long c_leaf, c_thrower, c_middle, c_catcher, c_rethrower, c_outer, c_with_nested, c_nested_dtor,
    c_lea, c_frame;

extern "C" {
__attribute__((noinline)) int leaf(int x)
{
    c_leaf++;
    return x + 1;
}

struct Guard {
    int v;
    ~Guard() { leaf(v); } /* an instrumented call during cleanup */
};

__attribute__((noinline)) int thrower(int n)
{
    c_thrower++;
    Guard g{n};
    if (n == 0) {
        throw std::runtime_error("bottom");
    }
    return thrower(n - 1) + 1;
}

__attribute__((noinline)) int middle(int n)
{
    c_middle++;
    Guard g{100};
    return thrower(n) + leaf(0);
}

__attribute__((noinline)) int catcher(int n)
{
    c_catcher++;
    try {
        return middle(n);
    } catch (const std::exception &) {
        return -1;
    }
}

__attribute__((noinline)) int rethrower(int n)
{
    c_rethrower++;
    try {
        return middle(n);
    } catch (...) {
        leaf(7);
        throw;
    }
}

__attribute__((noinline)) int outer(int n)
{
    c_outer++;
    try {
        return rethrower(n);
    } catch (const std::exception &) {
        return -2;
    }
}

struct NestedCatch {
    ~NestedCatch()
    {
        c_nested_dtor++;
        try {
            thrower(2); /* thrown and caught while another exception unwinds this frame */
        } catch (const std::exception &) {
            leaf(9);
        }
    }
};

__attribute__((noinline)) int with_nested(int n)
{
    c_with_nested++;
    NestedCatch g;
    return thrower(n);
}
}

static long c_dso_frame, c_dso_rw_add;

static std::string next_to_exe(const char *name)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = 0;
    std::string dir(exe);
    return dir.substr(0, dir.rfind('/') + 1) + name;
}

static void print_calls()
{
    std::printf("calls.dso_frame=%ld\ncalls.dso_rw_add=%ld\n", c_dso_frame, c_dso_rw_add);
    std::printf("calls.leaf=%ld\ncalls.thrower=%ld\ncalls.middle=%ld\ncalls.catcher=%ld\n", c_leaf, c_thrower,
                c_middle, c_catcher);
    std::printf("calls.rethrower=%ld\ncalls.outer=%ld\ncalls.with_nested=%ld\ncalls.rt_lea=%ld\n", c_rethrower,
                c_outer, c_with_nested, c_lea);
    std::printf("calls.rt_frame=%ld\n", c_frame);
}

static void check(bool ok, const char *what)
{
    if (!ok) {
        std::fprintf(stderr, "runtime_test: wrong result: %s\n", what);
        std::exit(3);
    }
}

static void basic()
{
    check(rt_lea() == 1 && rt_lea() == 2 && rt_counter == 2, "rt_lea");
    c_lea += 2;
    check(rt_frame(40, 2) == 42, "rt_frame");
    c_frame++;
    check(leaf(1) == 2, "leaf");
}

static void exceptions()
{
    check(catcher(5) == -1, "catcher");
    check(catcher(5) == -1, "catcher again");
    check(outer(3) == -2, "outer (rethrow)");
    try {
        with_nested(4);
        check(false, "with_nested did not throw");
    } catch (const std::runtime_error &) {
        leaf(11);
    }
    check(c_nested_dtor == 1, "nested destructor ran");
    /* the stack is hooked again after the catches: normal calls and returns still work */
    check(rt_frame(1, 2) == 3, "rt_frame after");
    c_frame++;
}

int main(int argc, char **argv)
{
    if (argc > 2 && std::strcmp(argv[1], "--gen") == 0) {
        const pg_func fns[] = {
            {"leaf", (const void *)&leaf},           {"thrower", (const void *)&thrower},
            {"middle", (const void *)&middle},       {"catcher", (const void *)&catcher},
            {"rethrower", (const void *)&rethrower}, {"outer", (const void *)&outer},
            {"with_nested", (const void *)&with_nested}, {"rt_lea", (const void *)&rt_lea},
            {"rt_frame", (const void *)&rt_frame},
        };
        unsigned n = sizeof fns / sizeof fns[0];
        void *dso = dlopen(next_to_exe("libinstr_plain_dso.so").c_str(), RTLD_NOW);
        if (dso == nullptr) {
            std::fprintf(stderr, "%s\n", dlerror());
            return 1;
        }
        std::vector<pg_func> all(fns, fns + n);
        all.push_back({"dso_frame", dlsym(dso, "dso_frame")});
        return pg_write_plan(argv[2], all.data(), (unsigned)all.size(), argc > 3 && std::strcmp(argv[3], "bad") == 0);
    }
    const char *s = argc > 1 ? argv[1] : "basic";
    if (std::strcmp(s, "basic") == 0) {
        basic();
    } else if (std::strcmp(s, "exceptions") == 0) {
        exceptions();
    } else if (std::strcmp(s, "threads") == 0) {
        std::vector<std::thread> ts;
        for (int k = 0; k < 4; k++) {
            ts.emplace_back([] {
                for (int i = 0; i < 100; i++) {
                    rt_frame(i, 1);
                }
            });
        }
        for (auto &t : ts) {
            t.join();
        }
        c_frame += 400;
        exceptions();
    } else if (std::strcmp(s, "dlopen") == 0) {
        basic();
        void *plain = dlopen("libinstr_plain_dso.so", RTLD_NOW);
        void *rw = dlopen("libinstr_rw_dso.so", RTLD_NOW | RTLD_GLOBAL);
        if (plain == nullptr || rw == nullptr) {
            std::fprintf(stderr, "dlopen: %s\n", dlerror());
            return 1;
        }
        typedef int64_t (*add_fn)(int64_t, int64_t);
        add_fn frame = (add_fn)dlsym(plain, "dso_frame");
        add_fn rw_add = (add_fn)dlsym(rw, "dso_rw_add");
        for (int i = 0; i < 5; i++) {
            check(frame(i, 1) == i + 1 && rw_add(i, 2) == i + 2, "dso functions");
        }
        c_dso_frame += 5;
        c_dso_rw_add += 5;
        /* loaded again: already instrumented, nothing applied twice */
        void *again = dlopen("libinstr_plain_dso.so", RTLD_NOW);
        check(again == plain && frame(1, 1) == 2, "dlopen again");
        c_dso_frame++;
    } else {
        std::fprintf(stderr, "unknown scenario %s\n", s);
        return 2;
    }
    print_calls();
    return 0;
}
