# SPDX-License-Identifier: GPL-2.0-only
#
# The consumers boot's set (test/vm/consumers): the kernel's own users of
# kchacha's skciphers, driven by Debian's tools, one section each:
#
#  c1 cryptsetup: LUKS2 with xchacha12,aes-adiantum-plain64 and
#     xchacha20,aes-adiantum-plain64 on a RAM disk, ext4 on it; written
#     through kchacha and read back through the in-tree drivers with
#     kchacha unloaded, and the reverse; `cryptsetup benchmark` as nobody.
#  c2 IPsec: ESP with rfc7539esp(chacha20,poly1305) between two network
#     namespaces on a veth pair, kchacha on both sides, then kchacha on one
#     side only (the other's SAs made before it was loaded); the ESP
#     packets are dumped for the host, which decrypts them with OpenSSL's
#     ChaCha20-Poly1305 (python3-cryptography).  And the rng as the
#     kernel's stdrng: with rng_prefer=1, the salt of ESP's IV generator
#     (seqiv) comes from kchacha's rng.
#  c3 fscrypt: ext4 with the encrypt feature, a v2 Adiantum policy; files
#     and long names written through kchacha, read back after a remount
#     with kchacha unloaded; the raw blocks are dumped for the host, which
#     decrypts them with a model of its own (test/vm/consumers.py).
#  c9 a clean kernel log.
#
# This file, sourced by init.sh before the sections, sets up what they
# share.  Lines for the host start "KCDUMP ".

dmesg -n 1
CS=/usr/sbin/cryptsetup
MKFS=/usr/sbin/mke2fs
IP=/usr/sbin/ip
# the templates and their helpers load on demand; kchacha only by insmod,
# so that "kchacha unloaded" stays so
echo /bin/modprobe > /proc/sys/kernel/modprobe
rm -f /lib/modules/"$(uname -r)"/updates/kchacha.ko
load_intree
mkdir -p /run /mnt
mount -t tmpfs run /run
mkdir -p /run/cryptsetup
# libdevmapper makes the /dev/mapper nodes itself: there is no udev
export DM_DISABLE_UDEV=1

# kchacha's reference count (users of its algorithms), empty if unloaded
kc_refs() { awk '$1 == "kchacha" { print $3 }' /proc/modules; }
# the drivers of /proc/crypto's entries whose driver name contains $1
drivers_with() { awk -v s="$1" '/^driver/ && index($3, s) { print $3 }' /proc/crypto; }
# the refcnt /proc/crypto gives driver $1
refcnt_of() {
	awk -v d="$1" '/^driver/ { c = $3 } c == d && /^refcnt/ { print $3; exit }' /proc/crypto
}
rnd() { echo $(( $(od -An -tu4 -N4 /dev/urandom) % $1 )); }
hexrand() { od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'; }
kc_load() {
	[ -z "$(kc_refs)" ] || rmmod kchacha
	insmod /kchacha.ko "$@" || no "insmod kchacha $*"
}
kc_unload() {
	[ -z "$(kc_refs)" ] || rmmod kchacha || no "rmmod kchacha ($(kc_refs) users)"
	[ -z "$(kc_refs)" ]
}

modprobe brd rd_nr=3 rd_size=65536 || no "modprobe brd"
modprobe dm-crypt || no "modprobe dm-crypt"
for m in ext4 veth esp4 xfrm_user af_packet; do
	modprobe $m 2>/dev/null
done
