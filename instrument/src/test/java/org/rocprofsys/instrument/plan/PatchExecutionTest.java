package org.rocprofsys.instrument.plan;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rocprofsys.elf.ElfFile;
import org.rocprofsys.elf.testbin.TestBinaries;
import org.rocprofsys.instrument.select.SelectionOptions;
import org.rocprofsys.testkit.Command;

/**
 * Runs planned patches for real: a small C harness maps an area near its own executable, lays out
 * per function {@code inc qword [counter]; <relocated code>; jmp f+patch_len}, applies the fix-ups
 * like the agent would, writes the entry jumps, and calls the functions. Results must equal an
 * unpatched run and every call must have passed through its trampoline.
 */
class PatchExecutionTest {
    static final String HARNESS = """
            #define _GNU_SOURCE
            #include <link.h>
            #include <stdint.h>
            #include <stdio.h>
            #include <stdlib.h>
            #include <string.h>
            #include <sys/mman.h>
            #include <unistd.h>
            __attribute__((noinline)) int inner(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * counter; return s; }
            __attribute__((noinline)) int outer(int x) { return inner(x) + 1; }
            __attribute__((noinline)) int sw(int x) {
              switch (x) { case 0: return 3; case 1: return 5; case 2: return 9; case 3: return 11;
                           case 4: return 17; case 5: return 23; default: return 0; } }
            static uintptr_t bias;
            static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data) {
              (void) size; (void) data; bias = info->dlpi_addr; return 1; }
            static void apply(const char *path, uint64_t high_end, uint64_t *counts, int *nf, uint64_t *addrs) {
              FILE *f = fopen(path, "r");
              if (!f) { perror(path); exit(2); }
              dl_iterate_phdr(phdr_cb, NULL);
              long page = sysconf(_SC_PAGESIZE);
              uint8_t *area = (uint8_t *) MAP_FAILED;
              for (uintptr_t hint = (bias + high_end + 0x100000) & ~(uintptr_t)(page - 1); area == MAP_FAILED; hint += 0x100000)
                area = (uint8_t *) mmap((void *) hint, 1 << 20, PROT_READ | PROT_WRITE | PROT_EXEC,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
              uint64_t *slots = (uint64_t *) area;
              uint8_t *code = area + 4096;
              unsigned long long vaddr; int plen, clen, nfix;
              int i = 0;
              while (fscanf(f, "%llx %d %d", &vaddr, &plen, &clen) == 3) {
                uint8_t *t = code;
                /* inc qword [rip + slot] */
                t[0] = 0x48; t[1] = 0xff; t[2] = 0x05;
                int32_t d = (int32_t) ((uint8_t *) &slots[i] - (t + 7));
                memcpy(t + 3, &d, 4);
                uint8_t *rel = t + 7;
                for (int k = 0; k < clen; k++) { unsigned b; fscanf(f, "%2x", &b); rel[k] = (uint8_t) b; }
                fscanf(f, "%d", &nfix);
                for (int k = 0; k < nfix; k++) {
                  int off, addend; unsigned long long target;
                  fscanf(f, "%d %d %llx", &off, &addend, &target);
                  int64_t v = (int64_t) (bias + target) + addend - (int64_t) (uintptr_t) (rel + off);
                  int32_t v32 = (int32_t) v;
                  if (v != v32) { fprintf(stderr, "fixup out of range\\n"); exit(3); }
                  memcpy(rel + off, &v32, 4);
                }
                uint8_t *back = rel + clen;
                back[0] = 0xe9;
                int32_t r = (int32_t) ((int64_t) (bias + vaddr + plen) - (int64_t) (uintptr_t) (back + 5));
                memcpy(back + 1, &r, 4);
                uint8_t *fn = (uint8_t *) (bias + vaddr);
                uintptr_t pg = (uintptr_t) fn & ~(uintptr_t) (page - 1);
                mprotect((void *) pg, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC);
                fn[0] = 0xe9;
                int32_t j = (int32_t) ((int64_t) (uintptr_t) t - (int64_t) (uintptr_t) (fn + 5));
                memcpy(fn + 1, &j, 4);
                for (int k = 5; k < plen; k++) fn[k] = 0xcc;
                mprotect((void *) pg, 2 * page, PROT_READ | PROT_EXEC);
                addrs[i] = vaddr;
                code = back + 5 + 16;
                i++;
              }
              *nf = i;
              (void) counts;
              fclose(f);
              global_slots = slots;
            }
            """;

    static final String MAIN = """
            int main(int argc, char **argv) {
              uint64_t addrs[64]; int nf = 0; uint64_t dummy[1];
              if (argc > 2) apply(argv[1], strtoull(argv[2], NULL, 16), dummy, &nf, addrs);
              printf("riploader=%d\\n", riploader());
              printf("asm_jcc0=%d asm_jcc1=%d\\n", asm_jcc(0), asm_jcc(1));
              printf("asm_call=%d\\n", asm_call());
              /* the callee of a relocated call sees the original return address */
              printf("ra_off=%ld\\n", (long) ((char *) helper_ra - (char *) asm_call));
              printf("asm_jmp=%d\\n", asm_jmp());
              printf("outer=%d inner=%d\\n", outer(10), inner(7));
              int s = 0; for (int k = 0; k < 8; k++) s += sw(k);
              printf("sw=%d\\n", s);
              printf("vec=%d\\n", vecload());
              exceptions();
              for (int k = 0; k < nf; k++) printf("count %llx=%llu\\n", (unsigned long long) addrs[k],
                                                   (unsigned long long) global_slots[k]);
              return 0;
            }
            """;

    /** Entries with each kind of PC-relative field, written in assembly so the bytes are known. */
    static final String ASM = """
            int counter = 2;
            static uint64_t *global_slots;
            __attribute__((aligned(16))) int vec_data[4] = {1, 2, 3, 4};
            #ifdef __cplusplus
            extern "C" {
            #endif
            static void *helper_ra;
            __attribute__((noinline)) int helper(void) { helper_ra = __builtin_return_address(0); return counter * 10; }
            __asm__(".text\\n"
            """ + PlannerTest.RIPLOADER_AND_JCC + """
              ".globl asm_call\\n.type asm_call,@function\\nasm_call:\\n"
              "  subq $8, %rsp\\n  call helper\\n  addl $1, %eax\\n  addq $8, %rsp\\n  ret\\n.size asm_call, .-asm_call\\n"
              ".globl asm_jmp\\n.type asm_jmp,@function\\nasm_jmp:\\n"
              "  jmp 1f\\n  nop\\n  nop\\n  nop\\n1:\\n  movl $5, %eax\\n  ret\\n.size asm_jmp, .-asm_jmp\\n"
              ".globl vecload\\n.type vecload,@function\\nvecload:\\n"
              "  movdqa vec_data(%rip), %xmm0\\n  paddd %xmm0, %xmm0\\n  movd %xmm0, %eax\\n  ret\\n.size vecload, .-vecload\\n");
            int riploader(void); int asm_jcc(int); int asm_call(void); int asm_jmp(void); int vecload(void);
            #ifdef __cplusplus
            }
            #include <stdexcept>
            extern "C" __attribute__((noinline)) int thrower_cb(int x) {
              if (x > 0) throw std::runtime_error("boom");
              return 0;
            }
            /* a call in the replaced bytes, with unwind information, so exceptions pass through it */
            __asm__(".text\\n.globl asm_throwcall\\n.type asm_throwcall,@function\\nasm_throwcall:\\n"
              "  .cfi_startproc\\n  subq $8, %rsp\\n  .cfi_adjust_cfa_offset 8\\n  call thrower_cb\\n"
              "  addq $8, %rsp\\n  .cfi_adjust_cfa_offset -8\\n  ret\\n  .cfi_endproc\\n"
              ".size asm_throwcall, .-asm_throwcall\\n");
            extern "C" int asm_throwcall(int);
            static void exceptions(void) {
              int caught = 0;
              try { asm_throwcall(1); } catch (std::exception &) { caught = 1; }
              printf("caught=%d\\n", caught);
            }
            #else
            static void exceptions(void) {}
            #endif
            """;

    @TempDir
    static Path dir;

    @RegisterExtension
    static final OpenCapstone CS = new OpenCapstone();

    static Map<String, String> results(String out) {
        return out.lines()
                .filter(l -> !l.startsWith("count "))
                .flatMap(l -> List.of(l.split(" ")).stream())
                .map(kv -> kv.split("="))
                .collect(Collectors.toMap(kv -> kv[0], kv -> kv[1]));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pie", "nopie", "pie-O2", "cet-O2", "cxx-O2"})
    void patchedFunctionsRunThroughTheirTrampolines(String variant) throws Exception {
        String src = "#include <stdint.h>\n" + ASM + HARNESS.replace("#define _GNU_SOURCE\n", "") + MAIN;
        src = "#define _GNU_SOURCE\n" + src;
        List<String> flags = switch (variant) {
            case "pie" -> List.of("-O0", "-fPIE", "-pie");
            case "nopie" -> List.of("-O0", "-fno-pie", "-no-pie");
            // endbr64 at every C entry and a .plt.sec
            case "cet-O2" -> List.of("-O2", "-fPIE", "-pie", "-fcf-protection=full");
            default -> List.of("-O2", "-fPIE", "-pie");
        };
        Path bin = TestBinaries.compile(
                dir, "exec-" + variant, src, variant.startsWith("cxx"), flags.toArray(String[]::new));
        ElfFile elf = ElfFile.open(bin);
        PlanResult r = new Planner(CS.get())
                .plan(
                        elf,
                        PlannerOptions.of(SelectionOptions.builder()
                                .functionRestrict(
                                        "^(riploader|asm_jcc|asm_call|asm_jmp|vecload|inner|outer|sw|helper|asm_throwcall)$")
                                .build()));
        Set<String> names =
                r.plan().instrumented().stream().map(p -> p.function().name()).collect(Collectors.toSet());
        assertTrue(
                names.containsAll(Set.of("riploader", "asm_jcc", "asm_call", "asm_jmp", "vecload", "outer", "sw")),
                names + " " + PlannerTest.reasons(r));

        StringBuilder plan = new StringBuilder();
        for (PlannedFunction p : r.plan().instrumented()) {
            plan.append(Long.toHexString(p.function().address()))
                    .append(' ')
                    .append(p.patchLength())
                    .append(' ')
                    .append(p.relocatedCode().length)
                    .append(' ')
                    .append(HexFormat.of().formatHex(p.relocatedCode()))
                    .append(' ')
                    .append(p.fixups().size());
            for (CodeFixup x : p.fixups()) {
                plan.append(' ')
                        .append(x.offset())
                        .append(' ')
                        .append(x.addend())
                        .append(' ')
                        .append(Long.toHexString(x.targetVaddr()));
            }
            plan.append('\n');
        }
        Path planFile = dir.resolve("plan-" + variant + ".txt");
        Files.writeString(planFile, plan.toString());

        String plain = Command.of(bin.toString()).ok();
        String patched = Command.of(bin.toString(), planFile.toString(), Long.toHexString(elf.highestLoadEnd()))
                .ok();
        assertEquals(results(plain), results(patched));
        assertEquals("3", results(plain).get("riploader"));
        assertEquals("2", results(plain).get("vec"));
        assertEquals("9", results(patched).get("ra_off"));
        if (variant.startsWith("cxx")) {
            assertEquals("1", results(patched).get("caught"), "the exception unwound through the patched entry");
            assertTrue(names.contains("asm_throwcall"));
        }

        Map<Long, Long> counts = patched.lines()
                .filter(l -> l.startsWith("count "))
                .map(l -> l.substring(6).split("="))
                .collect(Collectors.toMap(kv -> Long.parseLong(kv[0], 16), kv -> Long.parseLong(kv[1])));
        Map<String, Long> byName = r.plan().instrumented().stream()
                .collect(Collectors.toMap(
                        p -> p.function().name(), p -> counts.get(p.function().address())));
        assertEquals(1, byName.get("riploader"));
        assertEquals(2, byName.get("asm_jcc"));
        assertEquals(1, byName.get("asm_call"));
        assertEquals(1, byName.get("asm_jmp"));
        assertEquals(1, byName.get("vecload"));
        assertEquals(8, byName.get("sw"));
        assertEquals(1, byName.get("outer"));
        if (byName.containsKey("inner")) assertEquals(2, byName.get("inner"));
        if (byName.containsKey("helper")) assertEquals(1, byName.get("helper"));
    }
}
