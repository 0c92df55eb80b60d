/* See plan_gen.h. */
#include "plan_gen.h"

#include "rsys_instr_area.h"

#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAGE 4096u

/* The load bias and real path of the module holding `addr` (0: found). */
static int module_of(const void *addr, uint64_t *bias, char *path)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1(addr, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL) {
        return 1;
    }
    *bias = map->l_addr;
    const char *name = map->l_name && map->l_name[0] ? map->l_name : "/proc/self/exe";
    return realpath(name, path) == NULL;
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

/* The area (contract format, not applied) for the functions fns[i] with mod[i] == m. */
static unsigned char *build_area(const struct pg_func *all, const int *mod, unsigned nall, int m,
                                 uint64_t exe_bias, int bad_entry, uint32_t *size_out)
{
    struct pg_func fns[64];
    unsigned n = 0;
    for (unsigned i = 0; i < nall && n < 64; i++) {
        if (mod[i] == m) {
            fns[n++] = all[i];
        }
    }
    size_t cap = 1u << 20;
    unsigned char *a = calloc(1, cap);
    struct rsys_instr_area_header *h = (struct rsys_instr_area_header *)a;
    h->magic = RSYS_INSTR_AREA_MAGIC;
    h->version = RSYS_INSTR_AREA_VERSION_NO_LANDING; /* the trampolines below give no landing */
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
                free(a);
                return NULL;
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
    *size_out = h->area_size;
    return a;
}

int pg_write_plan(const char *out, const struct pg_func *fns, unsigned n, int bad_entry)
{
    /* modules, in the order their first function comes */
    static char paths[8][PATH_MAX];
    uint64_t biases[8];
    int mod[64];
    int nmod = 0;
    if (n > 64) {
        return 1;
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t bias;
        char path[PATH_MAX];
        if (module_of(fns[i].addr, &bias, path) != 0) {
            fprintf(stderr, "plan_gen: %s: no module\n", fns[i].name);
            return 1;
        }
        int m = 0;
        while (m < nmod && strcmp(paths[m], path) != 0) {
            m++;
        }
        if (m == nmod) {
            if (nmod == 8) {
                return 1;
            }
            memcpy(paths[nmod], path, sizeof path);
            biases[nmod++] = bias;
        }
        mod[i] = m;
    }
    FILE *o = fopen(out, "wb");
    if (o == NULL) {
        perror(out);
        return 1;
    }
    uint64_t magic = RSYS_INSTR_PLAN_MAGIC;
    uint32_t hv[2] = {RSYS_INSTR_PLAN_VERSION, (uint32_t)nmod};
    static const unsigned char zero[8];
    fwrite(&magic, 8, 1, o);
    fwrite(hv, 4, 2, o);
    for (int m = 0; m < nmod; m++) {
        uint32_t size = 0;
        unsigned char *a = build_area(fns, mod, n, m, biases[m], bad_entry && m == 0, &size);
        if (a == NULL) {
            fclose(o);
            return 1;
        }
        const char *path = paths[m];
        uint32_t mh[2] = {(uint32_t)strlen(path), size};
        fwrite(mh, 4, 2, o);
        fwrite(path, 1, strlen(path), o);
        fwrite(zero, 1, (8 - strlen(path) % 8) % 8, o);
        fwrite(a, 1, size, o);
        free(a);
    }
    return fclose(o) != 0;
}
