// exceptions: C++ exceptions thrown through several frames, caught, rethrown, with destructors
// on the way, plus recursion; for instrumentation tests (exits must stay balanced and the
// program's output unchanged).
//
//   exceptions [ROUNDS=5]
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

struct Guard
{
    int* counter;
    ~Guard() { ++*counter; }
};

static int destroyed = 0;

__attribute__((noinline)) int descend(int depth)
{
    Guard g{&destroyed};
    if(depth == 0) throw std::runtime_error("bottom");
    return descend(depth - 1) + 1;
}

__attribute__((noinline)) int rethrower(int depth)
{
    try
    {
        return descend(depth);
    } catch(const std::runtime_error&)
    {
        throw;
    }
}

__attribute__((noinline)) long recurse(long k) { return k == 0 ? 0 : 1 + recurse(k - 1); }

int main(int argc, char** argv)
{
    int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
    int caught = 0;
    for(int r = 0; r < rounds; ++r)
    {
        try
        {
            rethrower(4);
        } catch(const std::exception& e)
        {
            if(std::string(e.what()) == "bottom") ++caught;
        }
    }
    std::printf("caught %d, destroyed %d, depth %ld\n", caught, destroyed, recurse(100));
    return 0;
}
