// Test program of org.rocprofsys.sampler.symbols: namespaced functions and templates.
#include <cstdio>

namespace ns {
template <typename T> struct Widget {
    T base;
    __attribute__((noipa)) T run(T x);
};

template <typename T> T Widget<T>::run(T x)
{
    return base * x + 1;
}

template struct Widget<int>;
template struct Widget<double>;

namespace inner {
__attribute__((noipa)) long compute(long a, const char *s)
{
    return a + s[0];
}
} // namespace inner
} // namespace ns

int main(int argc, char **)
{
    ns::Widget<int> w{argc};
    ns::Widget<double> d{1.5};
    std::printf("%d %f %ld\n", w.run(argc), d.run(2.0), ns::inner::compute(argc, "x"));
    return 0;
}
