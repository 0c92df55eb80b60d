// Shared by the CUDA examples: stop at the first failing CUDA call with its location.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                                               \
    do {                                                                                          \
        cudaError_t err_ = (call);                                                                \
        if (err_ != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                    \
                         cudaGetErrorString(err_));                                               \
            std::exit(1);                                                                         \
        }                                                                                         \
    } while (0)
