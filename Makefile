# SPDX-License-Identifier: GPL-2.0
#
# stripe: one command each.
#   make          build the module, the tc and ip plugins and stripe-perf,
#                 for the running kernel (its headers and gcc are all it
#                 needs: scripts/deps build installs them)
#   make install  install them (DESTDIR, PREFIX; see Documentation/install.rst)
#   make dkms-install  the module under DKMS instead (rebuilt on kernel updates;
#                 it removes make install's copy, make install refuses over it)
#   make check    host unit tests (plugins, stripe-perf, resequencer,
#                 fuzzers), then the netns suite in a VM
#   make check-debug  the netns suite on a KASAN/lockdep kernel (built once)
#   make check-debug-smoke  its smoke tier (tests/debug-times), as CI runs it
#   FULL=1        check and check-debug run each test's long form
#   make demo     stripe vs teql and bonding where they fail, in a VM
#   make bench    the side-by-side benchmark (bench/run); make pktgen: pps
#   make W=1      build the module with extra warnings (kernel's W=1)
#
# check, demo, bench, pktgen, sparse and fuzz first install the test tooling
# (qemu, a distro kernel, linux-source, clang: scripts/deps) and build the
# module for the kernel the VM boots.  KDIR=... builds against another tree.

TEST_GOALS := check check-debug check-debug-smoke demo bench pktgen sparse fuzz
ifneq ($(filter $(TEST_GOALS),$(MAKECMDGOALS)),)
TESTING := 1
endif
# Recursive: evaluated when a recipe runs, after the deps are installed.
KDIR ?= $(shell scripts/kdir $(if $(TESTING),--vm))
# The release the module is built for, where make install puts it.
KVER ?= $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h 2>/dev/null)

VERSION := 0.1
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/stripe
MODDIR ?= /lib/modules/$(KVER)/updates
# Where the installed tc and ip load plugins from (scripts/iproute2-libdir).
TC_LIB_DIR ?= $(shell scripts/iproute2-libdir tc)
IP_LIB_DIR ?= $(shell scripts/iproute2-libdir ip)
# The unit follows PREFIX into a directory systemd reads: /lib/systemd/system
# for PREFIX=/usr (where Debian's packages put theirs), else
# PREFIX/lib/systemd/system (/usr/local/lib/systemd/system by default).
# systemd reads no other prefix's: set SYSTEMD_UNIT_DIR=/etc/systemd/system
# for PREFIX=/opt/... (make install says so when systemd would not see it).
SYSTEMD_UNIT_DIR ?= $(if $(filter /usr /usr/,$(PREFIX)),/lib/systemd/system,$(PREFIX)/lib/systemd/system)
IFUPDOWN_DIR ?= /etc/network
DKMS_SRC ?= /usr/src/stripe-$(VERSION)

DEPS := $(if $(TESTING),deps)

all: module plugins tools

module: | $(DEPS)
	@[ -n "$(KDIR)" ] || { echo "make: no kernel headers (see above)" >&2; exit 1; }
	$(MAKE) -C kernel KDIR="$(KDIR)" $(if $(W),W=$(W))

# q_stripe.so for tc, link_stripe.so and link_stripe_slave.so for ip;
# both build plugin-common/ (the options, readers and printers they share)
plugins: | $(DEPS)
	$(MAKE) -C tc-plugin
	$(MAKE) -C ip-plugin

tools: | $(DEPS)
	$(MAKE) -C tools

# the test tooling (scripts/deps build: only what make needs)
deps:
	@scripts/deps --check >/dev/null || scripts/deps

check: all
	scripts/run-tests

# TESTS="foundation datapath" limits it to those tests, as for check.
check-debug: all
	scripts/debug-kernel --check $(TESTS)

# the debug smoke tier CI runs: the tests marked smoke in tests/debug-times
check-debug-smoke: all
	scripts/debug-kernel --smoke

# in the VM; the table on the terminal, the chart in build/demo.png
demo: all
	scripts/demo

# QUICK=1: stripe vs teql only; FULL=1: more profiles (scripts/bench)
bench: all
	bench/run

# packets per second through stripe (reorder off, on) and teql (scripts/pktgen)
pktgen: all
	bench/pktgen

sparse: | deps
	$(MAKE) -C kernel KDIR="$(KDIR)" C=2 CF="-D__CHECK_ENDIAN__"

# --- install ---
# The module goes to /lib/modules/KVER/updates (found before the kernel's
# own modules); depmod runs unless DESTDIR is set (a package's postinst
# does it then).  Boot scripts, DKMS: Documentation/install.rst.
#
# One copy of the module per kernel: make install refuses while DKMS has
# stripe (make dkms-install updates that one; make dkms-uninstall first to
# go back to a plain install), and make dkms-install removes a plain copy
# from updates/ of every kernel (DKMS's goes to updates/dkms/).
install: all
	@[ -n "$(KVER)" ] || { echo "make install: no kernel release for KDIR '$(KDIR)'" >&2; exit 1; }
ifeq ($(DESTDIR),)
	@if command -v dkms >/dev/null && dkms status -m stripe 2>/dev/null | grep -q .; then \
		echo "make install: DKMS has stripe (dkms status -m stripe):" >&2; \
		dkms status -m stripe >&2; \
		echo "make install: a second copy would shadow it; make dkms-install updates it," \
		     "make dkms-uninstall removes it first" >&2; \
		exit 1; \
	fi
endif
	install -D -m 0644 kernel/sch_stripe.ko $(DESTDIR)$(MODDIR)/sch_stripe.ko
	$(if $(DESTDIR),,depmod -a $(KVER))
	$(MAKE) install-userspace

# everything but the module (make dkms-install installs it instead)
install-userspace:
	$(MAKE) -C tc-plugin install TC_LIB_DIR="$(TC_LIB_DIR)"
	$(MAKE) -C ip-plugin install IP_LIB_DIR="$(IP_LIB_DIR)"
	install -D -m 0755 tools/stripe-perf $(DESTDIR)$(BINDIR)/stripe-perf
	install -d $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man1
	install -m 0644 Documentation/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 0644 Documentation/*.1 $(DESTDIR)$(MANDIR)/man1/
	mkdir -p build/install
	sed 's|@SBINDIR@|$(SBINDIR)|g' packaging/ifupdown/stripe >build/install/stripe.hook
	sed 's|@SBINDIR@|$(SBINDIR)|g' packaging/systemd/stripe@.service >build/install/stripe@.service
	install -D -m 0755 packaging/stripe-bundle $(DESTDIR)$(SBINDIR)/stripe-bundle
	install -D -m 0755 build/install/stripe.hook $(DESTDIR)$(IFUPDOWN_DIR)/if-pre-up.d/stripe
	install -d $(DESTDIR)$(IFUPDOWN_DIR)/if-post-down.d
	ln -sf ../if-pre-up.d/stripe $(DESTDIR)$(IFUPDOWN_DIR)/if-post-down.d/stripe
	install -D -m 0644 build/install/stripe@.service $(DESTDIR)$(SYSTEMD_UNIT_DIR)/stripe@.service
	install -D -m 0644 packaging/stripe0.conf $(DESTDIR)$(DOCDIR)/examples/stripe0.conf
	install -D -m 0644 packaging/interfaces $(DESTDIR)$(DOCDIR)/examples/interfaces
ifeq ($(DESTDIR),)
	@if command -v systemd-analyze >/dev/null && \
	    ! systemd-analyze unit-paths 2>/dev/null | grep -qxF '$(SYSTEMD_UNIT_DIR)'; then \
		echo "make install: systemd does not read $(SYSTEMD_UNIT_DIR):" \
		     "stripe@.service will not be found (SYSTEMD_UNIT_DIR=/etc/systemd/system)" >&2; \
	fi
	$(SYSTEMCTL_RELOAD)
endif

# With systemd running, what a package's maintainer scripts do: daemon-reload
# after the unit changes; before it goes, every stripe@ instance is stopped
# (its bundle taken down, while stripe-bundle is still there to do it) and
# disabled (no dangling .wants links).  Not with DESTDIR.
SYSTEMD_RUNNING = [ -d /run/systemd/system ] && command -v systemctl >/dev/null
SYSTEMCTL_RELOAD = @if $(SYSTEMD_RUNNING); then systemctl daemon-reload; fi
define SYSTEMD_REMOVE_INSTANCES
	@if command -v systemctl >/dev/null; then \
		units=$$( { find /etc/systemd/system -name 'stripe@?*.service' \
				-printf '%f\n' 2>/dev/null; \
			if $(SYSTEMD_RUNNING); then \
				systemctl list-units --all --plain --no-legend \
					'stripe@*.service' | awk '{ print $$1 }'; \
			fi; } | sort -u); \
		if [ -n "$$units" ]; then \
			echo "make uninstall: stopping and disabling" $$units; \
			if $(SYSTEMD_RUNNING); then \
				systemctl stop $$units || echo "make uninstall: stopping failed" >&2; \
			fi; \
			systemctl disable $$units || echo "make uninstall: disabling failed" >&2; \
		fi; \
	fi
endef

uninstall: uninstall-userspace
	rm -f $(DESTDIR)$(MODDIR)/sch_stripe.ko
	$(if $(DESTDIR),,depmod -a $(KVER))

uninstall-userspace:
ifeq ($(DESTDIR),)
	$(SYSTEMD_REMOVE_INSTANCES)
endif
	$(MAKE) -C tc-plugin uninstall TC_LIB_DIR="$(TC_LIB_DIR)"
	$(MAKE) -C ip-plugin uninstall IP_LIB_DIR="$(IP_LIB_DIR)"
	rm -f $(DESTDIR)$(BINDIR)/stripe-perf $(DESTDIR)$(SBINDIR)/stripe-bundle
	cd Documentation && for f in *.8; do rm -f $(DESTDIR)$(MANDIR)/man8/$$f; done
	cd Documentation && for f in *.1; do rm -f $(DESTDIR)$(MANDIR)/man1/$$f; done
	rm -f $(DESTDIR)$(IFUPDOWN_DIR)/if-pre-up.d/stripe $(DESTDIR)$(IFUPDOWN_DIR)/if-post-down.d/stripe
	rm -f $(DESTDIR)$(SYSTEMD_UNIT_DIR)/stripe@.service
	rm -rf $(DESTDIR)$(DOCDIR)
ifeq ($(DESTDIR),)
	$(SYSTEMCTL_RELOAD)
endif

# --- DKMS: the module's source in /usr/src, built for every kernel ---
dkms-install: plugins tools
	rm -rf $(DESTDIR)$(DKMS_SRC)
	install -d $(DESTDIR)$(DKMS_SRC)/kernel $(DESTDIR)$(DKMS_SRC)/include/uapi/linux
	install -m 0644 kernel/Kbuild kernel/Makefile kernel/*.c kernel/*.h $(DESTDIR)$(DKMS_SRC)/kernel/
	rm -f $(DESTDIR)$(DKMS_SRC)/kernel/*.mod.c
	install -m 0644 include/uapi/linux/*.h $(DESTDIR)$(DKMS_SRC)/include/uapi/linux/
	sed 's|@VERSION@|$(VERSION)|' dkms.conf >$(DESTDIR)$(DKMS_SRC)/dkms.conf
ifeq ($(DESTDIR),)
	@for ko in /lib/modules/*/updates/sch_stripe.ko; do \
		[ -e "$$ko" ] || continue; \
		kver=$${ko#/lib/modules/}; kver=$${kver%%/*}; \
		echo "make dkms-install: removing $$ko (make install's copy; DKMS's replaces it)"; \
		rm -f "$$ko" && depmod -a "$$kver"; \
	done
endif
	$(if $(DESTDIR),,-dkms remove -m stripe -v $(VERSION) --all >/dev/null 2>&1)
	$(if $(DESTDIR),,dkms add -m stripe -v $(VERSION))
	$(if $(DESTDIR),,dkms install -m stripe -v $(VERSION) $(if $(KVER),-k $(KVER)))
	$(MAKE) install-userspace

dkms-uninstall: uninstall-userspace
	-dkms remove -m stripe -v $(VERSION) --all
	rm -rf $(DESTDIR)$(DKMS_SRC)

clean:
	-$(MAKE) -C kernel KDIR="$(KDIR)" clean
	$(MAKE) -C tc-plugin clean
	$(MAKE) -C ip-plugin clean
	$(MAKE) -C tools clean

.PHONY: all module plugins tools deps check check-debug demo bench pktgen \
	sparse install install-userspace uninstall uninstall-userspace \
	dkms-install dkms-uninstall clean

# make fuzz: libFuzzer (clang) on the host, FUZZ_SECONDS each: the tc
# plugin's option parser and printers, and the resequencer (kernel/reseq.c)
# on hostile frames.  See tests/fuzz/README.
FUZZ_SECONDS ?= 60

fuzz: | deps
	tests/fuzz/run $(FUZZ_SECONDS)

.PHONY: fuzz
