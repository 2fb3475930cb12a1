// SPDX-License-Identifier: GPL-2.0-only
/*
 * The program test/avx512/emu.py emulates, and the native half of its
 * cross-check.  emu.py decodes kchacha_avx512_xor(),
 * kchacha_avx512_z32_xor(), the code behind both, kchacha_avx512vl_xor()
 * and kchacha_avx2_xor() from this executable; run as
 *
 *	avx512_harness avx2|avx512|avx512z32|avx512vl <cases >outputs
 *
 * it runs the named function natively on each case read from stdin and
 * writes its output, so that the emulated and the real execution of the
 * very same machine code can be compared.  A case is the 16 state words,
 * then len, nrounds, the source and destination misalignment and an
 * in-place flag (u32 each, little-endian), then len bytes of input; the
 * output is the len bytes of dst.  Exit status 77: the CPU (or the OS)
 * lacks the instructions the function needs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test/shim/linux/types.h"
#include "kchacha.h"

static void read_all(void *p, size_t n)
{
	if (n && fread(p, 1, n, stdin) != n) {
		fprintf(stderr, "avx512_harness: truncated case\n");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	kchacha_xor_fn fn;
	u8 *src_buf, *dst_buf;
	u32 state[16], saved[16], hdr[5];

	if (argc != 2 || (strcmp(argv[1], "avx2") &&
			  strcmp(argv[1], "avx512") &&
			  strcmp(argv[1], "avx512z32") &&
			  strcmp(argv[1], "avx512vl"))) {
		fprintf(stderr,
			"usage: %s avx2|avx512|avx512z32|avx512vl <cases >outputs\n",
			argv[0]);
		return 2;
	}
	__builtin_cpu_init();
	if (!__builtin_cpu_supports("avx2"))
		return 77;
	fn = kchacha_avx2_xor;
	if (strcmp(argv[1], "avx2")) {
		if (!__builtin_cpu_supports("avx512f") ||
		    !__builtin_cpu_supports("avx512vl") ||
		    !__builtin_cpu_supports("avx512bw"))
			return 77;
		if (!strcmp(argv[1], "avx512"))
			fn = kchacha_avx512_xor;
		else if (!strcmp(argv[1], "avx512z32"))
			fn = kchacha_avx512_z32_xor;
		else
			fn = kchacha_avx512vl_xor;
	}
	while (fread(state, 1, sizeof(state), stdin) == sizeof(state)) {
		u8 *src, *dst;

		read_all(hdr, sizeof(hdr));
		/* len, then room for a misalignment of up to 63 bytes */
		src_buf = malloc(hdr[0] + 64);
		dst_buf = malloc(hdr[0] + 64);
		if (!src_buf || !dst_buf)
			return 2;
		src = src_buf + hdr[2] % 64;
		dst = hdr[4] ? src : dst_buf + hdr[3] % 64;
		read_all(src, hdr[0]);
		memcpy(saved, state, sizeof(state));
		fn(state, dst, src, hdr[0], hdr[1]);
		if (memcmp(saved, state, sizeof(state))) {
			fprintf(stderr, "avx512_harness: %s changed the state\n",
				argv[1]);
			return 1;
		}
		if (fwrite(dst, 1, hdr[0], stdout) != hdr[0])
			return 2;
		free(src_buf);
		free(dst_buf);
	}
	return ferror(stdin) ? 2 : 0;
}
