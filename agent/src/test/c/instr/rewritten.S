/*
 * A "rewritten" module written by hand, for the agent's tests without the Java planner: the
 * functions' entries already jump to their trampolines, and an instrumentation area (contract
 * format, docs/instrumentation.md, flags = applied) sits in its own section, named by a
 * PT_NOTE "RocProfSys" type 1. Linked into a non-PIE executable (load bias 0), so every vaddr is
 * its link-time address and no relocation is left for the loader. Area version 2: each trampoline
 * gives the hook its landing (rsys_instr_area.h); rewritten_dso.S keeps version 1.
 *
 * Functions (fid: name, first instructions relocated into the trampoline, patch length):
 *   0 rw_leaf(a, b) -> a + b          push rbp; mov rbp, rsp; sub rsp, 16    8
 *   1 rw_lea() -> ++rw_counter        lea rax, [rip + rw_counter]            7 (RIP-relative)
 *   2 rw_recurse(n) -> n              prologue as rw_leaf; calls itself n times
 *   3 rw_tail(a, b) -> a + b          prologue as rw_leaf; tail-calls rw_leaf (jmp)
 *   4 rw_call(fn, arg) -> fn(arg)     prologue as rw_leaf; calls fn
 *   5 rw_bench(x) -> x + 1            prologue as rw_leaf
 *   6 rw_fadd(a, b) -> a + b          doubles (xmm0, xmm1); prologue as rw_leaf
 *   7 rw_vadd(a, b) -> a + b          __m256d (ymm0, ymm1; AVX); prologue as rw_leaf
 * plain_bench(x) -> x + 1: the same code as rw_bench, not instrumented.
 * Without the agent (enter_fn 0) every function behaves the same.
 */
    .intel_syntax noprefix
#include "instr_asm.inc"

    .data
    .globl rw_counter
    .p2align 3
rw_counter:
    .quad 0

    .text
    .globl rw_leaf, rw_lea, rw_recurse, rw_tail, rw_call, rw_bench, plain_bench, rw_fadd, rw_vadd

    .p2align 4
rw_leaf:
    jmp T_leaf
    int3
    int3
    int3
    lea rax, [rdi + rsi]
    leave
    ret

    .p2align 4
rw_lea:
    jmp T_lea
    int3
    add qword ptr [rax], 1
    mov rax, [rax]
    ret

    .p2align 4
rw_recurse:
    jmp T_recurse
    int3
    int3
    int3
    test rdi, rdi
    jz 1f
    mov [rbp - 8], rdi
    dec rdi
    call rw_recurse
    add rax, 1
    leave
    ret
1:  xor eax, eax
    leave
    ret

    .p2align 4
rw_tail:
    jmp T_tail
    int3
    int3
    int3
    leave
    jmp rw_leaf

    .p2align 4
rw_call:
    jmp T_call
    int3
    int3
    int3
    mov rax, rdi
    mov rdi, rsi
    call rax
    leave
    ret

    .p2align 4
rw_bench:
    jmp T_bench
    int3
    int3
    int3
    lea rax, [rdi + 1]
    leave
    ret

    .p2align 4
rw_fadd:
    jmp T_fadd
    int3
    int3
    int3
    addsd xmm0, xmm1
    leave
    ret

    .p2align 4
rw_vadd:
    jmp T_vadd
    int3
    int3
    int3
    vaddpd ymm0, ymm0, ymm1
    leave
    ret

    .p2align 4
plain_bench:
    push rbp
    mov rbp, rsp
    sub rsp, 16
    lea rax, [rdi + 1]
    leave
    ret

/* ------------------------------------------------------------------------------------------- */
    .section .rsys_area, "awx", @progbits
    .p2align 12
area:
    .quad 0x31534e4953595352        /* magic */
    .long 2                         /* version */
    .long 1                         /* flags: applied */
    .long 8                         /* nfuncs */
    .long 0                         /* nrelocs */
    .long funcs - area
    .long funcs_end - area          /* relocs_off (none) */
    .long strtab - area
    .long strtab_end - strtab
    .long env - area                /* env_off */
    .long 0                         /* mode: trace */
    .long rx_end - area             /* rx_size */
    .long data - area               /* data_off */
    .long area_end - area           /* area_size */
    .long 0
    .quad area                      /* area_vaddr (bias 0) */

    .p2align 3
funcs:
    .quad rw_leaf
    .long T_leaf - area, n_leaf - strtab, 8, 0
    .quad rw_lea
    .long T_lea - area, n_lea - strtab, 7, 0
    .quad rw_recurse
    .long T_recurse - area, n_recurse - strtab, 8, 0
    .quad rw_tail
    .long T_tail - area, n_tail - strtab, 8, 0
    .quad rw_call
    .long T_call - area, n_call - strtab, 8, 0
    .quad rw_bench
    .long T_bench - area, n_bench - strtab, 8, 0
    .quad rw_fadd
    .long T_fadd - area, n_fadd - strtab, 8, 0
    .quad rw_vadd
    .long T_vadd - area, n_vadd - strtab, 8, 0
funcs_end:

strtab:
n_leaf:    .asciz "rw_leaf"
n_lea:     .asciz "rw_lea"
n_recurse: .asciz "rw_recurse"
n_tail:    .asciz "rw_tail"
n_call:    .asciz "rw_call"
n_bench:   .asciz "rw_bench"
n_fadd:    .asciz "rw_fadd"
n_vadd:    .asciz "rw_vadd"
strtab_end:
env:
    .asciz "RSYS_TEST_ENV_DEFAULT=from-area"
    .asciz "PATH=not-applied-since-set"
    .byte 0

    .p2align 4
stub:
    HOOK_STUB 1                     /* the landing: the trampoline's return address, past its `call 2f` */

.macro TRAMP label, fid, target
    .p2align 4
\label:
    mov r11d, \fid
    call stub
    call 2f                         /* the landing, as the return predictor's entry */
    jmp qword ptr [rip + data + 16] /* the landing: exit_fn */
2:  lea rsp, [rsp + 8]
    push rbp
    mov rbp, rsp
    sub rsp, 16
    jmp \target + 8
.endm

    TRAMP T_leaf, 0, rw_leaf
    .p2align 4
T_lea:
    mov r11d, 1
    call stub
    call 2f
    jmp qword ptr [rip + data + 16]
2:  lea rsp, [rsp + 8]
    lea rax, [rip + rw_counter]
    jmp rw_lea + 7
    TRAMP T_recurse, 2, rw_recurse
    TRAMP T_tail, 3, rw_tail
    TRAMP T_call, 4, rw_call
    TRAMP T_bench, 5, rw_bench
    TRAMP T_fadd, 6, rw_fadd
    TRAMP T_vadd, 7, rw_vadd

    .p2align 12
rx_end:
data:
    .quad 0                         /* enter_fn */
    .quad 0                         /* ctx */
    .quad 0                         /* exit_fn */
    .p2align 12
area_end:

    .section .note.rocprofsys, "a", @note
    .p2align 2
    .long 11                        /* namesz */
    .long 8                         /* descsz */
    .long 1                         /* type */
    .asciz "RocProfSys"
    .p2align 2
    .quad area

    .section .note.GNU-stack, "", @progbits
