/*
 * Every register survives a call to an instrumented function that itself changes none of them:
 * with GCC's -fipa-ra a caller may rely on that (docs/instrumentation.md). check_regs sets rax..r15
 * and xmm0..15, calls via_call (which calls leaf; both instrumented by the tests), stores them all;
 * main compares.
 */
#include <stdio.h>

long saved[15], savedx[16];
static const char *names[15] = {"rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"};
void check_regs(void);

__asm__(".text\n"
        ".globl leaf\n.type leaf,@function\nleaf:\n"
        "  push %rbp\n  mov %rsp, %rbp\n  nop\n  pop %rbp\n  ret\n.size leaf, .-leaf\n"
        /* its patch ends with a call: the area emulates it (push the return address, jump) */
        ".globl via_call\n.type via_call,@function\nvia_call:\n"
        "  sub $8, %rsp\n  call leaf\n  add $8, %rsp\n  ret\n.size via_call, .-via_call\n"
        ".globl check_regs\n.type check_regs,@function\ncheck_regs:\n"
        "  push %rbx\n  push %rbp\n  push %r12\n  push %r13\n  push %r14\n  push %r15\n  sub $8, %rsp\n"
        "  movabs $0x3c3c00007000, %rax\n  movq %rax, %xmm0\n"
        "  movabs $0x3c3c00007011, %rax\n  movq %rax, %xmm1\n"
        "  movabs $0x3c3c00007022, %rax\n  movq %rax, %xmm2\n"
        "  movabs $0x3c3c00007033, %rax\n  movq %rax, %xmm3\n"
        "  movabs $0x3c3c00007044, %rax\n  movq %rax, %xmm4\n"
        "  movabs $0x3c3c00007055, %rax\n  movq %rax, %xmm5\n"
        "  movabs $0x3c3c00007066, %rax\n  movq %rax, %xmm6\n"
        "  movabs $0x3c3c00007077, %rax\n  movq %rax, %xmm7\n"
        "  movabs $0x3c3c00007088, %rax\n  movq %rax, %xmm8\n"
        "  movabs $0x3c3c00007099, %rax\n  movq %rax, %xmm9\n"
        "  movabs $0x3c3c000070aa, %rax\n  movq %rax, %xmm10\n"
        "  movabs $0x3c3c000070bb, %rax\n  movq %rax, %xmm11\n"
        "  movabs $0x3c3c000070cc, %rax\n  movq %rax, %xmm12\n"
        "  movabs $0x3c3c000070dd, %rax\n  movq %rax, %xmm13\n"
        "  movabs $0x3c3c000070ee, %rax\n  movq %rax, %xmm14\n"
        "  movabs $0x3c3c000070ff, %rax\n  movq %rax, %xmm15\n"
        "  movabs $0x5a5a00001000, %rax\n"
        "  movabs $0x5a5a00001111, %rbx\n"
        "  movabs $0x5a5a00001222, %rcx\n"
        "  movabs $0x5a5a00001333, %rdx\n"
        "  movabs $0x5a5a00001444, %rsi\n"
        "  movabs $0x5a5a00001555, %rdi\n"
        "  movabs $0x5a5a00001666, %rbp\n"
        "  movabs $0x5a5a00001777, %r8\n"
        "  movabs $0x5a5a00001888, %r9\n"
        "  movabs $0x5a5a00001999, %r10\n"
        "  movabs $0x5a5a00001aaa, %r11\n"
        "  movabs $0x5a5a00001bbb, %r12\n"
        "  movabs $0x5a5a00001ccc, %r13\n"
        "  movabs $0x5a5a00001ddd, %r14\n"
        "  movabs $0x5a5a00001eee, %r15\n"
        "  call via_call\n"
        "  mov %rax, saved+0(%rip)\n"
        "  mov %rbx, saved+8(%rip)\n"
        "  mov %rcx, saved+16(%rip)\n"
        "  mov %rdx, saved+24(%rip)\n"
        "  mov %rsi, saved+32(%rip)\n"
        "  mov %rdi, saved+40(%rip)\n"
        "  mov %rbp, saved+48(%rip)\n"
        "  mov %r8, saved+56(%rip)\n"
        "  mov %r9, saved+64(%rip)\n"
        "  mov %r10, saved+72(%rip)\n"
        "  mov %r11, saved+80(%rip)\n"
        "  mov %r12, saved+88(%rip)\n"
        "  mov %r13, saved+96(%rip)\n"
        "  mov %r14, saved+104(%rip)\n"
        "  mov %r15, saved+112(%rip)\n"
        "  movq %xmm0, savedx+0(%rip)\n"
        "  movq %xmm1, savedx+8(%rip)\n"
        "  movq %xmm2, savedx+16(%rip)\n"
        "  movq %xmm3, savedx+24(%rip)\n"
        "  movq %xmm4, savedx+32(%rip)\n"
        "  movq %xmm5, savedx+40(%rip)\n"
        "  movq %xmm6, savedx+48(%rip)\n"
        "  movq %xmm7, savedx+56(%rip)\n"
        "  movq %xmm8, savedx+64(%rip)\n"
        "  movq %xmm9, savedx+72(%rip)\n"
        "  movq %xmm10, savedx+80(%rip)\n"
        "  movq %xmm11, savedx+88(%rip)\n"
        "  movq %xmm12, savedx+96(%rip)\n"
        "  movq %xmm13, savedx+104(%rip)\n"
        "  movq %xmm14, savedx+112(%rip)\n"
        "  movq %xmm15, savedx+120(%rip)\n"
        "  add $8, %rsp\n  pop %r15\n  pop %r14\n  pop %r13\n  pop %r12\n  pop %rbp\n  pop %rbx\n  ret\n"
        ".size check_regs, .-check_regs\n");

int main(void) {
    int bad = 0;
    for (int round = 0; round < 3; round++) {
        check_regs();
        for (int i = 0; i < 15; i++) {
            long want = 0x1000 + i * 0x111 + (0x5a5aL << 32);
            if (saved[i] != want) { printf("%s changed: %lx\n", names[i], saved[i]); bad++; }
        }
        for (int i = 0; i < 16; i++) {
            long want = 0x7000 + i * 0x11 + (0x3c3cL << 32);
            if (savedx[i] != want) { printf("xmm%d changed: %lx\n", i, savedx[i]); bad++; }
        }
    }
    printf("registers %s\n", bad ? "CHANGED" : "preserved");
    return bad;
}
