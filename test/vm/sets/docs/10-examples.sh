# SPDX-License-Identifier: GPL-2.0-only
#
# section: d1 the documentation's VM examples
# kchacha: own
#
# Each example of /docs/blocks in turn, its output framed for the host.

for b in /docs/blocks/*.sh; do
	[ -e "$b" ] || { no "docs: no examples in /docs/blocks"; break; }
	n=$(basename "$b" .sh)
	n=${n#*-}
	s=${b%.sh}.setup
	if [ -e "$s" ]; then
		(cd /docs/work && sh -e "$s") < /dev/null > /tmp/docsetup 2>&1 ||
			{ no "docs: the setup of $n failed"; sed 's/^/    /' /tmp/docsetup; }
	fi
	# an example that waits (for input, a device) fails, in 180 s
	cat /docs/prelude.sh "$b" > /tmp/docblock.sh
	(cd /docs/work && timeout 180 sh -e /tmp/docblock.sh) < /dev/null > /tmp/docout 2>&1
	rc=$?
	echo "KCDOC BEGIN $n"
	sed "s/^/KCDOC $n| /" /tmp/docout
	echo "KCDOC END $n rc=$rc"
	if [ "$rc" = 0 ]; then ok "docs: $n ran"; else no "docs: $n exited $rc"; fi
done
