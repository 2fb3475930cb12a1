# SPDX-License-Identifier: GPL-2.0-only
#
# Sourced by init.sh in the rng boot (kc.mode=rng, test/vm/rngboot): the
# kernel booted with random.trust_cpu=off, random.trust_bootloader=off and
# no virtio-rng, and a vmgenid device.  The module is loaded before the
# kernel RNG is ready; an instance made then must reseed as soon as it is.
# Then the host clones the VM (migrates it into a new QEMU whose vmgenid
# differs): the next read must come from a reseeded key.

echo /bin/modprobe > /proc/sys/kernel/modprobe
modprobe af_alg && modprobe algif_rng || no "modprobe af_alg algif_rng"
check insmod /kchacha.ko
run rngvm early chacha20rng-kchacha-$top
# not run(): the host must see "KCRNG READY" while the program waits;
# its exit status kept through the pipe
{ rngvm clone chacha20rng-kchacha-$top 2>&1; echo $? > /tmp/rc; } | ktap_filter
ktap_count
rc=$(cat /tmp/rc)
[ "$rc" = 0 ] || [ "$kt_f" != 0 ] ||
	no "rngvm clone chacha20rng-kchacha-$top exited $rc"
if dmesg | grep -q "crng reseeded due to virtual machine fork"; then
	ok "the kernel saw the new vmgenid and reseeded its CRNG"
else
	no "the kernel saw the new vmgenid (no 'crng reseeded due to virtual machine fork')"
fi
klog_clear
if grep -E "BUG|WARNING|Oops|Call Trace" /tmp/klog; then
	no "kernel log free of BUG, WARNING, Oops, Call Trace"
else
	ok "kernel log free of BUG, WARNING, Oops, Call Trace"
fi
summary
