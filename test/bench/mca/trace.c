// SPDX-License-Identifier: GPL-2.0-only
/*
 * test/bench/mca/trace IMPL LEN: make one ChaCha20 request of LEN bytes
 * (IMPL: kc-ssse3, kc-avx2, lin-ssse3, lin-avx2) in a child that stops
 * before it, single-step the child through the request with ptrace(), and
 * print the address of every instruction it runs, one a line.  The in-tree
 * rows go through Linux 6.1's length ladder (chacha_dosimd(), without
 * AVX-512).  test/bench/mca/run turns the addresses into instructions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/user.h>

typedef unsigned int u32;
typedef unsigned char u8;
/* the routines as the glue calls them (the in-tree ones take a u32 *) */
typedef void xor_fn(u32 *state, u8 *dst, const u8 *src, unsigned int len,
		    int nrounds);
xor_fn kchacha_ssse3_xor, kchacha_avx2_xor, chacha_block_xor_ssse3,
	chacha_4block_xor_ssse3, chacha_2block_xor_avx2, chacha_4block_xor_avx2,
	chacha_8block_xor_avx2;

static u8 buf[8192] __attribute__((aligned(64)));
static u32 st[16];

/* the blocks a call of @len bytes uses, at most @max */
static unsigned int adv(unsigned int len, unsigned int max)
{
	len = (len + 63) / 64;
	return len < max ? len : max;
}

/* the in-tree glue's ladder (Linux 6.1 chacha_dosimd), without AVX-512 */
static void linux_simd(int avx2, u32 *s, u8 *d, const u8 *src, unsigned int b,
		       int nr)
{
	if (avx2) {
		while (b >= 512) {
			chacha_8block_xor_avx2(s, d, src, b, nr);
			b -= 512; src += 512; d += 512; s[12] += 8;
		}
		if (b > 256) {
			chacha_8block_xor_avx2(s, d, src, b, nr);
			s[12] += adv(b, 8);
			return;
		}
		if (b > 128) {
			chacha_4block_xor_avx2(s, d, src, b, nr);
			s[12] += adv(b, 4);
			return;
		}
		if (b > 64) {
			chacha_2block_xor_avx2(s, d, src, b, nr);
			s[12] += adv(b, 2);
			return;
		}
	}
	while (b >= 256) {
		chacha_4block_xor_ssse3(s, d, src, b, nr);
		b -= 256; src += 256; d += 256; s[12] += 4;
	}
	if (b > 64) {
		chacha_4block_xor_ssse3(s, d, src, b, nr);
		s[12] += adv(b, 4);
		return;
	}
	if (b) {
		chacha_block_xor_ssse3(s, d, src, b, nr);
		s[12]++;
	}
}

static void run(const char *impl, unsigned int len)
{
	if (!strcmp(impl, "kc-ssse3"))
		kchacha_ssse3_xor(st, buf, buf, len, 20);
	else if (!strcmp(impl, "kc-avx2"))
		kchacha_avx2_xor(st, buf, buf, len, 20);
	else if (!strcmp(impl, "lin-ssse3"))
		linux_simd(0, st, buf, buf, len, 20);
	else
		linux_simd(1, st, buf, buf, len, 20);
}

int main(int argc, char **argv)
{
	unsigned int len;
	pid_t pid;
	int status;

	if (argc != 3) {
		fprintf(stderr, "usage: trace IMPL LEN\n");
		return 2;
	}
	len = atoi(argv[2]);
	pid = fork();

	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		run(argv[1], len);
		raise(SIGSTOP);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	for (;;) {
		struct user_regs_struct r;

		ptrace(PTRACE_SINGLESTEP, pid, 0, 0);
		waitpid(pid, &status, 0);
		if (WIFEXITED(status))
			break;
		/* the stop after the request */
		if (WSTOPSIG(status) == SIGSTOP) {
			ptrace(PTRACE_CONT, pid, 0, 0);
			waitpid(pid, &status, 0);
			break;
		}
		ptrace(PTRACE_GETREGS, pid, 0, &r);
		printf("%llx\n", r.rip);
	}
	return 0;
}
