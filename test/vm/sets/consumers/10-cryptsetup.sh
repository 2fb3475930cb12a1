# SPDX-License-Identifier: GPL-2.0-only
#
# section: c1 cryptsetup, LUKS2 Adiantum
# kchacha: own
#
# LUKS2 Adiantum on RAM disks: written through kchacha, read through the
# in-tree drivers, and the reverse (setup.sh has the helpers).

# files of random sizes and content on the filesystem mounted at /mnt,
# their sums in $1 (paths relative to /mnt)
write_files() {
	i=0
	while [ $i -lt 6 ]; do
		head -c $(( $(rnd 300000) + 1 )) /dev/urandom > /mnt/f$i
		i=$((i + 1))
	done
	head -c 1 /dev/urandom > /mnt/one
	head -c 1048576 /dev/urandom > /mnt/mib
	(cd /mnt && sha256sum f* one mib) > "$1"
}
luks_format() {  # CIPHER DEV KEYFILE
	$CS luksFormat -q --type luks2 --cipher "$1" --key-size 256 \
		--sector-size 4096 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--hash sha256 --disable-locks --key-file "$3" \
		--volume-key-file /tmp/vk "$2" > /tmp/cs.log 2>&1 ||
		{ cat /tmp/cs.log; return 1; }
}
luks_open() {  # DEV KEYFILE
	$CS open --disable-locks --key-file "$2" "$1" kc > /tmp/cs.log 2>&1 ||
		{ cat /tmp/cs.log; return 1; }
}
luks_close() { $CS close --disable-locks kc; }
# one filesystem written by WRITER (kchacha or in-tree) and read by the other
luks() {  # CIPHER STREAM DEV WRITER
	cipher=$1 stream=$2 dev=$3 writer=$4
	what="cryptsetup $cipher, written by $writer"
	head -c 32 /dev/urandom > /tmp/pass
	head -c 32 /dev/urandom > /tmp/vk
	if [ "$writer" = kchacha ]; then kc_load; else kc_unload; fi
	if ! luks_format "$cipher" "$dev" /tmp/pass || ! luks_open "$dev" /tmp/pass; then
		no "$what: luksFormat and open"
		return
	fi
	$CS status kc | sed 's/^/    /'
	check_user "$what" "$writer" "$stream"
	if $MKFS -q -t ext4 /dev/mapper/kc && mount -t ext4 /dev/mapper/kc /mnt; then
		write_files /tmp/sums
		umount /mnt
		ok "$what: mkfs.ext4, $(wc -l < /tmp/sums) files written"
		# the first two blocks as the mapping reads them and as they
		# are on the disk, with the volume key, for the host
		if [ "$writer" = kchacha ]; then
			sync
			echo 3 > /proc/sys/vm/drop_caches
			off=$($CS status kc | sed -n 's/^ *offset: *\([0-9]*\) sectors$/\1/p')
			echo "KCDUMP luks $cipher $(od -An -tx1 /tmp/vk | tr -d ' \n') $off"
			dd if=/dev/mapper/kc bs=4096 count=2 2>/dev/null | base64 | sed 's/^/KCDUMP plain /'
			dd if="$dev" bs=512 skip="$off" count=16 2>/dev/null | base64 | sed 's/^/KCDUMP raw /'
			echo "KCDUMP luks end"
		fi
	else
		no "$what: mkfs.ext4 and mount"
	fi
	luks_close || no "$what: close"
	if [ "$writer" = kchacha ]; then
		kc_unload && ok "$what: kchacha unloads after close" ||
			no "$what: kchacha unloads after close"
		reader=in-tree
	else
		kc_load
		reader=kchacha
	fi
	if ! luks_open "$dev" /tmp/pass; then
		no "$what: open for $reader"
		return
	fi
	check_user "$what, read by $reader" "$reader" "$stream"
	if mount -t ext4 /dev/mapper/kc /mnt && (cd /mnt && sha256sum -c /tmp/sums) > /tmp/c.log 2>&1; then
		ok "$what: every file byte-identical through $reader"
	else
		cat /tmp/c.log
		no "$what: every file byte-identical through $reader"
	fi
	umount /mnt 2>/dev/null
	luks_close || no "$what: close after reading"
}
# WHAT USER STREAM: the mapping just opened runs on kchacha (its reference
# count went up, /proc/crypto has adiantum(STREAM-kchacha-...)) or on the
# in-tree drivers (kchacha unloaded, an adiantum instance of STREAM's in-tree
# driver)
check_user() {
	d=$(drivers_with "adiantum($3-" | tr '\n' ' ')
	if [ "$2" = kchacha ]; then
		[ "$(kc_refs)" -gt 0 ] && echo "$d" | grep -q "adiantum($3-kchacha-$top," &&
			ok "$1: dm-crypt on kchacha ($(kc_refs) users; $d)" ||
			no "$1: dm-crypt on kchacha (users: $(kc_refs); $d)"
	else
		[ -z "$(kc_refs)" ] && [ -n "$d" ] && ! echo "$d" | grep -q kchacha &&
			ok "$1: dm-crypt on the in-tree drivers, kchacha unloaded ($d)" ||
			no "$1: dm-crypt on the in-tree drivers (kchacha: $(kc_refs); $d)"
	fi
}

for c in xchacha12 xchacha20; do
	luks "$c,aes-adiantum-plain64" $c /dev/ram0 kchacha
	luks "$c,aes-adiantum-plain64" $c /dev/ram1 in-tree
done

kc_load
if runas 65534 $CS benchmark -c xchacha12,aes-adiantum --key-size 256 > /tmp/bench 2>&1 &&
   grep -Eq 'xchacha12,aes-adiantum +256b +[0-9.]+ [MG]iB/s +[0-9.]+ [MG]iB/s' /tmp/bench; then
	ok "cryptsetup benchmark as uid 65534: $(grep adiantum /tmp/bench | tr -s ' ')"
else
	cat /tmp/bench
	no "cryptsetup benchmark -c xchacha12,aes-adiantum as uid 65534"
fi
