# SPDX-License-Identifier: GPL-2.0
#
# The flags both plugins build with, included by tc-plugin/Makefile and
# ip-plugin/Makefile before their rules: shared objects that tc or ip
# dlopens, exporting no more than their *_util.
CFLAGS ?= -O2
# The project's uapi header must win over any installed copy
override CFLAGS += -Wall -Wextra -Werror -fPIC -fvisibility=hidden \
		   -I../include/uapi
override LDFLAGS += -shared
