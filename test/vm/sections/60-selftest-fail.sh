# SPDX-License-Identifier: GPL-2.0-only
#
# section: 6 failing self-tests
# kchacha: unloaded
# skip: [ -n "$short" ] => not in the short suite
# skip: [ "$hooks" != 1 ] => the module users build has no selftest_fail
#
# A failing self-test: that implementation alone is missing; generic
# failing fails the load (test builds only: KCHACHA_TEST).  selftest_fail
# runs the self-test on a copy of the implementation with one keystream
# byte wrong: the line must be the self-test's own.

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
