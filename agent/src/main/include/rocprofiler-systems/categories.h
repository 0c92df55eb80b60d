/*
 * rocprof-sys in Java: public user API, category and annotation definitions.
 *
 * Source-compatible with rocprofiler-systems' <rocprofiler-systems/categories.h> (ROCm 1.2.0,
 * Aug 2025): the same enumerators with the same values, and the same annotation struct layout.
 * The category numbers are also what the agent writes in region and mark records.
 */
#ifndef ROCPROFSYS_CATEGORIES_H_
#define ROCPROFSYS_CATEGORIES_H_

#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/* Slice categories. 0 is reserved; ROCPROFSYS_CATEGORY_LAST counts the others. */
typedef enum ROCPROFSYS_CATEGORIES
{
    ROCPROFSYS_CATEGORY_NONE = 0,
    ROCPROFSYS_CATEGORY_PYTHON,                    /*  1 python */
    ROCPROFSYS_CATEGORY_USER,                      /*  2 user */
    ROCPROFSYS_CATEGORY_HOST,                      /*  3 host */
    ROCPROFSYS_CATEGORY_ROCM,                      /*  4 */
    ROCPROFSYS_CATEGORY_ROCM_HIP_API,              /*  5 */
    ROCPROFSYS_CATEGORY_ROCM_HSA_API,              /*  6 */
    ROCPROFSYS_CATEGORY_ROCM_KERNEL_DISPATCH,      /*  7 */
    ROCPROFSYS_CATEGORY_ROCM_MEMORY_COPY,          /*  8 */
    ROCPROFSYS_CATEGORY_ROCM_SCRATCH_MEMORY,       /*  9 */
    ROCPROFSYS_CATEGORY_ROCM_HIP_STREAM,           /* 10 */
    ROCPROFSYS_CATEGORY_ROCM_PAGE_MIGRATION,       /* 11 */
    ROCPROFSYS_CATEGORY_ROCM_COUNTER_COLLECTION,   /* 12 */
    ROCPROFSYS_CATEGORY_ROCM_MARKER_API,           /* 13 */
    ROCPROFSYS_CATEGORY_ROCM_ROCDECODE_API,        /* 14 */
    ROCPROFSYS_CATEGORY_ROCM_ROCJPEG_API,          /* 15 */
    ROCPROFSYS_CATEGORY_ROCM_RCCL_API,             /* 16 */
    ROCPROFSYS_CATEGORY_AMD_SMI,                   /* 17 */
    ROCPROFSYS_CATEGORY_AMD_SMI_BUSY_GFX,          /* 18 */
    ROCPROFSYS_CATEGORY_AMD_SMI_BUSY_UMC,          /* 19 */
    ROCPROFSYS_CATEGORY_AMD_SMI_BUSY_MM,           /* 20 */
    ROCPROFSYS_CATEGORY_AMD_SMI_TEMP,              /* 21 */
    ROCPROFSYS_CATEGORY_AMD_SMI_POWER,             /* 22 */
    ROCPROFSYS_CATEGORY_AMD_SMI_MEMORY_USAGE,      /* 23 */
    ROCPROFSYS_CATEGORY_AMD_SMI_VCN_ACTIVITY,      /* 24 */
    ROCPROFSYS_CATEGORY_AMD_SMI_JPEG_ACTIVITY,     /* 25 */
    ROCPROFSYS_CATEGORY_ROCM_RCCL,                 /* 26 */
    ROCPROFSYS_CATEGORY_SAMPLING,                  /* 27 */
    ROCPROFSYS_CATEGORY_PTHREAD,                   /* 28 */
    ROCPROFSYS_CATEGORY_KOKKOS,                    /* 29 */
    ROCPROFSYS_CATEGORY_MPI,                       /* 30 */
    ROCPROFSYS_CATEGORY_OMPT,                      /* 31 */
    ROCPROFSYS_CATEGORY_PROCESS_SAMPLING,          /* 32 */
    ROCPROFSYS_CATEGORY_COMM_DATA,                 /* 33 */
    ROCPROFSYS_CATEGORY_CAUSAL,                    /* 34 */
    ROCPROFSYS_CATEGORY_CPU_FREQ,                  /* 35 */
    ROCPROFSYS_CATEGORY_PROCESS_PAGE,              /* 36 */
    ROCPROFSYS_CATEGORY_PROCESS_VIRT,              /* 37 */
    ROCPROFSYS_CATEGORY_PROCESS_PEAK,              /* 38 */
    ROCPROFSYS_CATEGORY_PROCESS_CONTEXT_SWITCH,    /* 39 */
    ROCPROFSYS_CATEGORY_PROCESS_PAGE_FAULT,        /* 40 */
    ROCPROFSYS_CATEGORY_PROCESS_USER_MODE_TIME,    /* 41 */
    ROCPROFSYS_CATEGORY_PROCESS_KERNEL_MODE_TIME,  /* 42 */
    ROCPROFSYS_CATEGORY_THREAD_WALL_TIME,          /* 43 */
    ROCPROFSYS_CATEGORY_THREAD_CPU_TIME,           /* 44 */
    ROCPROFSYS_CATEGORY_THREAD_PAGE_FAULT,         /* 45 */
    ROCPROFSYS_CATEGORY_THREAD_PEAK_MEMORY,        /* 46 */
    ROCPROFSYS_CATEGORY_THREAD_CONTEXT_SWITCH,     /* 47 */
    ROCPROFSYS_CATEGORY_THREAD_HARDWARE_COUNTER,   /* 48 */
    ROCPROFSYS_CATEGORY_KERNEL_HARDWARE_COUNTER,   /* 49 */
    ROCPROFSYS_CATEGORY_NUMA,                      /* 50 */
    ROCPROFSYS_CATEGORY_VAAPI,                     /* 51 */
    ROCPROFSYS_CATEGORY_TIMER_SAMPLING,            /* 52 */
    ROCPROFSYS_CATEGORY_OVERFLOW_SAMPLING,         /* 53 */
    ROCPROFSYS_CATEGORY_CUDA_RUNTIME_API,          /* 54 */
    ROCPROFSYS_CATEGORY_CUDA_DRIVER_API,           /* 55 */
    ROCPROFSYS_CATEGORY_CUDA_KERNEL_DISPATCH,      /* 56 */
    ROCPROFSYS_CATEGORY_CUDA_MEMORY_COPY,          /* 57 */
    ROCPROFSYS_CATEGORY_CUDA_MEMORY_SET,           /* 58 */
    ROCPROFSYS_CATEGORY_CUDA_MEMORY_ALLOCATION,    /* 59 */
    ROCPROFSYS_CATEGORY_CUDA_NVTX,                 /* 60 */
    ROCPROFSYS_CATEGORY_LAST                       /* 61: keep last */
} rocprofsys_category_t;

/*
 * What an annotation's value points at. For strings (CSTR) and pointers (VOID_P) `value` is the
 * string or pointer itself; for every other type `value` is the address of the datum.
 */
typedef enum ROCPROFSYS_ANNOTATION_TYPE
{
    ROCPROFSYS_VALUE_NONE = 0,
    ROCPROFSYS_VALUE_CSTR = 1,
    ROCPROFSYS_STRING = ROCPROFSYS_VALUE_CSTR,
    ROCPROFSYS_VALUE_SIZE_T = 2,
    ROCPROFSYS_SIZE_T = ROCPROFSYS_VALUE_SIZE_T,
    ROCPROFSYS_VALUE_INT64 = 3,
    ROCPROFSYS_INT64 = ROCPROFSYS_VALUE_INT64,
    ROCPROFSYS_I64 = ROCPROFSYS_VALUE_INT64,
    ROCPROFSYS_VALUE_UINT64 = 4,
    ROCPROFSYS_UINT64 = ROCPROFSYS_VALUE_UINT64,
    ROCPROFSYS_U64 = ROCPROFSYS_VALUE_UINT64,
    ROCPROFSYS_VALUE_FLOAT64 = 5,
    ROCPROFSYS_FLOAT64 = ROCPROFSYS_VALUE_FLOAT64,
    ROCPROFSYS_FP64 = ROCPROFSYS_VALUE_FLOAT64,
    ROCPROFSYS_VALUE_VOID_P = 6,
    ROCPROFSYS_VOID_P = ROCPROFSYS_VALUE_VOID_P,
    ROCPROFSYS_PTR = ROCPROFSYS_VALUE_VOID_P,
    ROCPROFSYS_VALUE_INT32 = 7,
    ROCPROFSYS_INT32 = ROCPROFSYS_VALUE_INT32,
    ROCPROFSYS_I32 = ROCPROFSYS_VALUE_INT32,
    ROCPROFSYS_VALUE_UINT32 = 8,
    ROCPROFSYS_UINT32 = ROCPROFSYS_VALUE_UINT32,
    ROCPROFSYS_U32 = ROCPROFSYS_VALUE_UINT32,
    ROCPROFSYS_VALUE_FLOAT32 = 9,
    ROCPROFSYS_FLOAT32 = ROCPROFSYS_VALUE_FLOAT32,
    ROCPROFSYS_FP32 = ROCPROFSYS_VALUE_FLOAT32,
    ROCPROFSYS_VALUE_INT16 = 10,
    ROCPROFSYS_INT16 = ROCPROFSYS_VALUE_INT16,
    ROCPROFSYS_I16 = ROCPROFSYS_VALUE_INT16,
    ROCPROFSYS_VALUE_UINT16 = 11,
    ROCPROFSYS_UINT16 = ROCPROFSYS_VALUE_UINT16,
    ROCPROFSYS_U16 = ROCPROFSYS_VALUE_UINT16,
    ROCPROFSYS_VALUE_LAST /* keep last */
} rocprofsys_annotation_type_t;

/* One name/value pair attached to a region (shown as a slice argument in the trace). */
typedef struct rocprofsys_annotation
{
    const char* name; /* argument name */
    uintptr_t   type; /* a rocprofsys_annotation_type_t */
    void*       value;
} rocprofsys_annotation_t;

#if defined(__cplusplus)
}
#endif

#endif /* ROCPROFSYS_CATEGORIES_H_ */
