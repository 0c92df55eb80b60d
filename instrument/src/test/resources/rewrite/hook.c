/*
 * LD_PRELOAD stand-in for the agent, for ElfRewriterTest: finds the "RocProfSys" PT_NOTE of every
 * loaded module, fills enter_fn/ctx of its area (rewrite mode: flags bit 0 set) and counts entries
 * per (module, fid). At exit writes "<module> <label> <count>" lines to $HOOK_OUT, plus
 * "bad_slot N" for return-address slots that are misaligned or do not hold an address in an
 * executable segment of a module loaded at start.
 *
 * Built with -mgeneral-regs-only, and enter() calls nothing: the stub saves only the integer
 * argument registers, so the hook must not touch vector registers (libc calls would).
 */
#define _GNU_SOURCE
#include <link.h>
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

__attribute__((constructor)) static void hook_init(void) { dl_iterate_phdr(cb, NULL); }

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
