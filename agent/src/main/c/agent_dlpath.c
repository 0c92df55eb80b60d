/*
 * The library search of a dlopen by bare name, as glibc would do it for the real caller. The dlopen
 * wrapper (agent_wrap.c) is the caller glibc sees, so glibc would search the agent's DT_RPATH /
 * DT_RUNPATH, not the calling module's: the wrapper asks here first. RPATH, or LD_LIBRARY_PATH
 * (unless AT_SECURE) then RUNPATH, with $ORIGIN expanded; the first existing file wins.
 */
#include "rsys_agent.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <unistd.h>

static int rsys_try_dir(const char *dir, size_t dlen, const char *origin, const char *file, char *out)
{
    char buf[PATH_MAX];
    size_t at = 0;
    for (size_t i = 0; i < dlen && at < sizeof buf - 1;) {
        if (dir[i] == '$' && (strncmp(dir + i, "$ORIGIN", 7) == 0 || strncmp(dir + i, "${ORIGIN}", 9) == 0)) {
            size_t ol = strlen(origin);
            if (at + ol >= sizeof buf) {
                return 0;
            }
            memcpy(buf + at, origin, ol);
            at += ol;
            i += dir[i + 1] == '{' ? 9 : 7;
        } else {
            buf[at++] = dir[i++];
        }
    }
    size_t fl = strlen(file);
    if (at == 0 || at + 1 + fl >= sizeof buf) {
        return 0;
    }
    buf[at++] = '/';
    memcpy(buf + at, file, fl + 1);
    if (access(buf, F_OK) != 0) {
        return 0;
    }
    memcpy(out, buf, at + fl + 1);
    return 1;
}

static int rsys_try_list(const char *list, const char *origin, const char *file, char *out)
{
    while (list != NULL && *list) {
        const char *e = strchr(list, ':');
        size_t n = e ? (size_t)(e - list) : strlen(list);
        if (n > 0 && rsys_try_dir(list, n, origin, file, out)) {
            return 1;
        }
        list = e ? e + 1 : NULL;
    }
    return 0;
}

int rsys_dlopen_search(const void *caller, const char *file, char *out)
{
    Dl_info info;
    struct link_map *map = NULL;
    if (dladdr1(caller, &info, (void **)&map, RTLD_DL_LINKMAP) == 0 || map == NULL || map->l_ld == NULL) {
        return 0;
    }
    const char *strtab = NULL;
    uint64_t rpath = UINT64_MAX, runpath = UINT64_MAX;
    for (const ElfW(Dyn) *d = map->l_ld; d->d_tag != DT_NULL; d++) {
        if (d->d_tag == DT_STRTAB) {
            uint64_t v = d->d_un.d_ptr;
            strtab = (const char *)(uintptr_t)(v < map->l_addr ? v + map->l_addr : v);
        } else if (d->d_tag == DT_RPATH) {
            rpath = d->d_un.d_val;
        } else if (d->d_tag == DT_RUNPATH) {
            runpath = d->d_un.d_val;
        }
    }
    if (strtab == NULL || (rpath == UINT64_MAX && runpath == UINT64_MAX)) {
        return 0;
    }
    char origin[PATH_MAX];
    const char *name = map->l_name && map->l_name[0] ? map->l_name : "/proc/self/exe";
    if (realpath(name, origin) == NULL) {
        return 0;
    }
    char *slash = strrchr(origin, '/');
    if (slash == NULL) {
        return 0;
    }
    *slash = 0;
    if (runpath != UINT64_MAX) {
        /* LD_LIBRARY_PATH first, then RUNPATH */
        if (getauxval(AT_SECURE) == 0 && rsys_try_list(getenv("LD_LIBRARY_PATH"), origin, file, out)) {
            return 1;
        }
        return rsys_try_list(strtab + runpath, origin, file, out);
    }
    return rsys_try_list(strtab + rpath, origin, file, out);
}

