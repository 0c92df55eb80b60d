/*
 * Binary instrumentation: the instrumentation area and the runtime plan file, as
 * docs/instrumentation.md specifies them (the contract between the Java planner / area builder and
 * the agent). Little-endian, 8-byte aligned, offsets relative to the area start. Also used by the
 * agent's C tests, which build areas by hand.
 */
#ifndef ROCPROFSYS_INSTR_AREA_H
#define ROCPROFSYS_INSTR_AREA_H

#include <stdint.h>

#define RSYS_INSTR_AREA_MAGIC UINT64_C(0x31534e4953595352) /* "RSYSINS1" */
/* 2: trampolines give the hook a landing (below); 1 (no landing) is still applied */
#define RSYS_INSTR_AREA_VERSION 2u
#define RSYS_INSTR_AREA_VERSION_NO_LANDING 1u

/* Whether the agent applies an area of this version. */
static inline int rsys_instr_area_version_ok(uint32_t version)
{
    return version == RSYS_INSTR_AREA_VERSION || version == RSYS_INSTR_AREA_VERSION_NO_LANDING;
}
#define RSYS_INSTR_PLAN_MAGIC UINT64_C(0x314e4c5053595352) /* "RSYSPLN1" */
#define RSYS_INSTR_PLAN_VERSION 1u

/* Bits of rsys_instr_area_header.flags */
#define RSYS_INSTR_AREA_APPLIED 1u /* relocations and entry patches already applied (rewrite mode) */

/* PT_NOTE of a rewritten module: name "RocProfSys", type 1, desc u64 area vaddr (bias-relative) */
#define RSYS_INSTR_NOTE_NAME "RocProfSys"
#define RSYS_INSTR_NOTE_TYPE 1u

struct rsys_instr_area_header {
    uint64_t magic;       /*  0 RSYS_INSTR_AREA_MAGIC */
    uint32_t version;     /*  8 RSYS_INSTR_AREA_VERSION */
    uint32_t flags;       /* 12 RSYS_INSTR_AREA_* */
    uint32_t nfuncs;      /* 16 */
    uint32_t nrelocs;     /* 20 */
    uint32_t funcs_off;   /* 24 struct rsys_instr_func[nfuncs] */
    uint32_t relocs_off;  /* 28 struct rsys_instr_reloc[nrelocs] */
    uint32_t strtab_off;  /* 32 NUL-terminated names */
    uint32_t strtab_size; /* 36 */
    uint32_t env_off;     /* 40 "VAR=VAL\0...\0\0" defaults (0: none) */
    uint32_t mode;        /* 44 0 trace, 1 sampling, 2 coverage */
    uint32_t rx_size;     /* 48 bytes from 0 that are read+execute (page multiple) */
    uint32_t data_off;    /* 52 == rx_size: struct rsys_instr_data */
    uint32_t area_size;   /* 56 rx_size + one page */
    uint32_t reserved;    /* 60 */
    uint64_t area_vaddr;  /* 64 rewrite: bias-relative vaddr of the area; runtime: 0 */
};

struct rsys_instr_func {
    uint64_t func_vaddr; /* entry, bias-relative */
    uint32_t tramp_off;  /* T_f */
    uint32_t name_off;   /* into strtab */
    uint32_t patch_len;  /* bytes replaced at the entry (>= 5) */
    uint32_t reserved;
};

/* value = (bias + target_vaddr) + addend - (area_address + area_off), stored as a rel32 */
struct rsys_instr_reloc {
    uint32_t area_off;
    int32_t addend;
    uint64_t target_vaddr;
};

/*
 * Version 2 trampoline head: push fid; call stub; call L + 6 (pushes L, the landing, as a return
 * address the CPU predicts); L: jmp [rip + exit_fn]; lea rsp, [rsp + 8] (drops L again). The stub
 * passes L in rcx and the hook puts it into the function's return-address slot, so the function's
 * ret goes where the CPU's return predictor expects, and the exit trampoline's own ret goes to the
 * real return address, again as predicted. Version 1 heads (push fid; call stub) pass no landing.
 */
struct rsys_instr_data {
    uint64_t enter_fn; /* v2: void enter_fn(uint32_t fid, uint64_t ctx, uint64_t *ret_slot,
                          uint64_t landing); v1: without landing; 0: off */
    uint64_t ctx;      /* the area's global function id base */
    uint64_t exit_fn;  /* v2: the exit trampoline the landing jumps to */
};

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include <stddef.h>
_Static_assert(sizeof(struct rsys_instr_area_header) == 72, "area header");
_Static_assert(offsetof(struct rsys_instr_area_header, area_vaddr) == 64, "area_vaddr");
_Static_assert(sizeof(struct rsys_instr_func) == 24, "func");
_Static_assert(sizeof(struct rsys_instr_reloc) == 16, "reloc");
#endif

#endif
