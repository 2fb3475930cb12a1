#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# The guest side of `make check`: PID 1 of the test VM.  The host passes
# the expected implementations as kc.expect=impl:prio,... on the kernel
# command line, lowest level first, and kc.hooks=1 for a test build (with
# the fault-injection parameters) or 0 for the module users build.
#
# Results are KTAP version 1 (the kernel's Documentation/dev-tools/
# ktap.rst), read on the host by test/vm/ktap: each section of the suite
# is one test, "ok N <id> <title>", whose subtests are its checks; a
# section that does not run here is "ok N <id> <title> # SKIP <why>"; a
# check outside any section is a test of its own.  The last line is "#
# totals: N passed, M failed, K skipped".  The sections are the files of
# test/vm/sections (see the loop at the end).  test/vm/run requires every
# one to have run or been skipped, and a section that ran to have counted
# a check or a SKIP of its own; each that ran ends with a diagnostic
# line "# time: <n> s", its time in the guest.  A program's "PASS what"
# and "FAIL what" lines (run) become checks.
#
# kc.sections=ID,ID... runs only those sections of the suite (each other
# one is a SKIP, "not chosen"), loading kchacha where a chosen section
# needs it loaded.  The mutation boots (kc.mode=mutants: mutants.sh) run
# this script again as a child of PID 1 for each mutant: kc_child=1, the
# sections in kc_sections, the suite in kc_suite; a child sets nothing up
# that PID 1 set up, prints a KTAP document of its own, and exits where
# PID 1 powers off.

child=${kc_child:-}
if [ -z "$child" ]; then
	/bin/busybox --install -s /bin
	export PATH=/bin
	mount -t proc proc /proc
	mount -t sysfs sys /sys
	mount -t devtmpfs dev /dev
	mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	# AF_ALG keeps a socket's scatterlists within optmem_max: room for 1 MiB
	echo 4194304 > /proc/sys/net/core/optmem_max
	echo 1 > /proc/sys/kernel/printk_ratelimit 2>/dev/null
fi

# the version line on a line of its own (the console may have left one
# unended)
echo
echo "KTAP version 1"
pass=0
fail=0
nskip=0
# the top-level tests so far; the current section's checks
ktap_n=0
sub_n=0
nl='
'
# ktap RESULT DESCRIPTION [DIRECTIVE]: one result line, of the current
# section's where there is one; a description has no "#" (it starts the
# directive) and no newline
ktap() {
	kt_d=$2
	case $kt_d in *"#"* | *"$nl"*) kt_d=$(printf '%s' "$kt_d" | tr '#\n' '% ') ;; esac
	if [ -n "$sec" ]; then
		sub_n=$((sub_n + 1))
		echo "  $1 $sub_n $kt_d${3:+ # $3}"
	else
		ktap_n=$((ktap_n + 1))
		echo "$1 $ktap_n $kt_d${3:+ # $3}"
	fi
}
ok() { pass=$((pass + 1)); ktap ok "$*"; }
no() { fail=$((fail + 1)); sec_bad=1; ktap "not ok" "$*"; stop_early; }
# a mutant's run (kc_fail_fast=1, test/vm/guest/mutants.sh) ends at its
# first failure, with its summary
stop_early() {
	[ -n "${kc_fail_fast:-}" ] && [ "$fail" -gt 0 ] || return 0
	summary
	exit 1
}
# skip "WHAT: WHY": a check that cannot run here, "ok N WHAT # SKIP WHY"
skip() {
	nskip=$((nskip + 1))
	case $* in
	*": "*) ktap ok "${*%%: *}" "SKIP ${*#*: }" ;;
	*) ktap ok "$*" SKIP ;;
	esac
}
# section ID TITLE: the checks that follow are section ID's
sec=
sec_at=0
# the guest's uptime in whole seconds
now() { read -r up _ < /proc/uptime; echo "${up%.*}"; }
sec_end() {
	[ -n "$sec" ] || return 0
	[ $((pass + fail + nskip)) != "$sec_at" ] || no "section $sec ran no check"
	echo "  # time: $(($(now) - sec_t0)) s"
	sec=
	ktap "${sec_bad:+not }ok" "$sec_title"
}
section() {
	sec_end
	sec_title=$*
	sec_bad=
	sub_n=0
	sec_at=$((pass + fail + nskip))
	sec_t0=$(now)
	echo "  KTAP version 1"
	echo "  # Subtest: $*"
	sec=$1
}
# skip_section "ID TITLE: WHY": section ID does not run here
skip_section() { sec_end; skip "$*"; }
summary() {
	sec_end
	echo "# totals: $pass passed, $fail failed, $nskip skipped"
}
# the end of a run: PID 1 powers the guest off, a child returns to it
finish() {
	[ -z "$child" ] || exit 0
	poweroff -f
}
# the sections chosen (kc.sections, or kc_sections in a child): all when
# empty
if [ -n "$child" ]; then
	chosen=${kc_sections:-}
else
	chosen=$(sed -n 's/.* kc\.sections=\([^ ]*\).*/\1/p' /proc/cmdline | tr ',' ' ')
fi
# picked ID: section ID is chosen; where it is not, a SKIP says so
picked() {
	case " ${chosen:-$1} " in
	*" $1 "*) return 0 ;;
	esac
	skip_section "$1: not chosen (kc.sections=$(echo $chosen | tr ' ' ,))"
	return 1
}
# kc_needed ID: section ID runs with kchacha loaded.  In the whole suite
# the sections before it left it so; where sections are chosen, it is
# loaded here if it is not.
kc_needed() {
	lsmod | grep -q '^kchacha ' && return 0
	[ -n "$chosen" ] && check insmod /kchacha.ko && return 0
	no "section $1 starts with kchacha loaded"
	return 1
}
check() { if "$@" >/dev/null 2>&1; then ok "$*"; else no "$*"; fi; }
# ktap_filter: a program's output (stdin) to the console as it comes, its
# "PASS what" and "FAIL what" lines as checks; ktap_count, after it, counts
# them (ktap_filter may end a pipe, in a subshell)
ktap_filter() {
	if [ -n "$sec" ]; then kt_n=$sub_n kt_i='  '; else kt_n=$ktap_n kt_i=; fi
	awk -v ind="$kt_i" -v n="$kt_n" '
		/^(PASS|FAIL) / {
			d = substr($0, 6)
			gsub(/#/, "%", d)
			if ($1 == "PASS") { p++; r = "ok" } else { f++; r = "not ok" }
			printf "%s%s %d %s\n", ind, r, ++n, d
			fflush()
			next
		}
		{ print; fflush() }
		END { print p + 0, f + 0 > "/tmp/ktap.n" }'
}
ktap_count() {
	read -r kt_p kt_f < /tmp/ktap.n
	pass=$((pass + kt_p))
	fail=$((fail + kt_f))
	[ "$kt_f" = 0 ] || sec_bad=1
	if [ -n "$sec" ]; then sub_n=$((sub_n + kt_p + kt_f)); else ktap_n=$((ktap_n + kt_p + kt_f)); fi
}
# Run a test program: its PASS and FAIL lines are checks.
run() {
	"$@" > /tmp/out 2>&1
	rc=$?
	ktap_filter < /tmp/out
	ktap_count
	if [ "$rc" != 0 ] && [ "$kt_f" = 0 ]; then no "$* exited $rc"; fi
	stop_early
}
klog_clear() { dmesg -c >> /tmp/klog; }
# "priority selftest" of a driver in /proc/crypto
proc_of() {
	awk -v d="$1" '/^driver/ { c = $3 } c == d && /^priority/ { p = $3 }
		c == d && /^selftest/ { print p, $3; exit }' /proc/crypto
}
# the stdrng crypto_get_default_rng() would get: the highest priority
top_stdrng() {
	awk '/^name/ { n = $3 } /^driver/ { d = $3 } /^priority/ { p = $3 }
		/^selftest/ && n == "stdrng" && $3 == "passed" && p > m { m = p; t = d }
		END { print t }' /proc/crypto
}
# the in-tree driver an algorithm is compared with: the lowest-priority
# one that is not kchacha's, its self-test passed, not internal
# (chacha20-generic on 6.1 and 6.12, chacha20-lib on 7.x)
ref_of() {
	awk -v n="$1" 'BEGIN { RS = "" }
		{ name = drv = prio = st = intl = ""
		  for (i = 1; i <= NF; i++) {
			if ($i == "name") name = $(i + 2)
			else if ($i == "driver") drv = $(i + 2)
			else if ($i == "priority") prio = $(i + 2)
			else if ($i == "selftest") st = $(i + 2)
			else if ($i == "internal") intl = $(i + 2) } }
		name == n && drv !~ /-kchacha-/ && st == "passed" && intl != "yes" &&
		(r == "" || prio + 0 < m) { m = prio + 0; r = drv }
		END { print r }' /proc/crypto
}
# the driver the crypto API picks for an algorithm: the highest priority
top_of() {
	awk -v n="$1" 'BEGIN { RS = "" }
		{ name = drv = prio = st = ""
		  for (i = 1; i <= NF; i++) {
			if ($i == "name") name = $(i + 2)
			else if ($i == "driver") drv = $(i + 2)
			else if ($i == "priority") prio = $(i + 2)
			else if ($i == "selftest") st = $(i + 2) } }
		name == n && st == "passed" && (r == "" || prio + 0 > m) { m = prio + 0; r = drv }
		END { print r }' /proc/crypto
}
# the highest-priority driver of an algorithm that is not kchacha's
top_intree_of() {
	awk -v n="$1" 'BEGIN { RS = "" }
		{ name = drv = prio = st = ""
		  for (i = 1; i <= NF; i++) {
			if ($i == "name") name = $(i + 2)
			else if ($i == "driver") drv = $(i + 2)
			else if ($i == "priority") prio = $(i + 2)
			else if ($i == "selftest") st = $(i + 2) } }
		name == n && drv !~ /-kchacha-/ && st == "passed" &&
		(r == "" || prio + 0 > m) { m = prio + 0; r = drv }
		END { print r }' /proc/crypto
}
# the kernel's own driver of an algorithm, to compare kchacha's with
ref_driver() { ref_of "$1"; }
# the stdrng drivers registered by others than kchacha, best first
other_stdrngs() {
	awk '/^name/ { n = $3 } /^driver/ { d = $3 } /^priority/ { p = $3 }
		/^selftest/ && n == "stdrng" && d !~ /-kchacha-/ { print p, d }' \
		/proc/crypto | sort -rn | cut -d' ' -f2 | paste -sd' ' -
}
# what crypto_alloc_rng("stdrng", 0, 0) returns, which AF_ALG's rng bind
# calls: the stdrng driver whose refcnt the bound socket raised
stdrng_got() { kctest which rng stdrng | awk '$2 == "stdrng" { print $3 }'; }
kc_loaded() { grep -q -- '-kchacha-' /proc/crypto; }
clean_log() {
	klog_clear
	if grep -E "BUG|WARNING|Oops|Call Trace|UBSAN|KASAN|sleeping function" /tmp/klog; then
		no "kernel log free of BUG, WARNING, Oops, Call Trace"
	else
		ok "kernel log free of BUG, WARNING, Oops, Call Trace"
	fi
}
# Since 6.12 the crypto manager tests a new algorithm after its
# registration has returned, in a cryptomgr_test thread that holds the
# module: rmmod in that window fails with EAGAIN, and /proc/crypto shows
# the driver untested.  Wait for those threads (at most 120 s) after
# loading and before unloading; on 6.1 they have ended already.
kc_settle() {
	t=0
	while grep -qx cryptomgr_test /proc/[0-9]*/comm 2>/dev/null; do
		t=$((t + 1))
		if [ $t -gt 1200 ]; then
			no "crypto self-tests still running after 120 s"
			return 1
		fi
		usleep 100000
	done
}
# Every load of kchacha here keeps the table's order (calibrate=0) unless
# it says calibrate=: the expectations follow kc.expect, and a calibration
# under TCG or Bochs would rank by timings that mean nothing.  The
# calibration itself is checked against its own figures (kc_calibration).
insmod() {
	case " $* " in
	*" calibrate="*) /bin/insmod "$@" ;;
	*/kchacha.ko*) /bin/insmod "$@" calibrate=0 ;;
	*) /bin/insmod "$@" ;;
	esac && kc_settle
}
modprobe() { /bin/modprobe "$@" && kc_settle; }
rmmod() { kc_settle; /bin/rmmod "$@"; }

expect=$(sed -n 's/.* kc\.expect=\([^ ]*\).*/\1/p' /proc/cmdline)
impls=$(echo "$expect" | tr ',' '\n' | cut -d: -f1)
top=$(echo "$impls" | tail -n 1)
# for kctest proc: each implementation with its rng's priority too, where
# kc.expect does not give it (impl:prio:rngprio) 150 + its rank (its place
# in kc.expect), kept when an entry is left out.  (kchacha ranks the rngs
# by the implementations of its table ranked below, registered or not:
# on a CPU that the table's other order applies to but that lacks
# AVX-512, avx2's rng counts the avx512 ranked below it.)
kcspec=$(echo "$expect" | tr ',' '\n' |
	awk -F: 'NF { printf "%s%s", (NR > 1 ? "," : ""), $0
		if (NF < 3) printf ":%d", 149 + NR }')
# rng_prio IMPL: the priority IMPL's rng must have
rng_prio() { echo "$kcspec" | tr ',' '\n' | awk -F: -v i="$1" '$1 == i { print $3 }'; }
echo "kctest: $(uname -r), expecting $expect"
# the debug kernel of `make check-debug`: the extra checks of debug.sh
debug=
# (its own sections, test/debug/sections, packed beside the suite's)
grep -q ' kc.debug=1' /proc/cmdline && debug=1

load_intree() {
	for m in $(cat /modules/order); do
		modprobe $m || no "modprobe in-tree $m"
	done
}

# AF_ALG restricted (7.3: /proc/sys/crypto/af_alg_restrict, 1 by default,
# lets only an allowlist of algorithms bind): the suite binds chacha20, the
# rngs and kchacha's drivers by name, so it runs with the restriction
# lifted; where the kernel has the sysctl, its default is kept in
# $af_alg_default for the checks of the default.
# (A child has PID 1's $af_alg_default in its environment.)
if [ -z "$child" ]; then
	modprobe af_alg 2>/dev/null
	af_alg_default=
	if [ -e /proc/sys/crypto/af_alg_restrict ]; then
		af_alg_default=$(cat /proc/sys/crypto/af_alg_restrict)
		echo 0 > /proc/sys/crypto/af_alg_restrict
		echo "kctest: /proc/sys/crypto/af_alg_restrict was $af_alg_default, set to 0"
	fi
	export af_alg_default
fi

# the fault-injection parameters: required in a test build (kc.hooks=1:
# test/vm/run checked the module's modinfo), absent from the module users
# build (kc.hooks=0)
hooks=$(sed -n 's/.* kc\.hooks=\([01]\).*/\1/p' /proc/cmdline)
# parameter "value": /sys/module/kchacha/parameters/<p> reads it
param_is() {
	f=/sys/module/kchacha/parameters/$1
	got=$(cat $f 2>/dev/null) || got="(unreadable)"
	[ "$got" = "$2" ] && ok "$f reads '$2'" ||
		no "$f reads '$2' (got '$got')"
}

# kc_calibration SPEC: a load with the calibration (calibrate.c), as users
# load kchacha, checked against the figures it logs, never against which
# implementation won: the scores follow from the ns, the default from the
# scores (a lead of 5% over the table's choice; never avx512 where
# prefer_ymm reads 1, nor NEON where the other order demotes it), and
# /proc/crypto ranks that default first, the other calibrated ones moved
# down one place each, the rngs alike, against SPEC (impl:prio:rngprio in
# the table's order, kcspec).  With fewer than two SIMD implementations
# nothing is timed or logged, and the table's order stands.  Leaves
# kchacha unloaded.
kc_calibration() {
	before=$(dmesg | grep -c 'kchacha: calibrated')
	if ! /bin/insmod /kchacha.ko calibrate=1 || ! kc_settle; then
		no "insmod calibrate=1"
		return
	fi
	param_is calibrate Y
	line=$(dmesg | grep 'kchacha: calibrated' | tail -n 1)
	nsimd=$(echo "$1" | tr ',' '\n' | cut -d: -f1 | grep -cvx generic)
	if [ "$nsimd" -lt 2 ]; then
		[ "$(dmesg | grep -c 'kchacha: calibrated')" = "$before" ] &&
			ok "calibrate=1, fewer than two SIMD implementations ($nsimd): nothing timed, nothing logged" ||
			no "calibrate=1, fewer than two SIMD implementations ($nsimd): nothing timed (got: $line)"
		run kctest proc "$1"
		rmmod kchacha
		return
	fi
	[ "$(dmesg | grep -c 'kchacha: calibrated')" = $((before + 1)) ] &&
		ok "calibrate=1: one line logged: ${line#*kchacha: }" ||
		no "calibrate=1: one calibration line logged (got $(($(dmesg | grep -c 'kchacha: calibrated') - before)))"
	demoted=
	[ "$(cat /sys/module/kchacha/parameters/prefer_ymm 2>/dev/null)" = 1 ] &&
		demoted=avx512
	set -- $(awk -v spec="$1" -v line="$line" -v dem="$demoted" 'BEGIN {
		n = split(spec, e, ",")
		for (i = 1; i <= n; i++) {
			split(e[i], f, ":")
			nm[i] = f[1]; prio[f[1]] = f[2]; rp[f[1]] = f[3]
		}
		said = line
		sub(/.*; default /, "", said)
		sub(/ .*/, "", said)
		sub(/.*\(speed per mille\): /, "", line)
		sub(/;.*/, "", line)
		m = split(line, t, " ")
		for (j = 1; j + 2 <= m; j += 3) {
			k++
			c[k] = t[j]
			split(t[j + 1], ns, "/")
			for (s = 1; s <= 3; s++)
				v[k, s] = ns[s] > 0 ? ns[s] : 1
			sc[k] = t[j + 2]
			gsub(/[()]/, "", sc[k])
		}
		tb = 1
		for (i = 2; i <= k; i++)
			if (prio[c[i]] + 0 > prio[c[tb]] + 0)
				tb = i
		scores = "ok"
		for (i = 1; i <= k; i++) {
			sum = 0
			for (s = 1; s <= 3; s++)
				sum += int(v[tb, s] * 1000 / v[i, s])
			my[i] = int(sum / 3)
			if (my[i] != sc[i])
				scores = "wrong:" c[i] "=" my[i]
		}
		best = tb
		for (i = 1; i <= k; i++)
			if (c[i] != dem && my[i] > my[best])
				best = i
		win = my[best] >= 1050 ? best : tb
		# the calibrated ones by falling priority, the winner moved first
		for (i = 1; i <= k; i++)
			o[i] = i
		for (i = 1; i <= k; i++)
			for (j = i + 1; j <= k; j++)
				if (prio[c[o[j]]] + 0 > prio[c[o[i]]] + 0) {
					x = o[i]; o[i] = o[j]; o[j] = x
				}
		q = 1
		np[c[win]] = prio[c[o[1]]]; nr[c[win]] = rp[c[o[1]]]
		for (i = 1; i <= k; i++)
			if (o[i] != win) {
				q++
				np[c[o[i]]] = prio[c[o[q]]]; nr[c[o[i]]] = rp[c[o[q]]]
			}
		out = ""
		for (i = 1; i <= n; i++) {
			p = nm[i] in np ? np[nm[i]] : prio[nm[i]]
			r = nm[i] in nr ? nr[nm[i]] : rp[nm[i]]
			out = out (i > 1 ? "," : "") nm[i] ":" p ":" r
		}
		print (k ? c[win] : "none"), said, scores, k, out
	}')
	[ "$4" = "$nsimd" ] &&
		ok "calibrate=1: all $nsimd SIMD implementations timed" ||
		no "calibrate=1: all $nsimd SIMD implementations timed (got $4)"
	[ "$3" = ok ] && ok "calibrate=1: each score follows from the ns logged" ||
		no "calibrate=1: each score follows from the ns logged ($3)"
	[ "$1" = "$2" ] &&
		ok "calibrate=1: the default follows from the scores: $1${demoted:+ (not $demoted: prefer_ymm)}" ||
		no "calibrate=1: the default follows from the scores: $1 (logged: $2)"
	run kctest proc "$5"
	rmmod kchacha
}

# the shorter suite of the Bochs stage (test/bochs/run)
if grep -q ' kc.mode=bochs' /proc/cmdline; then
	. /bochs.sh
	poweroff -f
fi
# the rng boot of test/vm/rngboot: a late kernel RNG, then a VM clone
if grep -q ' kc.mode=rng' /proc/cmdline; then
	. /rngboot.sh
	poweroff -f
fi

# the mutation boots (test/vm/mutants): this suite again, as a child, for
# each mutant packed
if [ -z "$child" ] && grep -q ' kc.mode=mutants' /proc/cmdline; then
	. /mutants.sh
	poweroff -f
fi

# one check alone, on a quick boot (KC_APPEND=kc.only=NAME test/vm/run
# max, with KC_KO= another module): regrace (7b); retire (7c); resume,
# the resume boot of test/vm/run (a suspend to RAM, test/vm/guest/pm.sh)
only=$(sed -n 's/.* kc\.only=\([a-z]*\).*/\1/p' /proc/cmdline)
if [ -n "$only" ]; then
	load_intree
	case $only in
	regrace)
		. /regrace.sh
		regrace "$(echo "$impls" | sed -n 2p)" 8
		;;
	retire)
		. /regrace.sh
		retire_held 4
		retire_held 4 kill
		;;
	resume)
		check insmod /kchacha.ko
		. /pm.sh
		pm_resume
		rmmod kchacha
		;;
	*) no "kc.only=$only: no such check" ;;
	esac
	clean_log
	summary
	finish
fi

# kc.suite=short, the extra kernels' suite (test/kernels): registration
# and self-tests (1), the differential and bad-input tests against the
# in-tree drivers with fewer lengths (kctest quick), the rngs (1b), the
# default stdrng (1d), the vector registers (1e), kcapi-enc against
# OpenSSL (2), load/unload cycles (8) and a clean log (9); not the
# autoload (0), memory (1c), tcrypt (3), rmmod-while-bound (4), max_isa
# (5) and fault-injection (6, 7, 7b) tests, nor dm-crypt (8b): each of
# those is a SKIP line
short=
if [ -n "$child" ]; then
	[ "${kc_suite:-}" != short ] || short=1
else
	grep -q ' kc.suite=short' /proc/cmdline && short=1
fi
# the differential tests' lengths: all of them, or fewer (kctest quick)
# in the short suite and on the debug kernel, where the MiB sizes add
# only time (KASAN checks the same paths on 4095..4097 and 65549 bytes)
difftest=diff
[ -n "$short$debug" ] && difftest=quick

# The sections: test/vm/sections/NN-name.sh, packed as /sections, run in
# the order of their names.  Each file's header says what the loop needs:
#
#   # section: ID TITLE     its KTAP test, "ID TITLE"
#   # kchacha: STATE        absent: before the in-tree drivers are loaded
#                           (and kchacha is not); loads: it loads kchacha
#                           itself; loaded: it starts with kchacha loaded
#                           (kc_needed); unloaded: with kchacha unloaded;
#                           any: whatever the sections before left; own:
#                           a set of another boot's, which loads what it
#                           needs itself (no in-tree setup, no unload)
#   # skip: COND => WHY     not here where the shell condition COND holds
#                           (evaluated in this shell, in the order given):
#                           "ok N ID TITLE # SKIP WHY"
#
# Its body runs in this shell, inside the section, with ok, no, skip, run,
# check and the variables above.  test/vm/run reads the same headers for
# the sections a suite must have run or skipped.  The other boots
# (test/vm/consumers, test/vm/docs, test/vm/demo) pack a set of their own
# (test/vm/sets/NAME) as /sections; a set's setup.sh, where it has one,
# is sourced first: what its sections share.
secdir=${kc_sections_dir:-/sections}
# the kernel's module loader (section 0's autoload, dm-crypt's templates)
# and the function tracer (section 1a)
echo /bin/modprobe > /proc/sys/kernel/modprobe
[ -e /sys/kernel/tracing/available_tracers ] ||
	mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
# the in-tree modules, and the in-tree drivers the differential tests
# compare with: before the first section that is not "absent", whatever
# sections run
intree_done=
intree_setup() {
	[ -z "$intree_done" ] || return 0
	intree_done=1
	load_intree
	# the in-tree drivers the differential tests compare with
	for alg in chacha20 xchacha20 xchacha12; do
		r=$(ref_of $alg)
		eval "ref_$alg=\$r"
		# registered, self-tested, not kchacha's
		case $r:$(proc_of "$r") in
		*-kchacha-*:* | :* | *:) no "an in-tree $alg driver to compare with in /proc/crypto (got '$r')" ;;
		*" passed") ok "in-tree $alg driver to compare with: $r ($(proc_of "$r"))" ;;
		*) no "in-tree $alg driver $r: self-test passed (got $(proc_of "$r"))" ;;
		esac
	done
}
# before the first "unloaded" section: the whole suite has kchacha loaded
# there, chosen sections may not
unload_done=
unload_once() {
	[ -z "$unload_done" ] || return 0
	unload_done=1
	if [ -z "$chosen" ] || lsmod | grep -q '^kchacha '; then
		check rmmod kchacha
		if kc_loaded; then no "no kchacha driver left after rmmod"; else ok "no kchacha driver left after rmmod"; fi
	fi
}
[ ! -f "$secdir/setup.sh" ] || . "$secdir/setup.sh"
for f in "$secdir"/[0-9]*.sh; do
	hdr=$(sed -n 's/^# section: //p' "$f")
	id=${hdr%% *}
	state=$(sed -n 's/^# kchacha: //p' "$f")
	case $state in
	absent) [ -z "$intree_done" ] || no "section $id: kchacha: absent, after the in-tree setup" ;;
	loads | loaded | any) intree_setup ;;
	unloaded) intree_setup; unload_once ;;
	own) ;;
	*) no "$f: no '# kchacha: absent|loads|loaded|unloaded|any|own' line"; continue ;;
	esac
	[ -n "$id" ] || { no "$f: no '# section: ID TITLE' line"; continue; }
	picked "$id" || continue
	why=
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		if eval "${l%% => *}"; then
			why=${l#* => }
			break
		fi
	done <<EOF
$(sed -n 's/^# skip: //p' "$f")
EOF
	if [ -n "$why" ]; then
		skip_section "$hdr: $why"
		continue
	fi
	section $hdr
	[ "$state" != loaded ] || kc_needed "$id"
	# the body must count a check of its own: kc_needed's insmod is not
	sec_at=$((pass + fail + nskip))
	. "$f"
done

summary
finish
