package org.rocprofsys.instrument.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.instrument.select.InternalLibraries;
import org.rocprofsys.instrument.select.SelectionOptions;

/**
 * Which libraries a runtime instrumentation plans besides the program: the user libraries it links
 * (found through RPATH/RUNPATH and LD_LIBRARY_PATH) and those beside it that it may dlopen, plus
 * the system libraries of its DT_NEEDED closure that {@code -MI}/{@code -MR} name. The other
 * system libraries are left out (upstream's system-lib rule) and reported, so the user learns
 * which option selects one. With {@code --internal-library-deps} the libraries that an internal
 * library links become internal too.
 *
 * @param planned         the libraries to plan, real paths
 * @param systemLeftOut   the system libraries of the closure that no {@code -MI}/{@code -MR} names and
 *                        that are not internal libraries (whose functions no option but
 *                        {@code --internal-library-remove} would make candidates)
 * @param internalDeps    with {@code --internal-library-deps}: the file names the internal libraries link
 */
record RuntimeModules(List<Path> planned, List<Path> systemLeftOut, List<String> internalDeps) {
    /** System library folders: their libraries are planned at run time only when -MI/-MR names them. */
    private static final List<String> SYSTEM_DIRS =
            List.of("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/libexec/");

    /** Where the dynamic linker finds a DT_NEEDED name without a path of the program's (ld.so's defaults). */
    private static final List<Path> DEFAULT_DIRS = List.of(
            Path.of("/lib/x86_64-linux-gnu"),
            Path.of("/usr/lib/x86_64-linux-gnu"),
            Path.of("/lib64"),
            Path.of("/usr/lib64"),
            Path.of("/lib"),
            Path.of("/usr/lib"),
            Path.of("/usr/local/lib"));

    /** Libraries beside the program planned for a later dlopen, at most this many per folder. */
    private static final int MAX_DLOPEN_CANDIDATES = 64;

    /** The closure is walked up to this many libraries (a program links some dozens). */
    private static final int MAX_CLOSURE = 512;

    static RuntimeModules of(
            ElfFile program, SelectionOptions selection, boolean internalDeps, Map<String, String> env, Path cwd) {
        Path origin = program.path().toAbsolutePath().getParent();
        List<Path> runPaths = runPaths(program, origin, cwd);
        List<Path> userSearch = new ArrayList<>(runPaths);
        for (String d : env.getOrDefault("LD_LIBRARY_PATH", "").split(":")) {
            if (!d.isEmpty()) {
                userSearch.add(cwd.resolve(d));
            }
        }
        Set<Path> planned = new LinkedHashSet<>();
        for (String needed : program.needed()) {
            find(needed, userSearch).filter(RuntimeModules::userLibrary).ifPresent(planned::add);
        }
        // libraries the program may dlopen later: the user libraries beside it and in its
        // RUNPATH/RPATH folders (the agent applies a plan when its library is loaded)
        List<Path> folders = new ArrayList<>(runPaths);
        folders.add(origin);
        for (Path dir : folders) {
            if (inSystemFolder(dir)) {
                continue;
            }
            try (var files = Files.list(dir)) {
                files.filter(f -> f.getFileName().toString().matches("lib.*\\.so(\\.[0-9.]+)?"))
                        .sorted()
                        .limit(MAX_DLOPEN_CANDIDATES)
                        .map(RuntimeModules::realPath)
                        .flatMap(Optional::stream)
                        .filter(RuntimeModules::userLibrary)
                        .forEach(planned::add);
            } catch (IOException e) {
                // an unreadable folder offers no library
            }
        }

        // the DT_NEEDED closure, as the dynamic linker resolves it (each library's own RUNPATH aside)
        List<Path> closureSearch = new ArrayList<>(userSearch);
        closureSearch.addAll(DEFAULT_DIRS);
        Map<Path, List<String>> closure = new LinkedHashMap<>();
        Deque<String> todo = new ArrayDeque<>(program.needed());
        Set<String> seen = new LinkedHashSet<>(program.needed());
        while (!todo.isEmpty() && closure.size() < MAX_CLOSURE) {
            String name = todo.poll();
            Optional<Path> lib = find(name, closureSearch);
            if (lib.isEmpty() || closure.containsKey(lib.get())) {
                continue;
            }
            List<String> needed = needed(lib.get());
            closure.put(lib.get(), needed);
            for (String n : needed) {
                if (seen.add(n)) {
                    todo.add(n);
                }
            }
        }
        List<Pattern> named = new ArrayList<>(selection.moduleInclude());
        named.addAll(selection.moduleRestrict());
        InternalLibraries internal = selection.internalLibraries();
        List<Path> leftOut = new ArrayList<>();
        for (Path lib : closure.keySet()) {
            if (!inSystemFolder(lib) || isOwn(lib)) {
                continue;
            }
            String text = lib.toString();
            if (named.stream().anyMatch(p -> p.matcher(text).find())) {
                planned.add(lib);
            } else if (!internal.internal(lib.getFileName().toString())) {
                leftOut.add(lib);
            }
        }
        Set<String> deps = new LinkedHashSet<>();
        if (internalDeps) {
            closure.forEach((lib, needed) -> {
                if (internal.internal(lib.getFileName().toString())) {
                    deps.addAll(needed);
                }
            });
        }
        return new RuntimeModules(List.copyOf(planned), List.copyOf(leftOut), List.copyOf(deps));
    }

    private static List<Path> runPaths(ElfFile elf, Path origin, Path cwd) {
        List<Path> out = new ArrayList<>();
        for (String r : List.of(elf.runpath().orElse(""), elf.rpath().orElse(""))) {
            for (String d : r.split(":")) {
                if (!d.isEmpty()) {
                    out.add(cwd.resolve(
                            d.replace("${ORIGIN}", origin.toString()).replace("$ORIGIN", origin.toString())));
                }
            }
        }
        return out;
    }

    private static Optional<Path> find(String needed, List<Path> search) {
        if (needed.contains("/")) {
            return realPath(Path.of(needed));
        }
        return search.stream()
                .map(d -> d.resolve(needed))
                .filter(Files::isRegularFile)
                .findFirst()
                .flatMap(RuntimeModules::realPath);
    }

    private static List<String> needed(Path lib) {
        try {
            return ElfFile.open(lib).needed();
        } catch (IOException | RuntimeException e) {
            return List.of(); // not an ELF the linker would load either: it links nothing
        }
    }

    private static Optional<Path> realPath(Path p) {
        try {
            return Optional.of(p.toRealPath());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Outside the system folders, and not one of the profiler's own libraries. */
    private static boolean userLibrary(Path p) {
        return !inSystemFolder(p) && !isOwn(p);
    }

    private static boolean isOwn(Path p) {
        return p.getFileName().toString().startsWith("librocprof-sys");
    }

    private static boolean inSystemFolder(Path p) {
        String s = p + "/";
        return SYSTEM_DIRS.stream().anyMatch(s::startsWith);
    }
}
