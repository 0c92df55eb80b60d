/*
 * LD_PRELOAD stand-in for the agent, for ElfRewriterTest: finds the "RocProfSys" PT_NOTE of every
 * loaded module, fills enter_fn/ctx of its area (rewrite mode: flags bit 0 set) and counts entries
 * per (module, fid). At exit writes "<module> <label> <count>" lines to $HOOK_OUT, plus
 * "bad_slot N" for return-address slots that are misaligned or do not hold an address in an
 * executable segment of a module loaded at start.
 *
 * With $ROCPROFSYS_INSTRUMENT_PLAN it also applies a runtime plan first (see apply_plan).
 *
 * Built with -mgeneral-regs-only, and enter() calls nothing: the stub saves only the integer
 * argument registers, so the hook must not touch vector registers (libc calls would).
 */
#define _GNU_SOURCE
#include <link.h>
#include <limits.h>
#include <sys/mman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXMOD 8
#define MAXF 4096
static unsigned long counts[MAXMOD][MAXF];
static const char *areas[MAXMOD];
static char names[MAXMOD][512];
static int nmod;
static unsigned long bad_slot, misaligned_stack;
#define MAXR 256
static uintptr_t text_lo[MAXR], text_hi[MAXR];
static int ntext;

static void enter(uint32_t fid, uint64_t ctx, uint64_t *ret_slot) {
    if (ctx < MAXMOD && fid < MAXF) counts[ctx][fid]++;
    int in_text = 0;
    for (int i = 0; i < ntext; i++)
        if (*ret_slot >= text_lo[i] && *ret_slot < text_hi[i]) in_text = 1;
    if (((uintptr_t)ret_slot & 15) != 8 || !in_text) bad_slot++;
    if (((uintptr_t)__builtin_frame_address(0) & 15) != 0) misaligned_stack++;
}

static int cb(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && ntext < MAXR) {
            text_lo[ntext] = info->dlpi_addr + ph->p_vaddr;
            text_hi[ntext] = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
            ntext++;
        }
        if (ph->p_type != PT_NOTE) continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
        const char *end = p + ph->p_memsz;
        while (p + 12 <= end) {
            uint32_t namesz = *(const uint32_t *)p, descsz = *(const uint32_t *)(p + 4), type = *(const uint32_t *)(p + 8);
            const char *name = p + 12;
            const char *desc = name + ((namesz + 3) & ~3u);
            if (namesz == 11 && type == 1 && descsz == 8 && memcmp(name, "RocProfSys", 11) == 0 && nmod < MAXMOD) {
                uint64_t area_vaddr = *(const uint64_t *)desc;
                char *area = (char *)(info->dlpi_addr + area_vaddr);
                if (*(const uint64_t *)area != 0x31534e4953595352ull || (*(const uint32_t *)(area + 12) & 1) == 0) {
                    fprintf(stderr, "hook: bad area in %s\n", info->dlpi_name);
                    abort();
                }
                uint64_t *d = (uint64_t *)(area + *(const uint32_t *)(area + 52));
                areas[nmod] = area;
                snprintf(names[nmod], sizeof names[nmod], "%s", info->dlpi_name[0] ? info->dlpi_name : "main");
                d[1] = (uint64_t)nmod;
                d[0] = (uint64_t)(uintptr_t)enter;
                nmod++;
            }
            p = desc + ((descsz + 3) & ~3u);
        }
    }
    return 0;
}

/*
 * Runtime mode, as the agent does it (docs/instrumentation.md, "Runtime mode: the plan file"):
 * for each module of $ROCPROFSYS_INSTRUMENT_PLAN that is loaded (matched by realpath), map the
 * area above the module, apply its relocations, make the RX part read+execute, write the entry
 * jumps, then count its entries like a rewritten module's.
 */
struct planned { const char *path; const unsigned char *area; uint32_t size; };
struct apply_ctx { struct planned *mods; uint32_t n; };

static int apply_cb(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct apply_ctx *c = data;
    char real[4096];
    const char *name = info->dlpi_name[0] ? info->dlpi_name : "/proc/self/exe";
    if (!realpath(name, real)) return 0;
    for (uint32_t k = 0; k < c->n; k++) {
        if (strcmp(real, c->mods[k].path) != 0 || nmod >= MAXMOD) continue;
        const unsigned char *src = c->mods[k].area;
        uintptr_t bias = info->dlpi_addr, hi = 0;
        for (int i = 0; i < info->dlpi_phnum; i++)
            if (info->dlpi_phdr[i].p_type == PT_LOAD) {
                uintptr_t e = bias + info->dlpi_phdr[i].p_vaddr + info->dlpi_phdr[i].p_memsz;
                if (e > hi) hi = e;
            }
        uintptr_t hint = (hi + (1 << 20) + 4095) & ~(uintptr_t)4095;
        char *area = mmap((void *)hint, c->mods[k].size, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (area == MAP_FAILED) { fprintf(stderr, "hook: cannot map area\n"); abort(); }
        memcpy(area, src, c->mods[k].size);
        if ((*(uint32_t *)(area + 12) & 1) != 0 || *(uint64_t *)(area + 64) != 0) { fprintf(stderr, "hook: applied area in plan\n"); abort(); }
        uint32_t nrel = *(uint32_t *)(area + 20), roff = *(uint32_t *)(area + 28);
        for (uint32_t r = 0; r < nrel; r++) {
            const unsigned char *e = (const unsigned char *)area + roff + 16 * r;
            uint32_t off = *(const uint32_t *)e;
            int32_t addend = *(const int32_t *)(e + 4);
            uint64_t target = *(const uint64_t *)(e + 8);
            int64_t v = (int64_t)(bias + target) + addend - (int64_t)(uintptr_t)(area + off);
            if (v != (int32_t)v) { fprintf(stderr, "hook: reloc out of reach\n"); abort(); }
            *(int32_t *)(area + off) = (int32_t)v;
        }
        uint32_t rx = *(uint32_t *)(area + 48);
        mprotect(area, rx, PROT_READ | PROT_EXEC);
        uint32_t nf = *(uint32_t *)(area + 16), foff = *(uint32_t *)(area + 24);
        for (uint32_t i = 0; i < nf; i++) {
            const unsigned char *f = (const unsigned char *)area + foff + 24 * i;
            unsigned char *entry = (unsigned char *)(bias + *(const uint64_t *)f);
            uint32_t tramp = *(const uint32_t *)(f + 8), plen = *(const uint32_t *)(f + 16);
            uintptr_t pg = (uintptr_t)entry & ~(uintptr_t)4095;
            size_t len = ((uintptr_t)entry + plen - pg + 4095) & ~(size_t)4095;
            mprotect((void *)pg, len, PROT_READ | PROT_WRITE | PROT_EXEC);
            int64_t rel = (int64_t)(uintptr_t)(area + tramp) - (int64_t)(uintptr_t)(entry + 5);
            entry[0] = 0xE9;
            memcpy(entry + 1, &(int32_t){(int32_t)rel}, 4);
            for (uint32_t b = 5; b < plen; b++) entry[b] = 0xCC;
            mprotect((void *)pg, len, PROT_READ | PROT_EXEC);
        }
        uint64_t *d = (uint64_t *)(area + *(uint32_t *)(area + 52));
        areas[nmod] = area;
        snprintf(names[nmod], sizeof names[nmod], "%s", info->dlpi_name[0] ? info->dlpi_name : "main");
        d[1] = (uint64_t)nmod;
        d[0] = (uint64_t)(uintptr_t)enter;
        nmod++;
    }
    return 0;
}

static void apply_plan(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "hook: no plan %s\n", path); abort(); }
    static unsigned char buf[1 << 24];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    if (n < 16 || *(uint64_t *)buf != 0x314e4c5053595352ull || *(uint32_t *)(buf + 8) != 1) { fprintf(stderr, "hook: bad plan\n"); abort(); }
    static struct planned mods[MAXMOD];
    static char paths[MAXMOD][4096];
    struct apply_ctx c = {mods, 0};
    uint32_t nm = *(uint32_t *)(buf + 12);
    size_t at = 16;
    for (uint32_t k = 0; k < nm && k < MAXMOD; k++) {
        uint32_t plen = *(uint32_t *)(buf + at), asize = *(uint32_t *)(buf + at + 4);
        at += 8;
        memcpy(paths[k], buf + at, plen < 4095 ? plen : 4095);
        paths[k][plen < 4095 ? plen : 4095] = 0;
        at += (plen + 7) & ~7u;
        mods[k].path = paths[k];
        mods[k].area = buf + at;
        mods[k].size = asize;
        at += (asize + 7) & ~7u;
        c.n++;
    }
    if (at != n) { fprintf(stderr, "hook: plan size %zu, parsed %zu\n", n, at); abort(); }
    dl_iterate_phdr(apply_cb, &c);
}

__attribute__((constructor)) static void hook_init(void) {
    dl_iterate_phdr(cb, NULL);
    const char *plan = getenv("ROCPROFSYS_INSTRUMENT_PLAN");
    if (plan) apply_plan(plan);
}

__attribute__((destructor)) static void hook_fini(void) {
    const char *out = getenv("HOOK_OUT");
    if (!out) return;
    FILE *f = fopen(out, "w");
    if (!f) return;
    for (int m = 0; m < nmod; m++) {
        const char *a = areas[m];
        uint32_t nfuncs = *(const uint32_t *)(a + 16), funcs_off = *(const uint32_t *)(a + 24);
        uint32_t strtab_off = *(const uint32_t *)(a + 32);
        for (uint32_t i = 0; i < nfuncs && i < MAXF; i++) {
            uint32_t name_off = *(const uint32_t *)(a + funcs_off + 24 * i + 12);
            const char *mod = strrchr(names[m], '/');
            fprintf(f, "%s %s %lu\n", mod ? mod + 1 : names[m], a + strtab_off + name_off, counts[m][i]);
        }
    }
    fprintf(f, "bad_slot %lu\nmisaligned_stack %lu\n", bad_slot, misaligned_stack);
    fclose(f);
}
