/* See plan_gen.h. */
#include "plan_gen.h"

#include "rsys_instr_area.h"

#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE 4096u

static uint64_t exe_bias;

static int first_module(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    exe_bias = info->dlpi_addr;
    return 1; /* the executable comes first */
}

/* Length of the instruction at p; *rip_at = offset of its rel32 displacement or -1. 0: unknown. */
static unsigned insn_len(const unsigned char *p, int *rip_at)
{
    *rip_at = -1;
    if (p[0] >= 0x50 && p[0] <= 0x57) {
        return 1; /* push r */
    }
    if (p[0] == 0x41 && p[1] >= 0x50 && p[1] <= 0x57) {
        return 2; /* push r8-r15 */
    }
    if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa) {
        return 4; /* endbr64 */
    }
    if (p[0] == 0x48 && p[1] == 0x89 && p[2] == 0xe5) {
        return 3; /* mov rbp, rsp */
    }
    if (p[0] == 0x48 && p[1] == 0x83 && p[2] == 0xec) {
        return 4; /* sub rsp, imm8 */
    }
    if (p[0] == 0x48 && p[1] == 0x81 && p[2] == 0xec) {
        return 7; /* sub rsp, imm32 */
    }
    int rex = p[0] == 0x48 || p[0] == 0x4c;
    const unsigned char *q = rex ? p + 1 : p;
    if (q[0] == 0x89 && (q[1] & 0xc7) == 0x45) {
        return (unsigned)(rex + 3); /* mov [rbp + d8], r */
    }
    if (rex && (q[0] == 0x8d || q[0] == 0x8b) && (q[1] & 0xc7) == 0x05) {
        *rip_at = 3; /* lea / mov r, [rip + d32] */
        return 7;
    }
    return 0;
}

static void put32(unsigned char *p, uint32_t v)
{
    memcpy(p, &v, 4);
}

int pg_write_plan(const char *out, const struct pg_func *fns, unsigned n, int bad_entry)
{
    dl_iterate_phdr(first_module, NULL);
    char path[PATH_MAX];
    if (realpath("/proc/self/exe", path) == NULL) {
        perror("realpath");
        return 1;
    }
    size_t cap = 1u << 20;
    unsigned char *a = calloc(1, cap);
    struct rsys_instr_area_header *h = (struct rsys_instr_area_header *)a;
    h->magic = RSYS_INSTR_AREA_MAGIC;
    h->version = RSYS_INSTR_AREA_VERSION;
    h->nfuncs = n;
    h->funcs_off = sizeof *h;
    struct rsys_instr_func *f = (struct rsys_instr_func *)(a + h->funcs_off);
    /* at most 2 relocations per function */
    h->relocs_off = h->funcs_off + n * (uint32_t)sizeof *f;
    struct rsys_instr_reloc *r = (struct rsys_instr_reloc *)(a + h->relocs_off);
    uint32_t at = h->relocs_off + 2 * n * (uint32_t)sizeof *r;
    h->strtab_off = at;
    for (unsigned i = 0; i < n; i++) {
        f[i].name_off = at - h->strtab_off;
        memcpy(a + at, fns[i].name, strlen(fns[i].name) + 1);
        at += (uint32_t)strlen(fns[i].name) + 1;
    }
    h->strtab_size = at - h->strtab_off;
    at = (at + 15u) & ~15u;
    /* code: the stub, then the trampolines; the data page's offset is fixed once sizes are known,
     * so reserve the code first and patch the stub's two data references afterwards */
    uint32_t stub = at;
    static const unsigned char stub_code[] = {
        0x50, 0x57, 0x56, 0x52, 0x51, 0x41, 0x50, 0x41, 0x51, 0x41, 0x52, /* pushes */
        0x48, 0x8b, 0x05, 0, 0, 0, 0,                                    /* mov rax, [rip+enter_fn] */
        0x48, 0x85, 0xc0,                                                /* test rax, rax */
        0x74, 0x11,                                                      /* jz 1f */
        0x44, 0x89, 0xdf,                                                /* mov edi, r11d */
        0x48, 0x8b, 0x35, 0, 0, 0, 0,                                    /* mov rsi, [rip+ctx] */
        0x48, 0x8d, 0x54, 0x24, 0x48,                                    /* lea rdx, [rsp+72] */
        0xff, 0xd0,                                                      /* call rax */
        0x41, 0x5a, 0x41, 0x59, 0x41, 0x58, 0x59, 0x5a, 0x5e, 0x5f, 0x58, /* 1: pops */
        0xc3};
    memcpy(a + at, stub_code, sizeof stub_code);
    at += sizeof stub_code;
    uint32_t nrel = 0;
    for (unsigned i = 0; i < n; i++) {
        const unsigned char *code = (const unsigned char *)fns[i].addr;
        uint64_t vaddr = (uint64_t)(uintptr_t)code - exe_bias;
        at = (at + 15u) & ~15u;
        f[i].func_vaddr = bad_entry && i == n - 1 ? UINT64_C(0x7000000000) : vaddr;
        f[i].tramp_off = at;
        a[at] = 0x41; /* mov r11d, fid */
        a[at + 1] = 0xbb;
        put32(a + at + 2, i);
        a[at + 6] = 0xe8; /* call stub */
        put32(a + at + 7, stub - (at + 11));
        at += 11;
        unsigned len = 0;
        while (len < 5) {
            int rip;
            unsigned l = insn_len(code + len, &rip);
            if (l == 0) {
                fprintf(stderr, "plan_gen: %s: unknown instruction %02x %02x %02x at +%u\n", fns[i].name,
                        code[len], code[len + 1], code[len + 2], len);
                return 1;
            }
            memcpy(a + at, code + len, l);
            if (rip >= 0) {
                int32_t disp;
                memcpy(&disp, code + len + rip, 4);
                r[nrel].area_off = at + (uint32_t)rip;
                r[nrel].addend = -(int32_t)(l - (unsigned)rip);
                r[nrel].target_vaddr = vaddr + len + l + (uint64_t)(int64_t)disp;
                nrel++;
            }
            at += l;
            len += l;
        }
        f[i].patch_len = len;
        a[at] = 0xe9; /* jmp f + len */
        r[nrel].area_off = at + 1;
        r[nrel].addend = -4;
        r[nrel].target_vaddr = vaddr + len;
        nrel++;
        at += 5;
    }
    h->nrelocs = nrel;
    h->rx_size = (at + PAGE - 1) & ~(PAGE - 1);
    h->data_off = h->rx_size;
    h->area_size = h->rx_size + PAGE;
    put32(a + stub + 14, h->data_off - (stub + 18));
    put32(a + stub + 29, h->data_off + 8 - (stub + 33));

    FILE *o = fopen(out, "wb");
    if (o == NULL) {
        perror(out);
        return 1;
    }
    uint64_t magic = RSYS_INSTR_PLAN_MAGIC;
    uint32_t hv[2] = {RSYS_INSTR_PLAN_VERSION, 1};
    uint32_t mh[2] = {(uint32_t)strlen(path), h->area_size};
    static const unsigned char zero[8];
    fwrite(&magic, 8, 1, o);
    fwrite(hv, 4, 2, o);
    fwrite(mh, 4, 2, o);
    fwrite(path, 1, strlen(path), o);
    fwrite(zero, 1, (8 - strlen(path) % 8) % 8, o);
    fwrite(a, 1, h->area_size, o);
    int bad = fclose(o) != 0;
    free(a);
    return bad;
}
