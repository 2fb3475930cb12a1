# SPDX-License-Identifier: GPL-2.0-only
#
# section: 8b dm-crypt
# kchacha: unloaded
# skip: [ -n "$short" ] => not in the short suite
# skip: [ ! -s /modules/dm ] => its modules are not packed (test/vm/run --dmcrypt)
#
# Adiantum dm-crypt on kchacha's XChaCha12, read back by the in-tree
# drivers (test/vm/guest/dmcrypt.c), where the host packed the modules.

dm_ok=1
for m in $(cat /modules/dm); do
	case $m in
	brd) modprobe brd rd_nr=1 rd_size=1024 ;;
	*) modprobe $m ;;
	esac || { dm_ok=; no "dm-crypt: modprobe $m"; }
done
if [ -n "$dm_ok" ] && insmod /kchacha.ko; then
	# the reference mapping names the in-tree drivers, in the
	# template's three-argument form where NH is an algorithm (6.1,
	# 6.12), in its two-argument form where it is a library (7.x)
	nh=$(ref_of nhpoly1305)
	spec="adiantum($ref_xchacha12,$(ref_of aes)${nh:+,$nh})"
	run dmcrypt /dev/ram0 "xchacha12-kchacha-$top" "capi:$spec-plain64"
	rmmod kchacha || no "rmmod kchacha after the dm-crypt check"
else
	no "dm-crypt: loading $(cat /modules/dm | tr '\n' ' ')and kchacha"
fi
