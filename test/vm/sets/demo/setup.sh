# SPDX-License-Identifier: GPL-2.0-only
#
# The set of `make demo` (test/vm/demo): the in-tree drivers, then one
# section that shows kchacha at work.  The host prints what lies between
# "KCDEMO BEGIN" and "KCDEMO END".

load_intree
