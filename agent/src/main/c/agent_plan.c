/*
 * Instrumentation areas and the runtime plan (docs/instrumentation.md). The plan file named by
 * ROCPROFSYS_INSTRUMENT_PLAN holds, per module path, an area as the Java planner built it; when the
 * module is loaded, its area is copied to an anonymous mapping within rel32 reach of the module,
 * relocated against the module's load bias, and each planned function's entry is patched with a
 * jump to its trampoline. agent_instr.c registers the result (and the areas rewritten modules
 * carry, checked with rsys_area_check) and records; this file only places code.
 */
#include "rsys_agent.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static long rsys_pagesz = 4096;

const char *rsys_area_check(const struct rsys_instr_area_header *h, uint64_t size_limit)
{
    if (h->magic != RSYS_INSTR_AREA_MAGIC) {
        return "bad area magic";
    }
    if (!rsys_instr_area_version_ok(h->version)) {
        return "unsupported area version";
    }
    uint64_t sz = h->area_size;
    if (sz > size_limit || h->rx_size > sz || h->data_off < h->rx_size ||
        (uint64_t)h->data_off + sizeof(struct rsys_instr_data) > sz || (h->data_off & 7u) != 0) {
        return "area sizes out of bounds";
    }
    if ((uint64_t)h->funcs_off + (uint64_t)h->nfuncs * sizeof(struct rsys_instr_func) > h->rx_size ||
        (uint64_t)h->relocs_off + (uint64_t)h->nrelocs * sizeof(struct rsys_instr_reloc) > h->rx_size ||
        (uint64_t)h->strtab_off + h->strtab_size > h->rx_size || (h->funcs_off & 7u) != 0 ||
        (h->relocs_off & 7u) != 0) {
        return "area tables out of bounds";
    }
    const struct rsys_instr_func *f =
        (const struct rsys_instr_func *)((const unsigned char *)h + h->funcs_off);
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        if (f[i].tramp_off >= h->rx_size || f[i].patch_len < 5 || f[i].patch_len > 64) {
            return "bad function entry";
        }
    }
    return NULL;
}

struct rsys_plan_mod {
    const char *path;
    const unsigned char *area; /* in the plan file's copy */
    uint32_t area_size;
    int done;            /* applied or failed for load bias `bias` */
    uint64_t bias;
    unsigned char *mapped; /* the applied copy */
};

static struct rsys_plan_mod *rsys_plan;
static uint32_t rsys_plan_n;
static char rsys_exe_real[PATH_MAX];

void rsys_refuse_module(const char *module, const char *why)
{
    dprintf(2, "rocprof-sys: instrument: %s: %s; module left uninstrumented\n", module, why);
}

void rsys_plan_load(void)
{
    rsys_pagesz = rsys_g.page_size > 0 ? rsys_g.page_size : 4096;
    const char *path = getenv("ROCPROFSYS_INSTRUMENT_PLAN");
    if (path == NULL || *path == 0) {
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        dprintf(2, "rocprof-sys: instrument: cannot read the plan %s: %s\n", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
        }
        return;
    }
    size_t n = (size_t)sb.st_size;
    unsigned char *buf = n >= 16 ? malloc(n) : NULL;
    size_t got = buf != NULL ? rsys_read_full(fd, buf, n) : 0;
    close(fd);
    uint64_t magic = 0;
    uint32_t version = 0, nmods = 0;
    if (buf != NULL && got == n) {
        memcpy(&magic, buf, 8);
        memcpy(&version, buf + 8, 4);
        memcpy(&nmods, buf + 12, 4);
    }
    if (buf == NULL || got != n || magic != RSYS_INSTR_PLAN_MAGIC || version != RSYS_INSTR_PLAN_VERSION ||
        nmods > 100000) {
        dprintf(2, "rocprof-sys: instrument: %s is not a plan file of version %u\n", path,
                RSYS_INSTR_PLAN_VERSION);
        free(buf);
        return;
    }
    struct rsys_plan_mod *mods = calloc(nmods ? nmods : 1, sizeof *mods);
    if (mods == NULL) {
        free(buf);
        return;
    }
    size_t at = 16;
    uint32_t k = 0;
    for (; k < nmods; k++) {
        uint32_t plen, asize;
        if (at + 8 > n) {
            break;
        }
        memcpy(&plen, buf + at, 4);
        memcpy(&asize, buf + at + 4, 4);
        at += 8;
        size_t pad_path = ((size_t)plen + 7u) & ~(size_t)7u;
        size_t pad_area = ((size_t)asize + 7u) & ~(size_t)7u;
        if (plen == 0 || at + pad_path + pad_area > n || asize < sizeof(struct rsys_instr_area_header)) {
            break;
        }
        char *p = malloc(plen + 1u);
        if (p == NULL) {
            break;
        }
        memcpy(p, buf + at, plen);
        p[plen] = 0;
        mods[k].path = p;
        mods[k].area = buf + at + pad_path;
        mods[k].area_size = asize;
        at += pad_path + pad_area;
    }
    if (k != nmods) {
        dprintf(2, "rocprof-sys: instrument: %s: truncated or corrupt at module %u\n", path, k);
    }
    rsys_plan = mods;
    rsys_plan_n = k;
    ssize_t r = readlink("/proc/self/exe", rsys_exe_real, sizeof rsys_exe_real - 1);
    rsys_exe_real[r > 0 ? r : 0] = 0;
    char real[PATH_MAX];
    if (r > 0 && realpath(rsys_exe_real, real) != NULL) {
        memcpy(rsys_exe_real, real, strlen(real) + 1);
    }
}

static int rsys_prot_of(uint32_t pf)
{
    return ((pf & PF_R) ? PROT_READ : 0) | ((pf & PF_W) ? PROT_WRITE : 0) |
           ((pf & PF_X) ? PROT_EXEC : 0);
}

const ElfW(Phdr) *rsys_segment_of(const struct dl_phdr_info *info, uint64_t addr, uint64_t len)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uint64_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && addr >= start && addr + len <= start + ph->p_memsz) {
            return ph;
        }
    }
    return NULL;
}

static int rsys_fits_rel32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* An anonymous read+write mapping of `size` bytes whose every byte is within rel32 reach of
 * [lo, hi). */
static unsigned char *rsys_map_near(uint64_t lo, uint64_t hi, size_t size)
{
    static const uint64_t steps[] = {0, 1ull << 16, 1ull << 20, 16ull << 20, 128ull << 20, 512ull << 20,
                                     1ull << 30};
    const uint64_t reach = (1ull << 31) - (1ull << 16);
    for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        for (int below = 0; below < 2; below++) {
            uint64_t addr;
            if (below) {
                if (lo < size + steps[s] + (1ull << 20)) {
                    continue;
                }
                addr = (lo - size - steps[s]) & ~(uint64_t)(rsys_pagesz - 1);
            } else {
                addr = hi + steps[s];
            }
            uint64_t end = addr + size;
            uint64_t span_lo = addr < lo ? addr : lo;
            uint64_t span_hi = end > hi ? end : hi;
            if (span_hi - span_lo >= reach) {
                continue;
            }
            void *p = mmap((void *)(uintptr_t)addr, size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
            if (p == MAP_FAILED) {
                continue;
            }
            if ((uint64_t)(uintptr_t)p == addr) {
                return (unsigned char *)p;
            }
            munmap(p, size); /* an old kernel took the flag as a hint */
        }
    }
    return NULL;
}

/* Whether function 0 of an applied area still jumps to its trampoline (else the module was
 * unloaded and loaded again). */
static int rsys_still_patched(const struct rsys_plan_mod *m, uint64_t bias)
{
    const struct rsys_instr_area_header *h = (const struct rsys_instr_area_header *)m->mapped;
    if (h->nfuncs == 0) {
        return 1;
    }
    const struct rsys_instr_func *f = (const struct rsys_instr_func *)(m->mapped + h->funcs_off);
    const unsigned char *site = (const unsigned char *)(uintptr_t)(bias + f[0].func_vaddr);
    int32_t rel;
    memcpy(&rel, site + 1, 4);
    return site[0] == 0xE9 &&
           (uint64_t)(uintptr_t)site + 5u + (uint64_t)(int64_t)rel ==
               (uint64_t)(uintptr_t)m->mapped + f[0].tramp_off;
}

/* Applies one planned module in memory. Returns NULL or why it could not. */
static const char *rsys_apply(struct rsys_plan_mod *m, const struct dl_phdr_info *info)
{
    struct rsys_instr_area_header hv;
    memcpy(&hv, m->area, sizeof hv);
    if (hv.area_size != m->area_size) {
        return "area size differs from the plan's";
    }
    if (hv.flags & RSYS_INSTR_AREA_APPLIED) {
        return "area marked applied in a runtime plan";
    }
    /* tables are checked on an aligned copy below; first the header's sizes */
    if (hv.magic != RSYS_INSTR_AREA_MAGIC || !rsys_instr_area_version_ok(hv.version)) {
        return "bad area magic or version";
    }
    if ((hv.rx_size & (uint32_t)(rsys_pagesz - 1)) != 0 || hv.data_off != hv.rx_size ||
        hv.area_size < hv.rx_size + sizeof(struct rsys_instr_data)) {
        return "area layout is not page-aligned as the contract says";
    }
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *p = &info->dlpi_phdr[i];
        if (p->p_type == PT_LOAD) {
            uint64_t s = (info->dlpi_addr + p->p_vaddr) & ~(uint64_t)(rsys_pagesz - 1);
            uint64_t e = (info->dlpi_addr + p->p_vaddr + p->p_memsz + (uint64_t)rsys_pagesz - 1) &
                         ~(uint64_t)(rsys_pagesz - 1);
            lo = s < lo ? s : lo;
            hi = e > hi ? e : hi;
        }
    }
    if (lo >= hi) {
        return "no loadable segment";
    }
    size_t size = ((size_t)hv.area_size + (size_t)rsys_pagesz - 1) & ~(size_t)(rsys_pagesz - 1);
    unsigned char *a = rsys_map_near(lo, hi, size);
    if (a == NULL) {
        return "no free address range within 2 GiB of the module for its area";
    }
    memcpy(a, m->area, hv.area_size);
    const struct rsys_instr_area_header *h = (const struct rsys_instr_area_header *)a;
    const char *why = rsys_area_check(h, size);
    if (why != NULL) {
        munmap(a, size);
        return why;
    }
    memset(a + h->data_off, 0, sizeof(struct rsys_instr_data));
    uint64_t bias = info->dlpi_addr;
    const struct rsys_instr_reloc *rl = (const struct rsys_instr_reloc *)(a + h->relocs_off);
    for (uint32_t i = 0; i < h->nrelocs; i++) {
        if ((uint64_t)rl[i].area_off + 4u > h->rx_size) {
            munmap(a, size);
            return "relocation outside the area";
        }
        int64_t v = (int64_t)(bias + rl[i].target_vaddr + (uint64_t)(int64_t)rl[i].addend -
                              ((uint64_t)(uintptr_t)a + rl[i].area_off));
        if (!rsys_fits_rel32(v)) {
            munmap(a, size);
            return "a relocation does not reach its target from the area";
        }
        int32_t v32 = (int32_t)v;
        memcpy(a + rl[i].area_off, &v32, 4);
    }
    /* the entry patches: every site inside an executable segment, within reach */
    const struct rsys_instr_func *f = (const struct rsys_instr_func *)(a + h->funcs_off);
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        uint64_t site = bias + f[i].func_vaddr;
        const ElfW(Phdr) *seg = rsys_segment_of(info, site, f[i].patch_len);
        if (seg == NULL || !(seg->p_flags & PF_X)) {
            munmap(a, size);
            return "a function entry lies outside the module's executable segments";
        }
        if (!rsys_fits_rel32((int64_t)((uint64_t)(uintptr_t)a + f[i].tramp_off - (site + 5u)))) {
            munmap(a, size);
            return "a trampoline is out of reach of its function";
        }
    }
    if (mprotect(a, h->rx_size, PROT_READ | PROT_EXEC) != 0) {
        int e = errno;
        munmap(a, size);
        return e == EACCES ? "mprotect of the area to read+execute refused (EACCES)"
                           : "mprotect of the area to read+execute failed";
    }
    /* make each executable segment holding sites writable, patch, restore its protection */
    int nseg = info->dlpi_phnum;
    int patched = 0;
    for (int s = 0; s < nseg; s++) {
        const ElfW(Phdr) *seg = &info->dlpi_phdr[s];
        if (seg->p_type != PT_LOAD || !(seg->p_flags & PF_X)) {
            continue;
        }
        uint64_t sa = info->dlpi_addr + seg->p_vaddr, se = sa + seg->p_memsz;
        uint64_t pmin = UINT64_MAX, pmax = 0;
        for (uint32_t i = 0; i < h->nfuncs; i++) {
            uint64_t site = bias + f[i].func_vaddr;
            if (site >= sa && site < se) {
                pmin = site < pmin ? site : pmin;
                pmax = site + f[i].patch_len > pmax ? site + f[i].patch_len : pmax;
            }
        }
        if (pmin >= pmax) {
            continue;
        }
        uint64_t p0 = pmin & ~(uint64_t)(rsys_pagesz - 1);
        uint64_t p1 = (pmax + (uint64_t)rsys_pagesz - 1) & ~(uint64_t)(rsys_pagesz - 1);
        if (mprotect((void *)(uintptr_t)p0, p1 - p0, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
            if (!patched) {
                munmap(a, size);
                return "cannot make the code writable (mprotect refused)";
            }
            /* earlier segments are patched (and consistent): keep them */
            rsys_refuse_module("(partially instrumented)", "cannot make a code segment writable");
            break;
        }
        patched = 1;
        for (uint32_t i = 0; i < h->nfuncs; i++) {
            uint64_t site = bias + f[i].func_vaddr;
            if (site < sa || site >= se) {
                continue;
            }
            unsigned char *c = (unsigned char *)(uintptr_t)site;
            int32_t rel = (int32_t)(int64_t)((uint64_t)(uintptr_t)a + f[i].tramp_off - (site + 5u));
            c[0] = 0xE9;
            memcpy(c + 1, &rel, 4);
            for (uint32_t b = 5; b < f[i].patch_len; b++) {
                c[b] = 0xCC;
            }
        }
        mprotect((void *)(uintptr_t)p0, p1 - p0, rsys_prot_of(seg->p_flags));
    }
    m->mapped = a;
    return NULL;
}


struct rsys_instr_area_header *rsys_plan_apply_next(struct dl_phdr_info *info, int index,
                                                    uint32_t *cursor)
{
    if (*cursor >= rsys_plan_n) {
        return NULL;
    }
    char real[PATH_MAX];
    const char *path;
    if (index == 0 && (info->dlpi_name == NULL || info->dlpi_name[0] == 0)) {
        path = rsys_exe_real;
    } else if (info->dlpi_name != NULL && info->dlpi_name[0] == '/' && realpath(info->dlpi_name, real) != NULL) {
        path = real;
    } else {
        return NULL;
    }
    while (*cursor < rsys_plan_n) {
        struct rsys_plan_mod *m = &rsys_plan[(*cursor)++];
        if (strcmp(m->path, path) != 0) {
            continue;
        }
        if (m->done && m->bias == info->dlpi_addr && (m->mapped == NULL || rsys_still_patched(m, m->bias))) {
            continue;
        }
        m->done = 1;
        m->bias = info->dlpi_addr;
        m->mapped = NULL;
        const char *why = rsys_apply(m, info);
        if (why != NULL) {
            rsys_refuse_module(path, why);
            continue;
        }
        return (struct rsys_instr_area_header *)m->mapped;
    }
    return NULL;
}
