// SPDX-License-Identifier: GPL-2.0-only
/*
 * vregs DRIVER...: the caller's vector registers survive kchacha's requests.
 *
 * Inside a syscall the task's vector registers still hold user space's
 * values until kernel_fpu_begin() (kernel_neon_begin() on arm) saves them;
 * SIMD code run outside such a section overwrites them, and on return to
 * user space the task finds its registers changed (issue 26, class 1).  So
 * every syscall of a request is made from one asm block that loads every
 * vector register the CPU has with a pattern, enters the kernel, and
 * stores them all back: on x86_64 xmm0-15, or ymm0-15 with AVX, or
 * zmm0-31 and k1-k7 with AVX-512 (Bochs); on arm64 v0-v31; on 32-bit ARM
 * q0-q15, or d0-d15 without NEON.  After each syscall every register must still hold its pattern.
 *
 * For each skcipher driver (chacha20-*, xchacha20-*, xchacha12-*): an
 * encryption of every length 1..64 (the C core's, below simd_min), then of
 * lengths 65..4096, the sendmsg() and the read() checked.  For each rng
 * driver (*rng-*): reads of 1..64 bytes, then of 65..4096.  One PASS or
 * FAIL line a driver and length class, naming the first register that
 * changed and the syscall.
 */
#include <errno.h>
#include <linux/if_alg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "result.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif

#define NREGS	32
#define SLOT	64	/* bytes a register takes in the buffers */

static uint8_t pattern[NREGS * SLOT] __attribute__((aligned(64)));
static uint8_t seen[NREGS * SLOT] __attribute__((aligned(64)));
static uint64_t kpattern[8], kseen[8];
/* registers and bytes of each that the CPU has and the asm fills */
static int nregs, width, nkregs;
static const char *regname = "?";

#define S(x)	#x

#if defined(__x86_64__)
#include <cpuid.h>

static int level;	/* 0 SSE, 1 AVX, 2 AVX-512 (F, BW) */

static uint64_t xcr0(void)
{
	uint32_t lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}

static void cpu_regs(void)
{
	unsigned int a, b, c, d;

	nregs = 16;
	width = 16;
	regname = "xmm";
	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 27)) || !(c & (1u << 28)) || (xcr0() & 6) != 6)
		return;
	level = 1;
	width = 32;
	regname = "ymm";
	__cpuid_count(7, 0, a, b, c, d);
	if (!(b & (1u << 16)) || !(b & (1u << 30)) ||
	    (xcr0() & 0xe6) != 0xe6)
		return;
	level = 2;
	nregs = 32;
	width = 64;
	nkregs = 8;
	regname = "zmm";
}

#define SSE_LD(i)	"movdqu " S(i) "*64(%[p]), %%xmm" S(i) "\n\t"
#define SSE_ST(i)	"movdqu %%xmm" S(i) ", " S(i) "*64(%[o])\n\t"
#define AVX_LD(i)	"vmovdqu " S(i) "*64(%[p]), %%ymm" S(i) "\n\t"
#define AVX_ST(i)	"vmovdqu %%ymm" S(i) ", " S(i) "*64(%[o])\n\t"
#define Z_LD(i)		"vmovdqu64 " S(i) "*64(%[p]), %%zmm" S(i) "\n\t"
#define Z_ST(i)		"vmovdqu64 %%zmm" S(i) ", " S(i) "*64(%[o])\n\t"
#define K_LD(i)		"kmovq " S(i) "*8(%[kp]), %%k" S(i) "\n\t"
#define K_ST(i)		"kmovq %%k" S(i) ", " S(i) "*8(%[ko])\n\t"
#define X16_CLOBBER	"xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", \
			"xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", \
			"xmm12", "xmm13", "xmm14", "xmm15"

#define R16(m)		m(0) m(1) m(2) m(3) m(4) m(5) m(6) m(7) m(8) m(9) \
			m(10) m(11) m(12) m(13) m(14) m(15)
#define R32(m)		R16(m) m(16) m(17) m(18) m(19) m(20) m(21) m(22) \
			m(23) m(24) m(25) m(26) m(27) m(28) m(29) m(30) m(31)
#define K7(m)		m(1) m(2) m(3) m(4) m(5) m(6) m(7)

static long sys_sse(long nr, long a, long b, long c)
{
	register long rax __asm__("rax") = nr;

	__asm__ volatile(R16(SSE_LD) "syscall\n\t" R16(SSE_ST)
			 : "+r"(rax)
			 : "D"(a), "S"(b), "d"(c), [p] "r"(pattern),
			   [o] "r"(seen)
			 : "rcx", "r11", "memory", X16_CLOBBER);
	return rax;
}

__attribute__((target("avx")))
static long sys_avx(long nr, long a, long b, long c)
{
	register long rax __asm__("rax") = nr;

	__asm__ volatile(R16(AVX_LD) "syscall\n\t" R16(AVX_ST)
			 : "+r"(rax)
			 : "D"(a), "S"(b), "d"(c), [p] "r"(pattern),
			   [o] "r"(seen)
			 : "rcx", "r11", "memory", X16_CLOBBER);
	return rax;
}

__attribute__((target("avx512f,avx512bw")))
static long sys_avx512(long nr, long a, long b, long c)
{
	register long rax __asm__("rax") = nr;

	__asm__ volatile(R32(Z_LD) K7(K_LD) "syscall\n\t" R32(Z_ST) K7(K_ST)
			 : "+r"(rax)
			 : "D"(a), "S"(b), "d"(c), [p] "r"(pattern),
			   [o] "r"(seen), [kp] "r"(kpattern), [ko] "r"(kseen)
			 : "rcx", "r11", "memory", X16_CLOBBER,
			   "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21",
			   "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27",
			   "xmm28", "xmm29", "xmm30", "xmm31", "k1", "k2", "k3",
			   "k4", "k5", "k6", "k7");
	return rax;
}

static long vsys(long nr, long a, long b, long c)
{
	if (level == 2)
		return sys_avx512(nr, a, b, c);
	if (level == 1)
		return sys_avx(nr, a, b, c);
	return sys_sse(nr, a, b, c);
}

#elif defined(__aarch64__)
static void cpu_regs(void)
{
	nregs = 32;
	width = 16;
	regname = "v";
}

static long vsys(long nr, long a, long b, long c)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	uint8_t *p = pattern, *o = seen;

	/* register n in the SLOT-byte slot n */
	__asm__ volatile(
#define LDV(n)	"ldr q" S(n) ", [%[p], #" S(n) "*64]\n\t"
#define STV(n)	"str q" S(n) ", [%[o], #" S(n) "*64]\n\t"
		LDV(0) LDV(1) LDV(2) LDV(3) LDV(4) LDV(5) LDV(6) LDV(7)
		LDV(8) LDV(9) LDV(10) LDV(11) LDV(12) LDV(13) LDV(14) LDV(15)
		LDV(16) LDV(17) LDV(18) LDV(19) LDV(20) LDV(21) LDV(22)
		LDV(23) LDV(24) LDV(25) LDV(26) LDV(27) LDV(28) LDV(29)
		LDV(30) LDV(31)
		"svc #0\n\t"
		STV(0) STV(1) STV(2) STV(3) STV(4) STV(5) STV(6) STV(7)
		STV(8) STV(9) STV(10) STV(11) STV(12) STV(13) STV(14) STV(15)
		STV(16) STV(17) STV(18) STV(19) STV(20) STV(21) STV(22)
		STV(23) STV(24) STV(25) STV(26) STV(27) STV(28) STV(29)
		STV(30) STV(31)
		: "+r"(x0)
		: "r"(x8), "r"(x1), "r"(x2), [p] "r"(p), [o] "r"(o)
		: "memory", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",
		  "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16",
		  "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24",
		  "v25", "v26", "v27", "v28", "v29", "v30", "v31");
	return x0;
}

#elif defined(__arm__)
#include <sys/auxv.h>

static bool neon;

/* NEON: q0-q15; without (QEMU's neon=off), VFP's d0-d15 */
static void cpu_regs(void)
{
	neon = getauxval(AT_HWCAP) & (1 << 12);	/* HWCAP_NEON */
	nregs = 16;
	width = neon ? 16 : 8;
	regname = neon ? "q" : "d";
}

static long sys_vfp(long nr, long a, long b, long c)
{
	register long r7 __asm__("r7") = nr;
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	uint8_t *p = pattern, *o = seen;

	/* d(n) in the first 8 bytes of slot n */
	__asm__ volatile(
		".fpu vfpv3-d16\n\t"
#define LDD(n)	"vldr d" S(n) ", [%[p], #" S(n) "*64]\n\t"
#define STD(n)	"vstr d" S(n) ", [%[o], #" S(n) "*64]\n\t"
		LDD(0) LDD(1) LDD(2) LDD(3) LDD(4) LDD(5) LDD(6) LDD(7)
		LDD(8) LDD(9) LDD(10) LDD(11) LDD(12) LDD(13) LDD(14) LDD(15)
		"svc #0\n\t"
		STD(0) STD(1) STD(2) STD(3) STD(4) STD(5) STD(6) STD(7)
		STD(8) STD(9) STD(10) STD(11) STD(12) STD(13) STD(14) STD(15)
		: "+r"(r0)
		: "r"(r7), "r"(r1), "r"(r2), [p] "r"(p), [o] "r"(o)
		: "memory", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
		  "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15");
	return r0;
}

__attribute__((target("fpu=neon")))
static long sys_neon(long nr, long a, long b, long c)
{
	register long r7 __asm__("r7") = nr;
	register long r0 __asm__("r0") = a;
	register long r1 __asm__("r1") = b;
	register long r2 __asm__("r2") = c;
	uint8_t *p = pattern, *o = seen;

	/* q(n) in the SLOT-byte slot n: a post-incremented pointer */
	__asm__ volatile(
		".fpu neon\n\t"
#define LDQ2(q, a, b) "vld1.8 {d" S(a) "-d" S(b) "}, [%[p]], %[s]\n\t"
#define STQ2(q, a, b) "vst1.8 {d" S(a) "-d" S(b) "}, [%[o]], %[s]\n\t"
		LDQ2(0, 0, 1) LDQ2(1, 2, 3) LDQ2(2, 4, 5) LDQ2(3, 6, 7)
		LDQ2(4, 8, 9) LDQ2(5, 10, 11) LDQ2(6, 12, 13) LDQ2(7, 14, 15)
		LDQ2(8, 16, 17) LDQ2(9, 18, 19) LDQ2(10, 20, 21)
		LDQ2(11, 22, 23) LDQ2(12, 24, 25) LDQ2(13, 26, 27)
		LDQ2(14, 28, 29) LDQ2(15, 30, 31)
		"svc #0\n\t"
		STQ2(0, 0, 1) STQ2(1, 2, 3) STQ2(2, 4, 5) STQ2(3, 6, 7)
		STQ2(4, 8, 9) STQ2(5, 10, 11) STQ2(6, 12, 13) STQ2(7, 14, 15)
		STQ2(8, 16, 17) STQ2(9, 18, 19) STQ2(10, 20, 21)
		STQ2(11, 22, 23) STQ2(12, 24, 25) STQ2(13, 26, 27)
		STQ2(14, 28, 29) STQ2(15, 30, 31)
		: "+r"(r0), [p] "+r"(p), [o] "+r"(o)
		: "r"(r7), "r"(r1), "r"(r2), [s] "r"(SLOT)
		: "memory", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
		  "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "d16",
		  "d17", "d18", "d19", "d20", "d21", "d22", "d23", "d24",
		  "d25", "d26", "d27", "d28", "d29", "d30", "d31");
	return r0;
}

static long vsys(long nr, long a, long b, long c)
{
	return neon ? sys_neon(nr, a, b, c) : sys_vfp(nr, a, b, c);
}
#else
#error "vregs: no vector registers known for this architecture"
#endif

/* A new pattern for each syscall: a stale copy cannot pass. */
static void new_pattern(void)
{
	static uint32_t x = 0x9e3779b9;
	int i;

	for (i = 0; i < (int)sizeof(pattern); i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		pattern[i] = x;
	}
	for (i = 0; i < 8; i++)
		kpattern[i] = ((uint64_t)rand() << 32) ^ rand();
	memset(seen, 0, sizeof(seen));
	memset(kseen, 0, sizeof(kseen));
}

/* The first register that does not hold its pattern, or -1. */
static int changed(void)
{
	int r;

	for (r = 0; r < nregs; r++)
		if (memcmp(pattern + r * SLOT, seen + r * SLOT, width))
			return r;
	/* k0 is not loaded (kmovq to it is fine, but it is never used) */
	for (r = 1; r < nkregs; r++)
		if (kpattern[r] != kseen[r])
			return 100 + r;
	return -1;
}

static char failure[160];

/* One checked syscall; false (and failure[] says why) on a change. */
static long checked(const char *what, long nr, long a, long b, long c,
		    int *bad)
{
	long r;
	int reg;

	new_pattern();
	r = vsys(nr, a, b, c);
	reg = changed();
	if (reg >= 0 && !*bad) {
		if (reg >= 100)
			snprintf(failure, sizeof(failure),
				 "k%d changed across %s", reg - 100, what);
		else
			snprintf(failure, sizeof(failure),
				 "%s%d changed across %s", regname, reg, what);
		*bad = 1;
	}
	return r;
}

static int alg_open(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET, 0);

	if (fd < 0)
		return -1;
	strncpy((char *)sa.salg_type, type, sizeof(sa.salg_type) - 1);
	strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static uint8_t in[4096], out[4096];

/* Encryptions of @lo..@hi bytes, every one to 64, then some. */
static void skcipher(const char *driver, int lo, int hi)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 32)];
	unsigned int ivlen = strncmp(driver, "xchacha", 7) ? 16 : 32;
	uint8_t key[32];
	int tfm, op, len, bad = 0, n = 0;

	memset(key, 0x42, sizeof(key));
	tfm = alg_open("skcipher", driver);
	if (tfm < 0 || setsockopt(tfm, SOL_ALG, ALG_SET_KEY, key, 32)) {
		result(0, "vregs %s: bind and key: %s", driver,
		       strerror(errno));
		if (tfm >= 0)
			close(tfm);
		return;
	}
	for (len = lo; len <= hi && !bad;
	     len += len < 64 ? 1 : len < 600 ? 7 : 401) {
		struct msghdr msg = { 0 };
		struct cmsghdr *c;
		struct af_alg_iv *aiv;
		struct iovec iov = { in, len };

		memset(cbuf, 0, sizeof(cbuf));
		msg.msg_control = cbuf;
		msg.msg_controllen = CMSG_SPACE(sizeof(uint32_t)) +
			CMSG_SPACE(sizeof(struct af_alg_iv) + ivlen);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_OP;
		c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
		*(uint32_t *)CMSG_DATA(c) = ALG_OP_ENCRYPT;
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(struct af_alg_iv) + ivlen);
		aiv = (struct af_alg_iv *)CMSG_DATA(c);
		aiv->ivlen = ivlen;
		memset(aiv->iv, len, ivlen);
		msg.msg_iov = &iov;
		msg.msg_iovlen = 1;

		op = accept(tfm, NULL, 0);
		if (op < 0) {
			bad = 1;
			snprintf(failure, sizeof(failure), "accept: %s",
				 strerror(errno));
			break;
		}
		if (checked("sendmsg", SYS_sendmsg, op, (long)&msg, 0,
			    &bad) != len ||
		    checked("read", SYS_read, op, (long)out, len,
			    &bad) != len) {
			if (!bad)
				snprintf(failure, sizeof(failure),
					 "length %d: sendmsg or read failed",
					 len);
			bad = 1;
		} else if (bad) {
			snprintf(failure + strlen(failure),
				 sizeof(failure) - strlen(failure),
				 " (length %d)", len);
		}
		close(op);
		n++;
	}
	close(tfm);
	result(!bad, "vregs %s: %d encryptions of %d..%d bytes leave every %s register as it was%s%s",
	       driver, n, lo, hi, regname, bad ? ": " : "", bad ? failure : "");
}

static void rng(const char *driver, int lo, int hi)
{
	int tfm, op, len, bad = 0, n = 0;

	tfm = alg_open("rng", driver);
	op = tfm < 0 ? -1 : accept(tfm, NULL, 0);
	if (op < 0) {
		result(0, "vregs %s: bind and accept: %s", driver,
		       strerror(errno));
		if (tfm >= 0)
			close(tfm);
		return;
	}
	for (len = lo; len <= hi && !bad;
	     len += len < 64 ? 1 : len < 600 ? 7 : 401) {
		if (checked("read", SYS_read, op, (long)out, len, &bad) <= 0 &&
		    !bad) {
			snprintf(failure, sizeof(failure),
				 "read of %d bytes failed", len);
			bad = 1;
		} else if (bad) {
			snprintf(failure + strlen(failure),
				 sizeof(failure) - strlen(failure),
				 " (length %d)", len);
		}
		n++;
	}
	close(op);
	close(tfm);
	result(!bad, "vregs %s: %d reads of %d..%d bytes leave every %s register as it was%s%s",
	       driver, n, lo, hi, regname, bad ? ": " : "", bad ? failure : "");
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	cpu_regs();
	/* the check itself: a syscall that touches nothing */
	checked("getppid", SYS_getppid, 0, 0, 0, &bad);
	result(!bad, "vregs: %d %s registers of %d bytes%s survive getppid()%s%s",
	       nregs, regname, width, nkregs ? " and k1-k7" : "",
	       bad ? ": " : "", bad ? failure : "");
	for (i = 1; i < argc; i++) {
		if (strstr(argv[i], "rng-")) {
			rng(argv[i], 1, 64);
			rng(argv[i], 65, 4096);
		} else {
			skcipher(argv[i], 1, 64);
			skcipher(argv[i], 65, 4096);
		}
	}
	return failed ? 1 : 0;
}
