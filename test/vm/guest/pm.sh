# SPDX-License-Identifier: GPL-2.0-only
# Sourced by init.sh, kchacha loaded: a real suspend to RAM (ACPI S3,
# "deep"), woken by the RTC's alarm 2 s later, must make an rng instance
# made before it reseed at its next request, and only then; kchacha's
# syscore resume hook and its PM notifier must each have run once (the
# counters of /sys/kernel/debug/kchacha/rng show it).
# Not suspend to idle: QEMU acts on a wake-up (the RTC alarm's, or the
# monitor's system_wakeup) only while the machine is in S3, and nothing
# else ends an s2idle here (a 6.1 guest stays in it until the timeout).
# The host says kc.s3=1 where the machine has S3 woken by its RTC (x86's
# pc machine, Debian's kernels); elsewhere (arm64 and armhf virt, the
# debug kernel without CONFIG_SUSPEND) a SKIP.
pm_resume() {
	if ! grep -q ' kc\.s3=1' /proc/cmdline; then
		skip "1e resume: no suspend to RAM woken by an RTC alarm on this machine ($(uname -m), QEMU's virt machine or a kernel without suspend)"
	elif ! grep -qw deep /sys/power/mem_sleep 2>/dev/null ||
	     ! grep -qw mem /sys/power/state; then
		no "1e resume: suspend to RAM (S3): /sys/power/mem_sleep offers deep (has '$(cat /sys/power/mem_sleep 2>/dev/null)')"
	elif [ ! -w /sys/class/rtc/rtc0/wakealarm ]; then
		no "1e resume: an RTC with a wake alarm (/sys/class/rtc/rtc0/wakealarm) to end the suspend"
	else
		run rngvm resume chacha20rng-kchacha-$top mem
	fi
}
