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
# totals: N passed, M failed, K skipped".  test/vm/run requires every
# section of its list to have run or been skipped, and a section that ran
# to have counted a check or a SKIP; each that ran ends with a diagnostic
# line "# time: <n> s", its time in the guest.  A program's "PASS what"
# and "FAIL what" lines (run) become checks.
#
# kc.sections=ID,ID... runs only those sections of the suite (each other
# one is a SKIP, "not chosen"), loading kchacha where a chosen section
# needs it loaded.  The mutation boots (kc.mode=mutants: mutants.sh) run
# this script again as a child of PID 1 for each mutant: KC_CHILD=1, the
# sections in KC_SECTIONS, the suite in KC_SUITE; a child sets nothing up
# that PID 1 set up, prints a KTAP document of its own, and exits where
# PID 1 powers off.

child=${KC_CHILD:-}
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
# a mutant's run (KC_FAIL_FAST=1, test/vm/guest/mutants.sh) ends at its
# first failure, with its summary
stop_early() {
	[ -n "${KC_FAIL_FAST:-}" ] && [ "$fail" -gt 0 ] || return 0
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
# the sections chosen (kc.sections, or KC_SECTIONS in a child): all when
# empty
if [ -n "$child" ]; then
	chosen=${KC_SECTIONS:-}
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
grep -q ' kc.debug=1' /proc/cmdline && debug=1 && . /debug.sh && debug_begin

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

if grep -q ' kc.mode=demo' /proc/cmdline; then
	load_intree
	. /demo.sh
	poweroff -f
fi
# the shorter suite of the Bochs stage (test/bochs/run)
if grep -q ' kc.mode=bochs' /proc/cmdline; then
	. /bochs.sh
	poweroff -f
fi
# the kernel's users of kchacha with Debian's tools (test/vm/consumers)
if grep -q ' kc.mode=consumers' /proc/cmdline; then
	. /consumers.sh
	poweroff -f
fi
# the documentation's examples (test/vm/docs)
if grep -q ' kc.mode=docs' /proc/cmdline; then
	. /docs.sh
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
	[ "${KC_SUITE:-}" != short ] || short=1
else
	grep -q ' kc.suite=short' /proc/cmdline && short=1
fi
# the differential tests' lengths: all of them, or fewer (kctest quick)
# in the short suite and on the debug kernel, where the MiB sizes add
# only time (KASAN checks the same paths on 4095..4097 and 65549 bytes)
difftest=diff
[ -n "$short$debug" ] && difftest=quick

# 0. autoload: kchacha sits in /lib/modules/$(uname -r)/updates, depmod'ed;
#    binding an AF_ALG socket to a driver or an algorithm name loads it
echo /bin/modprobe > /proc/sys/kernel/modprobe
if ! picked 0; then
	:
elif [ -n "$short" ]; then
	skip_section "0 autoload by AF_ALG bind: not in the short suite"
else
section 0 autoload by AF_ALG bind
if kctest hold chacha20-kchacha-$top 0 >/dev/null && lsmod | grep -q '^kchacha '; then
	ok "AF_ALG bind to chacha20-kchacha-$top loaded kchacha (no insmod)"
else
	no "AF_ALG bind to chacha20-kchacha-$top loads kchacha"
fi
rmmod kchacha 2>/dev/null
# the debug kernel's extra self-tests loaded the in-tree xchacha12 to
# compare with: unload it, so that the name has no driver left
for m in $(awk '/^name/ { n = $3 } /^module/ && n == "xchacha12" { print $3 }' /proc/crypto); do
	[ "$m" = kernel ] || rmmod "$m" 2>/dev/null
done
rmmod libchacha 2>/dev/null
builtin=$(awk '/^name/ { n = $3 } /^driver/ { d = $3 }
	/^module/ && n == "xchacha12" && $3 == "kernel" { print d }' /proc/crypto)
if [ -n "$builtin" ]; then
	# the name resolves without loading anything: binding it cannot load
	# kchacha, only work
	kctest hold xchacha12 0 >/dev/null &&
		ok "AF_ALG bind to xchacha12 works: $builtin is built in, no module to load" ||
		no "AF_ALG bind to xchacha12 (built-in $builtin)"
elif kctest hold xchacha12 0 >/dev/null && lsmod | grep -q '^kchacha '; then
	ok "AF_ALG bind to xchacha12 loaded kchacha (no insmod)"
else
	no "AF_ALG bind to xchacha12 loads kchacha"
fi
rmmod kchacha 2>/dev/null
fi

# the in-tree modules, and the in-tree drivers the differential tests
# compare with, whatever sections run
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



# 1. load, /proc/crypto, differential and bad-input tests of every driver
#    (kctest quick, fewer lengths, in the short suite and the debug one)
if picked 1; then
section 1 load, /proc/crypto, differential and bad-input tests
check insmod /kchacha.ko
run kctest proc "$kcspec"
# 32-bit ARM: the default chacha20 on this core, as /proc/crypto ranks it.
# On Cortex-A7 and A5 (CPU implementer 0x41, part 0xc07 or 0xc05) the
# kernel's scalar code (chacha20-arm; the scalar path of chacha20-lib on
# 7.x) is faster than any NEON code, and kchacha's NEON must rank below it;
# on the other cores with NEON, kchacha's NEON is the default.
if [ "$(uname -m)" = armv7l ] && echo "$impls" | grep -qx neon; then
	# the kernel's ARM ChaCha module where it has one (6.x; packed by
	# test/vm/run outside the module tree), for this check alone
	armmod=
	if [ -e /modules/extra/chacha-neon.ko ]; then
		insmod /modules/extra/chacha-neon.ko && armmod=chacha_neon ||
			no "insmod /modules/extra/chacha-neon.ko"
	fi
	armcpu="$(sed -n 's/^CPU implementer[[:space:]]*: //p' /proc/cpuinfo | head -n 1) $(
		sed -n 's/^CPU part[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
	kp=$(proc_of chacha20-kchacha-neon | cut -d' ' -f1)
	dflt=$(top_of chacha20)
	case $armcpu in
	"0x41 0xc07" | "0x41 0xc05")
		scalar=
		for d in chacha20-arm chacha20-lib; do
			[ -n "$(proc_of $d)" ] && scalar=$d && break
		done
		sp=$(proc_of "$scalar" | cut -d' ' -f1)
		[ -n "$scalar" ] && [ "${kp:-999}" -lt "${sp:-0}" ] &&
		[ "$dflt" = "$scalar" ] &&
			ok "CPU $armcpu (Cortex-A7/A5): chacha20-kchacha-neon ($kp) ranks below the kernel's scalar $scalar ($sp), the default chacha20" ||
			no "CPU $armcpu (Cortex-A7/A5): chacha20-kchacha-neon (${kp:-none}) ranks below the kernel's scalar driver (${scalar:-none} ${sp:-}), the default chacha20 (got $dflt)"
		;;
	*)
		[ "$dflt" = chacha20-kchacha-neon ] &&
			ok "CPU $armcpu: chacha20-kchacha-neon ($kp) is the default chacha20" ||
			no "CPU $armcpu: chacha20-kchacha-neon (${kp:-none}) is the default chacha20 (got $dflt)"
		;;
	esac
	[ -z "$armmod" ] || rmmod $armmod || no "rmmod $armmod"
fi
param_is max_isa "(null)"
param_is rng_prefer N
# x86 only: which AVX-512 drivers rank first (test/bochs/run tests it
# where AVX-512 runs).  It is resolved by the CPU model whether the CPU
# has AVX-512 or not: where the host knows the kernel's answer for the
# model (kc.ymm=, test/vm/run's YMM), it must be that.
if [ "$(uname -m)" = x86_64 ]; then
	f=/sys/module/kchacha/parameters/prefer_ymm
	ymm=$(sed -n 's/.* kc\.ymm=\([01]\).*/\1/p' /proc/cmdline)
	if [ -n "$ymm" ]; then
		param_is prefer_ymm "$ymm"
	else
		[ -r $f ] && ok "$f reads '$(cat $f)'" || no "$f readable"
	fi
fi
for p in selftest_fail fail_register; do
	f=/sys/module/kchacha/parameters/$p
	if [ "$hooks" = 1 ]; then
		[ $p = selftest_fail ] && param_is $p "(null)" || param_is $p 0
	elif [ "$hooks" = 0 ]; then
		[ -e $f ] && no "$f absent from a build without KCHACHA_TEST" ||
			ok "$f absent from a build without KCHACHA_TEST"
	else
		no "kc.hooks=0 or 1 on the kernel command line"
	fi
done
for impl in $impls; do
	for alg in chacha20 xchacha20 xchacha12; do
		eval "ref=\$ref_$alg"
		run kctest $difftest $alg-kchacha-$impl $ref
		run kctest bad $alg-kchacha-$impl $ref
	done
done
fi

# 1a. the SIMD drivers run SIMD: the function tracer counts the kernel's
#     SIMD entry (kernel_fpu_begin_mask() or kernel_neon_begin(), whichever
#     the kernel has) called from kchacha while kctest runs each driver
T=/sys/kernel/tracing
[ -e $T/available_tracers ] || mount -t tracefs tracefs $T 2>/dev/null
simd_entry=
for f in kernel_fpu_begin_mask kernel_neon_begin; do
	grep -q "^$f\$" $T/available_filter_functions 2>/dev/null && simd_entry=$f
done
if ! picked 1a; then
	:
elif [ "$top" = generic ]; then
	skip_section "1a SIMD sections counted: only the C core here"
elif [ -n "$simd_entry" ] && grep -qw function $T/available_tracers; then
	section 1a the SIMD drivers enter SIMD
	kc_needed 1a
	for impl in $impls; do
		[ "$impl" = generic ] && continue
		echo "$simd_entry" > $T/set_ftrace_filter
		echo function > $T/current_tracer
		echo > $T/trace
		echo 1 > $T/tracing_on
		kctest quick chacha20-kchacha-$impl "$(ref_driver chacha20)" >/dev/null 2>&1
		echo 0 > $T/tracing_on
		n=$(grep -c "kctest-.* $simd_entry <-kchacha_" $T/trace)
		echo nop > $T/current_tracer
		[ "$n" -gt 0 ] &&
			ok "chacha20-kchacha-$impl runs SIMD sections ($n ${simd_entry}() calls from kchacha)" ||
			no "chacha20-kchacha-$impl runs SIMD sections (no ${simd_entry}() call from kchacha)"
	done
	echo > $T/set_ftrace_filter
elif [ -n "$debug" ]; then
	skip_section "1a SIMD sections counted: no function tracer in this kernel"
else
	section 1a the SIMD drivers enter SIMD
	no "the function tracer and kernel_fpu_begin_mask or kernel_neon_begin, to count SIMD sections"
fi

# 1b. the rngs: one per implementation, tested, ranked 150 + level: below
#     the kernel's DRBG unless rng_prefer=1 puts them at 300 + level
if picked 1b; then
section 1b the rngs
kc_needed 1b
for impl in $impls; do
	d=chacha20rng-kchacha-$impl
	got=$(proc_of $d)
	[ "$got" = "$(rng_prio "$impl") passed" ] &&
		ok "/proc/crypto: $d priority $(rng_prio "$impl"), selftest passed" ||
		no "/proc/crypto: $d priority $(rng_prio "$impl"), selftest passed (got: $got)"
	run rngtest $d
	kcapi-rng -n $d -b 4096 > /tmp/r1 && kcapi-rng -n $d -b 4096 > /tmp/r2
	[ "$(wc -c < /tmp/r1)" = 4096 ] && ! cmp -s /tmp/r1 /tmp/r2 &&
		ok "kcapi-rng -n $d: 4096 bytes, a second call differs" ||
		no "kcapi-rng -n $d: 4096 bytes, a second call differs"
done
fi
# 1c. memory: 1,000 rng sockets, each read on one CPU, within the bound
#     (not on the debug kernel, whose KASAN redzones and lockdep maps
#     change every object's size)
if ! picked 1c; then
	:
elif [ -n "$debug" ]; then
	skip_section "1c rng memory: KASAN and lockdep change every object's size"
elif [ -n "$short" ]; then
	skip_section "1c rng memory: not in the short suite"
else
	section 1c rng memory
	kc_needed 1c
	run rngvm mem chacha20rng-kchacha-$top 1000 $ref_chacha20
fi
# 1d. the default stdrng, crypto_alloc_rng("stdrng"): the kernel's DRBG
#     where it has one (modules.order or modules.builtin list drbg.ko),
#     kchacha's best only with rng_prefer=1; where it has no DRBG, and no
#     other stdrng, kchacha's best with or without rng_prefer
if picked 1d; then
section 1d the default stdrng
kc_needed 1d
kdir=/lib/modules/$(uname -r)
others=$(other_stdrngs)
if grep -qs '/drbg\.ko$' $kdir/modules.order $kdir/modules.builtin; then
	case " $others " in
	*" drbg_"*) ok "the kernel's DRBG is registered (stdrng: $others)" ;;
	*) no "the kernel's DRBG is registered (stdrng: '$others')" ;;
	esac
else
	[ -z "$others" ] &&
		ok "no DRBG in this kernel, no stdrng but kchacha's" ||
		no "no DRBG in this kernel, no stdrng but kchacha's (got '$others')"
fi
want=${others%% *}
[ -n "$want" ] || want=chacha20rng-kchacha-$top
default=$(stdrng_got)
[ "$default" = "$want" ] && [ "$default" = "$(top_stdrng)" ] &&
	ok "crypto_alloc_rng(\"stdrng\") gives $default" ||
	no "crypto_alloc_rng(\"stdrng\") gives $want (got '$default', top priority $(top_stdrng))"
rmmod kchacha
# Loaded before any DRBG, kchacha (rng_prefer=0) loads the kernel's, so
# that a DRBG still answers crypto_alloc_rng("stdrng") (the crypto API
# loads stdrng providers only while it has none).  Every other check loads
# the DRBG first: here it is unloaded, where it is a module nobody holds.
if grep -qs '/drbg\.ko$' $kdir/modules.order && lsmod | grep -q '^drbg ' &&
   rmmod drbg 2>/dev/null; then
	if insmod /kchacha.ko; then
		default=$(stdrng_got)
		case $default in
		*-kchacha-* | "")
			no "rng_prefer=0, DRBG not loaded: loading kchacha loads it, crypto_alloc_rng(\"stdrng\") not kchacha's (got '$default'; drbg $(lsmod | grep -c '^drbg ') loaded)" ;;
		*)
			ok "rng_prefer=0, DRBG not loaded: loading kchacha loads it, crypto_alloc_rng(\"stdrng\") gives $default" ;;
		esac
		rmmod kchacha
	else
		no "insmod with the DRBG unloaded"
	fi
	lsmod | grep -q '^drbg ' || modprobe drbg || no "modprobe drbg again"
else
	skip "1d rng_prefer=0 loading the DRBG: no drbg module loaded that rmmod can unload"
fi
if insmod /kchacha.ko rng_prefer=1; then
	param_is rng_prefer Y
	default=$(stdrng_got)
	[ "$default" = chacha20rng-kchacha-$top ] &&
	[ "$(proc_of $default)" = "$(($(rng_prio "$top") + 150)) passed" ] &&
		ok "rng_prefer=1: crypto_alloc_rng(\"stdrng\") gives $default, priority $(($(rng_prio "$top") + 150))" ||
		no "rng_prefer=1: crypto_alloc_rng(\"stdrng\") gives chacha20rng-kchacha-$top (got '$default' $(proc_of "$default"))"
	rmmod kchacha
else
	no "insmod rng_prefer=1"
fi
kc_calibration "$kcspec"
check insmod /kchacha.ko
fi

# 1e. the caller's vector registers, filled with a pattern, unchanged
#     after every syscall of AF_ALG requests of 1-64 and 65-4096 bytes and
#     of rng reads, on every implementation (test/vm/guest/vregs.c)
if picked 1e; then
section 1e vector registers across requests
kc_needed 1e
for impl in $impls; do
	run vregs chacha20-kchacha-$impl xchacha20-kchacha-$impl \
		xchacha12-kchacha-$impl chacha20rng-kchacha-$impl
done
fi

# 2. kcapi-enc against `openssl enc -chacha20` computed on the host
if picked 2; then
section 2 kcapi-enc against openssl enc -chacha20
kc_needed 2
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
fi

# 2b. AF_ALG's restriction (7.3 on) and Adiantum for an unprivileged user
if picked 2b; then
	section 2b AF_ALG restriction, Adiantum for an unprivileged user
	kc_needed 2b
	. /afalg.sh
fi

if ! picked 3; then
	:
elif [ -n "$short" ]; then
	skip_section "3 tcrypt mode=214: not in the short suite"
else
section 3 tcrypt mode=214
kc_needed 3
# 3. tcrypt's chacha20 speed test picks the highest-priority driver:
#    kchacha's best, unless an in-tree one ranks above it (chacha20-lib,
#    300, above kchacha's generic 110 on 7.x)
klog_clear
want=chacha20-kchacha-$top
best=$(top_intree_of chacha20)
set -- $(proc_of $want) $(proc_of "$best")
[ "${3:-0}" -gt "$1" ] && want=$best
[ "$(top_of chacha20)" = "$want" ] ||
	no "/proc/crypto: the highest-priority chacha20 is $want (got $(top_of chacha20))"
insmod /modules/tcrypt.ko mode=214 2>/dev/null
if dmesg | grep -q "testing speed of .*chacha20 ($want) encryption" &&
   ! dmesg | grep -qi "fail"; then
	ok "tcrypt mode=214 ran on $want ($(dmesg | grep -c 'operation in') sizes)"
else
	dmesg | tail -n 20
	no "tcrypt mode=214 on $want"
fi
fi

# 4. rmmod refused while a socket is bound, allowed after it closes
if ! picked 4; then
	:
elif [ -n "$short" ]; then
	skip_section "4 rmmod refused while bound: not in the short suite"
else
section 4 rmmod refused while bound
kc_needed 4
for holder in "kctest hold chacha20-kchacha-$top" \
	      "rngtest hold chacha20rng-kchacha-$top"; do
	# a fresh file: the previous holder's "bound" line must not count
	rm -f /tmp/hold
	: > /tmp/hold
	$holder 120 > /tmp/hold 2>&1 &
	pid=$!
	# a loaded host can take many seconds to start the holder: wait for
	# its socket rather than try rmmod before it exists
	i=0
	while ! grep -q "bound\|holding" /tmp/hold 2>/dev/null &&
	      [ $i -lt 1000 ] && kill -0 $pid 2>/dev/null; do
		usleep 100000
		i=$((i + 1))
	done
	if ! grep -q "bound\|holding" /tmp/hold 2>/dev/null; then
		cat /tmp/hold
		no "rmmod refused while bound ($holder): the socket was never bound"
	elif rmmod kchacha 2>/dev/null; then
		no "rmmod refused while bound ($holder)"
		insmod /kchacha.ko
	else
		ok "rmmod refused while bound ($holder)"
	fi
	kill $pid
	wait $pid 2>/dev/null
done
fi
# the sections from here on load kchacha themselves: the whole suite has
# it loaded here, chosen sections may not
if [ -z "$chosen" ] || lsmod | grep -q '^kchacha '; then
	check rmmod kchacha
	if kc_loaded; then no "no kchacha driver left after rmmod"; else ok "no kchacha driver left after rmmod"; fi
fi

# 5. max_isa caps the set; an unknown value fails the load
if ! picked 5; then
	:
elif [ -n "$short" ]; then
	skip_section "5 max_isa: not in the short suite"
else
section 5 max_isa
set -- $(echo "$kcspec" | tr ',' ' ')
prefix=
for e in "$@"; do
	prefix=${prefix:+$prefix,}$e
	impl=${e%%:*}
	if insmod /kchacha.ko max_isa=$impl; then
		run kctest proc "$prefix"
		param_is max_isa $impl
		rmmod kchacha
	else
		no "insmod max_isa=$impl"
	fi
done
klog_clear
if insmod /kchacha.ko max_isa=bogus 2>/dev/null; then
	no "max_isa=bogus refused"
	rmmod kchacha
elif dmesg | grep -q "max_isa=bogus is not"; then
	ok "max_isa=bogus refused: $(dmesg | grep 'max_isa=bogus' | head -n 1)"
else
	no "max_isa=bogus refused with a message"
fi
kc_loaded && no "nothing registered after a refused load"
fi

# 6. a failing self-test: that implementation alone is missing; generic
#    failing fails the load (test builds only: KCHACHA_TEST).
#    selftest_fail runs the self-test on a copy of the implementation with
#    one keystream byte wrong: the line must be the self-test's own.
if ! picked 6; then
	:
elif [ -n "$short" ]; then
	skip_section "6 failing self-tests: not in the short suite"
elif [ "$hooks" != 1 ]; then
	skip_section "6 failing self-tests: the module users build has no selftest_fail"
else
	section 6 failing self-tests
	if [ "$top" = generic ]; then
		skip "6 a failing SIMD self-test: only the C core here"
	else
		klog_clear
		if insmod /kchacha.ko selftest_fail=$top; then
			below=$(echo "$kcspec" | tr ',' '\n' | grep -v "^$top:" | paste -sd, -)
			run kctest proc "$below"
			dmesg | grep -q "kchacha: $top: self-test failed: RFC 8439 2.4.2" &&
				ok "dmesg: the self-test of $top failed, naming the case: $(dmesg | grep "kchacha: $top: self-test failed")" ||
				no "dmesg: the self-test of $top failed, naming the case (RFC 8439 2.4.2)"
			rmmod kchacha
		else
			no "insmod selftest_fail=$top"
		fi
	fi
	klog_clear
	if insmod /kchacha.ko selftest_fail=generic 2>/dev/null; then
		no "generic self-test failure fails the load"
		rmmod kchacha
	elif kc_loaded; then
		no "nothing left after failed load"
	elif dmesg | grep -q "kchacha: generic: self-test failed: RFC 8439 2.4.2"; then
		ok "generic self-test failure fails the load, nothing left"
	else
		no "generic self-test failure fails the load with the self-test's own line"
	fi
fi

# 7. a failing registration: of a generic driver (the first four), the load
#    fails and nothing is left; of a SIMD driver, that implementation is
#    left out with one kernel-log line and the module loads with the rest
#    (drivers register four per implementation, in the order of kc.expect)
if ! picked 7; then
	:
elif [ -n "$short" ]; then
	skip_section "7 failing registrations: not in the short suite"
elif [ "$hooks" != 1 ]; then
	skip_section "7 failing registrations: the module users build has no fail_register"
else
section 7 failing registrations
ndrivers=$((4 * $(echo "$impls" | grep -c .)))
for i in $(seq 1 "$ndrivers"); do
	klog_clear
	if [ "$i" -le 4 ]; then
		if insmod /kchacha.ko fail_register=$i 2>/dev/null; then
			no "fail_register=$i fails the load"
			rmmod kchacha
		elif kc_loaded; then
			no "fail_register=$i: drivers left registered"
		else
			ok "fail_register=$i: load failed, nothing left registered"
		fi
		continue
	fi
	e=$(echo "$kcspec" | cut -d, -f$(( (i - 1) / 4 + 1 )))
	impl=${e%%:*}
	if insmod /kchacha.ko fail_register=$i; then
		run kctest proc "$(echo "$kcspec" | tr ',' '\n' | grep -v "^$impl:" | paste -sd, -)"
		[ "$(dmesg | grep -c "kchacha: $impl: registering .* failed (-12); this implementation is left out")" = 1 ] &&
			ok "fail_register=$i: $impl left out, the module loaded: $(dmesg | grep "kchacha: $impl: registering")" ||
			no "fail_register=$i: one kernel-log line naming $impl"
		rmmod kchacha
	else
		no "fail_register=$i (a $impl driver) leaves the module loaded"
	fi
done
fi

# 7b. a failing registration while a task binds that implementation's
#     driver (test/vm/guest/regrace.sh)
if ! picked 7b; then
	:
elif [ -n "$short" ]; then
	skip_section "7b a failing registration while its driver is bound: not in the short suite"
elif [ "$hooks" != 1 ]; then
	skip_section "7b a failing registration while its driver is bound: the module users build has no fail_register"
elif [ "$(echo "$impls" | wc -l)" -gt 1 ]; then
	section 7b a failing registration while its driver is bound
	. /regrace.sh
	regrace "$(echo "$impls" | sed -n 2p)" 8
else
	skip_section "7b a failing registration while its driver is bound: only the C core here"
fi

# 7c. the C core's registration fails while a task holds its driver past
#     the load: the load waits a bounded time, then succeeds with the held
#     drivers unreachable until rmmod; SIGKILL ends the wait at once
#     (test/vm/guest/regrace.sh: retire_held)
if ! picked 7c; then
	:
elif [ -n "$short" ]; then
	skip_section "7c a failing C core registration while its driver stays bound: not in the short suite"
elif [ "$hooks" != 1 ]; then
	skip_section "7c a failing C core registration while its driver stays bound: the module users build has no fail_register"
else
	section 7c a failing C core registration while its driver stays bound
	. /regrace.sh
	retire_held 4
	retire_held 4 kill
fi

# 8. load/unload cycles; on the debug kernel, debug.sh's (D5: as many,
#    after its own checks, without the extra self-tests that each load
#    would run here again)
if ! picked 8; then
	:
elif [ -n "$debug" ]; then
	section 8 load/unload cycles
	debug_end
else
	section 8 load/unload cycles
	cycles=0
	for i in $(seq 1 20); do
		insmod /kchacha.ko && rmmod kchacha && cycles=$((cycles + 1))
	done
	[ $cycles = 20 ] && ok "20 load/unload cycles" || no "20 load/unload cycles ($cycles)"
fi

# 8b. Adiantum dm-crypt on kchacha's XChaCha12, read back by the in-tree
# drivers (test/vm/guest/dmcrypt.c), where the host packed the modules
if ! picked 8b; then
	:
elif [ -z "$short" ] && [ -s /modules/dm ]; then
	section 8b dm-crypt
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
else
	skip_section "8b dm-crypt: $([ -n "$short" ] && echo "not in the short suite" ||
		echo "its modules are not packed (KC_DMCRYPT=1)")"
fi

# 9. a clean log
if picked 9; then
	section 9 a clean kernel log
	clean_log
fi

summary
finish
