# SPDX-License-Identifier: GPL-2.0-only
#
# section: 9 a clean kernel log
# kchacha: any
#
# A clean kernel log: no warning, no error, nothing of kchacha's but what
# the sections expected (clean_log).

clean_log
