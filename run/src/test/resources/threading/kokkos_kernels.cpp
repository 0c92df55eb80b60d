// Kokkos kernels with known counts (KokkosIT): "kokkos_kernels <K>" runs K times a parallel_for
// "fill", a parallel_reduce "sum" and a parallel_scan "prefix" on the default execution space, then
// one profile region "outer", one profile section "section", one profile event "event", one deep
// copy between two views (inside the section). Prints the checksums.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv)
{
    Kokkos::initialize(argc, argv);
    {
        int kernels = argc > 1 ? std::atoi(argv[1]) : 3;
        const int n = 1000;
        Kokkos::View<double *> values("values", n);
        Kokkos::View<double *> copy("copy", n);
        double total = 0;
        long scanned = 0;
        for (int k = 0; k < kernels; k++) {
            Kokkos::parallel_for("fill", n, KOKKOS_LAMBDA(int i) { values(i) = (i * 7 + k) % n; });
            double sum = 0;
            Kokkos::parallel_reduce("sum", n, KOKKOS_LAMBDA(int i, double &a) { a += values(i); }, sum);
            total += sum;
            long last = 0;
            Kokkos::parallel_scan(
                "prefix", n, KOKKOS_LAMBDA(int i, long &partial, bool) { partial += i; }, last);
            scanned += last;
        }
        Kokkos::Profiling::pushRegion("outer");
        uint32_t section = 0;
        Kokkos::Profiling::createProfileSection("section", &section);
        Kokkos::Profiling::startSection(section);
        Kokkos::deep_copy(copy, values);
        Kokkos::Profiling::stopSection(section);
        Kokkos::Profiling::destroyProfileSection(section);
        Kokkos::Profiling::markEvent("event");
        Kokkos::Profiling::popRegion();
        std::printf("total=%.0f scanned=%ld\n", total, scanned);
    }
    Kokkos::finalize();
    return 0;
}
