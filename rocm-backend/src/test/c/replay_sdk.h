/* The replay SDK's driver interface (replay_sdk.c), used by replay_app.c. Test code only. */
#ifndef REPLAY_SDK_H
#define REPLAY_SDK_H
#include "rsys_rocm_sdk.h"

struct replay_arg {
    const char *name;
    const char *value;
};

/* Loads the tool as the SDK does; 1 when a tool configured itself, 0 when none, -1 when its
 * initialisation failed. */
int replay_init(void);
/* The SDK's clock (CLOCK_BOOTTIME ns). */
uint64_t replay_now(void);
/* The handle of agent 0 (CPU), 1 (GPU 0), 2 (GPU 1). */
uint64_t replay_agent_handle(int index);
/* One API call of `kind`: enter callback, the HIP stream announced around it (stream != 0), a
 * duration, the exit callback. Returns its correlation id. */
uint64_t replay_call(int32_t kind, const char *function, const struct replay_arg *args, int nargs, uint64_t stream,
                     const char *message, unsigned duration_us);
void replay_kernel_symbol(uint64_t kernel_id, const char *name);
void replay_kernel(uint64_t corr, int gpu, uint64_t queue, uint64_t kernel_id, uint64_t dispatch_id, uint64_t begin,
                   uint64_t end, uint32_t grid, uint32_t workgroup, uint32_t private_segment, uint32_t group_segment);
/* direction: ROCPROFILER_MEMORY_COPY_* (1 HtoH, 2 HtoD, 3 DtoH, 4 DtoD); agents by index */
void replay_copy(uint64_t corr, int direction, int dst_agent, int src_agent, uint64_t bytes, uint64_t begin,
                 uint64_t end);
/* operation: ROCPROFILER_SCRATCH_MEMORY_* (1 alloc, 2 free, 3 async reclaim) */
void replay_scratch(int operation, int gpu, uint64_t queue, uint64_t bytes, uint64_t begin, uint64_t end);
/* one unified-memory migration (KFD's paired record): agents by index, prefetch when it was a prefetch */
void replay_page_migrate(int src_agent, int dst_agent, uint64_t address, uint64_t bytes, uint64_t begin, uint64_t end,
                         int prefetch);
void replay_page_fault(int gpu, uint64_t address, uint64_t begin, uint64_t end);
#endif
