# SPDX-License-Identifier: GPL-2.0-only
#
# section: 2b AF_ALG restriction, Adiantum for an unprivileged user
# kchacha: loaded
#
# AF_ALG's restriction (7.3 on) and Adiantum for an unprivileged user
# (test/vm/guest/afalg.sh).

. /afalg.sh
