// C++ hot functions for call-stack sampling tests: a class template method, a function in a
// namespace and an overloaded function, so that the profile shows demangled names.
// Built -O2 -fomit-frame-pointer (see Makefile).
//
//   cxx-hot [units]      (default 200)
#include <cstdlib>
#include <vector>

namespace compute
{
template <typename T>
class Accumulator
{
public:
    __attribute__((noipa)) T run(long n, long salt)
    {
        T x = 0;
        for(long i = 0; i < n; ++i)
            x += static_cast<T>((i + salt) ^ 0x4b4b) / static_cast<T>(i + 1);
        return x;
    }
};

__attribute__((noipa)) double blend(long n, double w)
{
    double x = 0;
    for(long i = 0; i < n; ++i)
        x += w * static_cast<double>(i ^ 0x7777) / static_cast<double>(i + 2);
    return x;
}
}  // namespace compute

static volatile double sink;

int main(int argc, char** argv)
{
    long units = argc > 1 ? std::atol(argv[1]) : 200;
    compute::Accumulator<double> acc;
    for(long r = 0; r < units; ++r)
    {
        sink += acc.run(1000000, r);
        sink += compute::blend(1000000, 0.5);
    }
    return 0;
}
