# SPDX-License-Identifier: GPL-2.0-only
#
# section: c3 fscrypt, Adiantum contents and filenames, v2 policy
# kchacha: own
#
# Last: on some kernels its contents transforms outlive the filesystem.
# The raw blocks dumped for the host (test/vm/consumers.py).

dev=/dev/ram2
head -c 64 /dev/urandom > /tmp/fskey
kc_load
klog_clear
fs_ok=
if $MKFS -q -t ext4 -O encrypt -b 4096 $dev 32M && mount -t ext4 $dev /mnt &&
   id=$(fscrypt addkey /mnt /tmp/fskey) && mkdir /mnt/d &&
   fscrypt policy /mnt/d "$id"; then
	fs_ok=1
	ok "fscrypt: ext4 -O encrypt, key $id added, v2 Adiantum policy set"
else
	no "fscrypt: mkfs -O encrypt, add the key, set the policy"
fi
if [ -n "$fs_ok" ]; then
	# a larger file first, checked by the in-tree read only
	head -c 524288 /dev/urandom > /mnt/d/big
	(cd /mnt/d && sha256sum big) > /tmp/bigsum
	: > /tmp/names
	n=0
	for len in 1 20 31 32 33 100 200 255; do
		name=$(hexrand 128 | cut -c1-$len)
		size=$(( $(rnd 20000) + 1 ))
		[ $n = 0 ] && size=1
		[ $n = 1 ] && size=4096
		[ $n = 2 ] && size=12289
		head -c $size /dev/urandom > "/mnt/d/$name"
		echo "$name" >> /tmp/names
		echo $size > "/tmp/size.$n"
		n=$((n + 1))
	done
	sync
	(cd /mnt/d && sha256sum $(cat /tmp/names)) > /tmp/fsums
	refs=$(kc_refs)
	impl=$(dmesg | sed -n 's/.*fscrypt: Adiantum using implementation "\(.*\)"/\1/p' | head -n 1)
	case $impl in
	"adiantum(xchacha12-kchacha-$top,"*)
		ok "fscrypt: Adiantum using implementation \"$impl\" ($refs users of kchacha)" ;;
	*)
		no "fscrypt: Adiantum on xchacha12-kchacha-$top (dmesg says: $impl)" ;;
	esac
	# where the blocks are, for the host's decryption
	echo "KCDUMP fscrypt key $(od -An -tx1 /tmp/fskey | tr -d ' \n') id $id"
	fscrypt info /mnt/d > /tmp/info.dir || no "fscrypt info /mnt/d"
	i=0
	for name in $(cat /tmp/names); do
		fscrypt info "/mnt/d/$name" > /tmp/info.$i || no "fscrypt info $name"
		i=$((i + 1))
	done
	umount /mnt
	dump() {  # INFO: the extents' raw blocks, base64
		while read -r what a b c; do
			case $what in
			nonce) echo "KCDUMP nonce $a" ;;
			extent)
				echo "KCDUMP extent $a $b $c"
				dd if=$dev bs=4096 skip=$((b / 4096)) count=$((c / 4096)) 2>/dev/null |
					base64 | sed 's/^/KCDUMP b64 /'
				;;
			esac
		done < "$1"
	}
	echo "KCDUMP dir"
	dump /tmp/info.dir
	i=0
	for name in $(cat /tmp/names); do
		echo "KCDUMP file $name $(cat /tmp/size.$i) $(grep " $name\$" /tmp/fsums | cut -d' ' -f1)"
		dump /tmp/info.$i
		i=$((i + 1))
	done
	echo "KCDUMP name big"
	echo "KCDUMP fscrypt end"
	# the master key left with the umount: kchacha unloads, and the
	# in-tree drivers read it all back.  Where the contents go through
	# blk-crypto-fallback (Linux 7.x), its keyslots (num_keyslots on the
	# command line) keep their adiantum transforms until reboot: kchacha
	# stays in use, the host's decryption above is the independent check,
	# and the read back runs on kchacha again
	kept=$(kc_refs)
	slots=$(sed -n 's/.* blk_crypto_fallback\.num_keyslots=\([0-9]*\).*/\1/p' /proc/cmdline)
	reader=in-tree
	if [ "$kept" = "$slots" ]; then
		echo "NOTE fscrypt: the contents ran on blk-crypto-fallback: its $slots keyslots keep adiantum(xchacha12-kchacha-$top,...) until reboot; the remount reads through kchacha"
		reader=kchacha
	elif kc_unload; then
		ok "fscrypt: kchacha unloads after umount"
	else
		no "fscrypt: kchacha unloads after umount ($kept users)"
	fi
	if mount -t ext4 $dev /mnt && fscrypt addkey /mnt /tmp/fskey > /dev/null &&
	   (cd /mnt/d && sha256sum -c /tmp/fsums /tmp/bigsum) > /tmp/c.log 2>&1 &&
	   [ "$(ls /mnt/d | sort)" = "$( (cat /tmp/names; echo big) | sort)" ]; then
		d=$(drivers_with "adiantum(xchacha12-" | tr '\n' ' ')
		if [ $reader = kchacha ]; then
			ok "fscrypt: remounted, kchacha reads every name and file back ($d)"
		else
			[ -z "$(kc_refs)" ] && [ -n "$d" ] && ! echo "$d" | grep -q kchacha &&
				ok "fscrypt: remounted, kchacha unloaded: the in-tree drivers ($d) read every name and file" ||
				no "fscrypt: read back on the in-tree drivers (kchacha: $(kc_refs); $d)"
		fi
	else
		cat /tmp/c.log
		ls /mnt/d
		no "fscrypt: remount with kchacha unloaded, every name and file read back"
	fi
	umount /mnt 2>/dev/null
fi
