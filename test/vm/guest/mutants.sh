# SPDX-License-Identifier: GPL-2.0-only
#
# kc.mode=mutants, sourced by init.sh as PID 1 (test/vm/mutants packs the
# mutants): the suite run again for each line of /mut/list, "NAME SUITE
# SECTION...", in a child of this shell (init.sh with kc_child=1), with
# the sections the line names in that suite (full or short), ending at
# its first failure (kc_fail_fast) but for the control's.  NAME's
# module is /mut/NAME.ko, where there is one, else the unmutated
# /kchacha.orig.ko; its copy of the suite /mut/NAME.init, where there is
# one, else /init; its sections /mut/NAME.sections, where it has them,
# else /sections.  The first lines, "-full" and "-short", are the
# unmutated module and suite (the controls), which must pass.  Each run is framed by "KCMUTANT NAME begin" and
# "KCMUTANT NAME end"; the host judges what lies between (a failed check,
# or a section neither run nor skipped, kills the mutant).  What a run
# leaves running is killed, and a module it leaves loaded is unloaded;
# one that cannot be ends the boot
# ("KCMUTANT NAME stuck"), and the host boots again for the lines after it.

kc_mut_kdir=/lib/modules/$(uname -r)
cp /kchacha.ko /kchacha.orig.ko
while read -r kc_mut_name kc_mut_suite kc_mut_secs; do
	[ -n "$kc_mut_name" ] || continue
	kc_mut_ko=/kchacha.orig.ko
	[ ! -e "/mut/$kc_mut_name.ko" ] || kc_mut_ko=/mut/$kc_mut_name.ko
	kc_mut_init=/init
	[ ! -e "/mut/$kc_mut_name.init" ] || kc_mut_init=/mut/$kc_mut_name.init
	kc_mut_secdir=/sections
	[ ! -d "/mut/$kc_mut_name.sections" ] || kc_mut_secdir=/mut/$kc_mut_name.sections
	cp "$kc_mut_ko" /kchacha.ko
	cp "$kc_mut_ko" "$kc_mut_kdir/updates/kchacha.ko"
	# only this run's kernel messages count in its section 9
	dmesg -c > /dev/null
	rm -f /tmp/klog
	echo "KCMUTANT $kc_mut_name begin"
	# not this loop's list on its input; at most 10 minutes; a mutant's
	# run ends at its first failure
	kc_mut_ff=1
	[ "${kc_mut_name#-}" = "$kc_mut_name" ] || kc_mut_ff=
	kc_child=1 kc_suite=$kc_mut_suite kc_sections=$kc_mut_secs \
		kc_sections_dir=$kc_mut_secdir \
		kc_fail_fast=$kc_mut_ff timeout 600 sh "$kc_mut_init" \
		</dev/null 2>&1
	echo "KCMUTANT $kc_mut_name end"
	# what the run left running (a holder of a socket, where it stopped
	# at its first failure) ends first: every process but this one
	for kc_mut_p in /proc/[0-9]*; do
		kc_mut_p=${kc_mut_p#/proc/}
		# (a kernel thread's command line is empty)
		[ "$kc_mut_p" != 1 ] &&
			[ -n "$(tr -d '\0' <"/proc/$kc_mut_p/cmdline" 2>/dev/null)" ] &&
			kill -9 "$kc_mut_p" 2>/dev/null
	done
	# their exits let go of kchacha (5 s at most)
	kc_mut_i=0
	while [ $kc_mut_i -lt 50 ] &&
	      awk '$1 == "kchacha" && $3 != 0 { f = 1 } END { exit !f }' /proc/modules; do
		usleep 100000
		kc_mut_i=$((kc_mut_i + 1))
	done
	if lsmod | grep -q '^kchacha ' && ! rmmod kchacha; then
		echo "KCMUTANT $kc_mut_name stuck: kchacha cannot be unloaded"
		break
	fi
done < /mut/list
