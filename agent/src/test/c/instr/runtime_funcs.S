/*
 * Functions with known first instructions for the runtime-plan test (plan_gen.c relocates them):
 *   rt_lea() -> ++rt_counter       starts with lea rax, [rip + rt_counter]: a RIP-relative operand
 *                                  within the patched bytes (the plan carries a relocation for it)
 *   rt_frame(a, b) -> a + b        push rbp; mov rbp, rsp; sub rsp, 16
 */
    .intel_syntax noprefix
#include "instr_asm.inc"
    .data
    .globl rt_counter
    .p2align 3
rt_counter:
    .quad 0

    .text
    .globl rt_lea, rt_frame
    .type rt_lea, @function
    .p2align 4
rt_lea:
    lea rax, [rip + rt_counter]
    add qword ptr [rax], 1
    mov rax, [rax]
    ret
    .size rt_lea, .-rt_lea

    FRAME_ADD rt_frame

    .section .note.GNU-stack, "", @progbits
