# SPDX-License-Identifier: GPL-2.0-only
#
# section: 2 kcapi-enc against openssl enc -chacha20
# kchacha: loaded
#
# kcapi-enc on every chacha20 driver against `openssl enc -chacha20`,
# computed on the host (/data).

iv=$(cat /data/iv.hex)
for impl in $impls; do
	rm -f /tmp/ct
	kcapi-enc -c chacha20-kchacha-$impl --iv "$iv" --keyfd 3 \
		-i /data/plain -o /tmp/ct 3< /data/key > /tmp/kcapi.log 2>&1
	if cmp -s /tmp/ct /data/ct.openssl; then
		ok "kcapi-enc chacha20-kchacha-$impl equals openssl enc -chacha20"
	else
		cat /tmp/kcapi.log; ls -l /tmp/ct /data/ct.openssl
		cmp /tmp/ct /data/ct.openssl
		no "kcapi-enc chacha20-kchacha-$impl differs from openssl enc -chacha20"
	fi
done
