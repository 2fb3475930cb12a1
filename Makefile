# SPDX-License-Identifier: GPL-2.0-only
#
# kchacha: `make` builds kchacha.ko against KDIR; `make check` runs every
# test (user space and QEMU); `make check-debug` the same on a debug
# kernel; `make demo` shows the module in a VM;
# `make bench` measures it against OpenSSL, libsodium and libgcrypt.

KDIR ?= /lib/modules/$(shell uname -r)/build
BUILD ?= $(CURDIR)/build

all: modules

modules: kdir-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

kdir-check:
	@if [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "kchacha: no kernel build tree at KDIR=$(KDIR): install the headers of the target kernel (apt-get install linux-headers-$$(uname -r)) or pass KDIR=<path>; installed here: $$(ls -d /usr/src/linux-headers-* /lib/modules/*/build 2>/dev/null | tr '\n' ' ' | sed 's/ $$//;s/^$$/none/')" >&2; \
		exit 1; \
	fi

# Into /lib/modules/<release>/updates, which depmod ranks above the
# kernel's own modules.
install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) INSTALL_MOD_DIR=updates modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) \
		$$(sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
			$(KDIR)/include/generated/utsrelease.h)

clean:
	@if [ -f "$(KDIR)/Makefile" ]; then \
		$(MAKE) -C $(KDIR) M=$(CURDIR) clean; fi
	rm -rf $(BUILD) *.o *.ko *.mod *.mod.c .*.cmd modules.order \
		Module.symvers .tmp_versions

check:
	test/check

# The Debian package kchacha-dkms, from debian/ by dpkg-buildpackage, run
# on a copy of the sources in $(BUILD)/deb (it writes the .deb, .changes
# and .buildinfo beside the tree it builds); prints the .deb's path.
deb:
	@rm -rf $(BUILD)/deb && mkdir -p $(BUILD)/deb/kchacha
	@tar -c --exclude=./build --exclude=./.git --exclude='*.o' \
		--exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' . | \
		tar -x -C $(BUILD)/deb/kchacha
	@cd $(BUILD)/deb/kchacha && dpkg-buildpackage -us -uc -b \
		>../build.log 2>&1 || { cat ../build.log >&2; exit 1; }
	@ls $(BUILD)/deb/kchacha-dkms_*_all.deb

demo:
	test/vm/demo max

unit:
	$(MAKE) -f test/unit/Makefile BUILD=$(BUILD)

.PHONY: all modules kdir-check install clean check deb demo unit

bench:
	BUILD=$(BUILD) test/bench/run $(BENCH_ARGS)

.PHONY: bench

# 32-bit ARM NEON speed estimates without ARM hardware (qemu-arm, llvm-mca)
bench-armhf:
	BUILD=$(BUILD) test/bench/armhf/run

.PHONY: bench-armhf

# QEMU on a PREEMPT_RT, kCFI, KASAN/kmemleak/lockdep/UBSAN kernel built
# (once) with clang 16 from Debian's linux-source-6.12, with the crypto
# manager's extra self-tests
check-debug:
	BUILD=$(BUILD) test/debug/run

.PHONY: check-debug
