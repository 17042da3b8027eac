# cuenv: GNU make, no autotools.
#
#   make                  build ./cuenv (and ./cuenv-net, ./cuenv-probe; the
#                         objects go to build/std/)
#   make demo             build, then show it working in a throw-away root
#   make test             unit tests, then end-to-end tests (with their
#                         hints run: make e2e-hints; plain make e2e under
#                         SANITIZE=1)
#   make test SANITIZE=1  the same under ASan + UBSan
#   make e2e-hints        the end-to-end tests, each command's printed hints
#                         and fix lines also run, in a copy of the state
#                         where they were printed (tests/e2e/lib.sh,
#                         hints-manual.txt)
#   make install PREFIX=/usr/local [DESTDIR=...]
#   make fuzz             libFuzzer on the parsers of what cuenv reads
#                         (.cuenv, archive entries, catalogue, ELF, ld.so
#                         cache, activation state, probe report, Python's
#                         answer, zip directory; clang)
#   make lint             clang-tidy (.clang-tidy) and cppcheck: fails on
#                         any finding
#   make analyze          gcc -fanalyzer over core/ and cmd/: fails on any
#                         finding
#   make format-check     clang-format (.clang-format): fails on any line
#                         it would change (make format changes them)
#   make layers           core/'s layers (tools/layer-check), NVIDIA's
#                         names only in core/nvidia (tools/nvidia-names-check)
#                         and files cuenv did not write opened only through
#                         core/plat/file.h (tools/outside-open-check)
#   make bench            the hook's cost per prompt, against direnv; then
#                         a cold install's time and memory, against a
#                         hand-written script and parallel xz -d; then
#                         modules, needs, explain and index pages
#   make mutate           planted bugs: each one-line change to core in
#                         tools/mutations.txt is built in a scratch copy
#                         and must be caught by the unit and e2e tests
#                         (tools/mutate.sh; 8-11 minutes on 2 cores,
#                         not part of `make test` or CI)
#   make windows-deps     cross-build libcurl (Schannel), libarchive, zlib
#                         and jansson for Windows from Debian's source
#                         packages, cached (tools/windows-deps.sh)
#   make test-windows-deps  those libraries linked statically into a test
#                         program run under wine64: HTTP fetch, zip, JSON,
#                         SHA-256 via BCrypt (tests/windows/deps-smoke.sh)
#   make windows-core     the portable core modules, cross-compiled into
#                         BUILDROOT/windows/core/libcuenv-core.a
#   make test-windows-core  their checks (tests/windows/test_core.c) under wine64

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR ?= $(PREFIX)/share
DESTDIR ?=
PKG_CONFIG ?= pkg-config
CC ?= cc
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
# Where objects go; parallel work trees can each use their own.
BUILDROOT ?= build
# Where the online tests keep their downloads, images and venvs between
# runs (CUENV_CI_CACHE), and the Windows libraries (CUENV_WIN_CACHE): in
# the tree's build folder unless given (CI gives folders outside the
# clone); nothing is written anywhere else. make ci-cache lists them
# against their budget, make ci-cache-prune trims them (tools/ci-cache.sh).
CUENV_CI_CACHE ?= $(abspath $(BUILDROOT))/cache
CUENV_WIN_CACHE ?= $(abspath $(BUILDROOT))/win-cache
export CUENV_CI_CACHE CUENV_WIN_CACHE

# ---- cross-building (issue 25: aarch64) ------------------------------------
# CROSS=aarch64 builds for 64-bit ARM with Debian's cross toolchain
# (crossbuild-essential-arm64) and the arm64 multiarch -dev packages
# (.ci/deps-aarch64), into BUILDROOT/aarch64/ (BUILDROOT/aarch64-san with
# SANITIZE): CC and PKG_CONFIG become the aarch64-linux-gnu- ones unless
# given. Programs the build runs itself (cli-gen, embed) are built with
# HOST_CC. make cross-aarch64 and make test-aarch64 are below.
HOST_CC ?= cc
ifneq ($(CROSS),)
CROSS_TRIPLE := $(CROSS)-linux-gnu
# Plain `make CROSS=aarch64` builds BUILD's binaries only: `all` would copy
# them over the native ./cuenv.
.DEFAULT_GOAL := cross-binaries
ifeq ($(origin CC),default)
CC := $(CROSS_TRIPLE)-gcc
endif
# pkg-config reading only the target's .pc files (Debian 12's pkgconf has
# no aarch64-linux-gnu-pkg-config unless pkgconf:arm64 is installed).
ifeq ($(origin PKG_CONFIG),file)
PKG_CONFIG := env PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLE)/pkgconfig:/usr/share/pkgconfig pkg-config
endif
endif

# The version's one place: the VERSION file (the Debian changelog's top
# entry must agree: debian/rules checks it).
VERSION := $(shell cat VERSION)
GIT_REV := $(shell git rev-parse --short HEAD 2>/dev/null)
VERSION_STRING := $(VERSION)$(if $(GIT_REV), ($(GIT_REV)))

# Every dependency is found with pkg-config. The cuenv binary links only
# what it uses (--as-needed): the prompt hook runs it, and each library
# loaded costs start-up time there.
PKGS := jansson
PKGS_ALL := jansson libcurl openssl libarchive
PKG_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(PKGS_ALL))
PKG_LIBS := $(shell $(PKG_CONFIG) --libs $(PKGS))
# cuenv-net (install, list-remote, update, gc) and the tests link them all.
PKG_LIBS_ALL := $(shell $(PKG_CONFIG) --libs $(PKGS_ALL))
# The prompt hook runs this binary at every change of directory, and the
# dynamic loader was most of its cost: it is linked as a static PIE (ASLR
# kept) where libc.a and libjansson.a exist, which Debian's -dev packages
# ship. STATIC=0 links it dynamically; sanitizer builds always do.
STATIC ?= 1
JANSSON_A := $(wildcard $(shell $(PKG_CONFIG) --variable=libdir jansson)/libjansson.a)
ifeq ($(STATIC)$(SANITIZE),1)
ifneq ($(JANSSON_A),)
CUENV_LIBS := -static-pie $(JANSSON_A)
endif
endif
CUENV_LIBS ?= $(PKG_LIBS)
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka)

# Warnings are errors for the tree's developers and CI (DEVELOPER=1,
# as git does); a packager's newer compiler only warns.
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wvla -Wformat=2 -Wno-format-nonliteral
ifeq ($(DEVELOPER),1)
WARN += -Werror
endif
CFLAGS ?= -O2 -g
# Quoted includes name their folder below core/ ("base/buf.h", as curl's
# "vtls/vtls.h"); -iquote leaves <elf.h> and <net/if.h> the system's.
INCLUDES := -iquote core
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(INCLUDES) \
	$(PKG_CFLAGS) -MMD -MP
ALL_LDFLAGS := -Wl,--as-needed $(LDFLAGS)

ifneq ($(SANITIZE),)
ifeq ($(SANITIZE),1)
override SANITIZE := address,undefined
endif
ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -g -O1
ALL_LDFLAGS += -fsanitize=$(SANITIZE)
BUILD := $(BUILDROOT)/$(or $(CROSS),san)$(if $(CROSS),-san)
else
BUILD := $(BUILDROOT)/$(or $(CROSS),std)
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# core/ in folders by layer (docs/DESIGN.md; tools/layer-check keeps the
# order): every .c below it is a module of libcuenv.a, found here, so a
# new file in a folder is built without editing this list. The platform
# layer's *_posix.c and *_win.c, and the hash library's two sides, pick
# the system; everything else is built for both.
CORE_SRC := $(sort $(wildcard core/*.c core/*/*.c core/*/*/*.c))
CORE_H := $(sort $(wildcard core/*.h core/*/*.h core/*/*/*.h))
WIN_ONLY := $(filter %_win.c %/digest_bcrypt.c,$(CORE_SRC))
POSIX_ONLY := $(filter %_posix.c %/digest_openssl.c,$(CORE_SRC))
LINUX_SRC := $(filter-out $(WIN_ONLY),$(CORE_SRC))
WIN_SRC := $(filter-out $(POSIX_ONLY),$(CORE_SRC))
# One library, libcuenv.a: each binary takes from it what it calls, so
# only cuenv-net (and the tests) pull in core/net's libcurl, OpenSSL and
# libarchive.
CMDS := main table common add doctor env exec export global help init \
	list_remote local lock needs remove uninstall use version versions which \
	install gc mirror update latest prefix root explain
CMDS += check
CMDS += completion
CMDS += modules
# cuenv-net: the commands that download and unpack (CMD_EXTERNAL in cuenv)
# (their tables, usage and options are in cuenv too, for help and completion)
NET_CMDS := main_net table_net common list_remote install_net gc_net \
	mirror_net update_net needs_net
SHELLS := shells/cuenv.sh shells/cuenv.bash shells/cuenv.zsh shells/cuenv.fish
SHELLS += shells/completion.bash shells/completion.zsh shells/completion.fish
SHELLS += shells/cuenv.direnv shells/cuenv.ps1 shells/cuenv.doskey

# No install or source path is compiled in: each binary finds the
# catalogue, cuenv-net and cuenv-probe relative to itself (manifests_data_dir),
# so an installed tree can be moved. A build folder holds a relative link
# to the source tree's manifests for the binaries run from there.
CMD_DEFS := -DCUENV_VERSION_STRING='"$(VERSION_STRING)"'

CORE_OBJ := $(LINUX_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ := $(CMDS:%=$(BUILD)/cmd/%.o) $(BUILD)/shells.o $(BUILD)/cli.o
NET_OBJ := $(NET_CMDS:%=$(BUILD)/cmd/%.o) $(BUILD)/cli.o
LIB := $(BUILD)/libcuenv.a

# One test binary per tests/unit/**/test_*.c (the folders mirror core's),
# each at BUILD/tests/test_<name>.
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c tests/unit/*/test_*.c))
UNIT := $(notdir $(UNIT_SRC:.c=))
UNIT_BIN := $(UNIT:%=$(BUILD)/tests/%)
vpath test_%.c $(sort $(dir $(UNIT_SRC)))

.PHONY: all test unit e2e e2e-hints install uninstall clean format format-check \
	lint analyze compdb fuzz bench demo gpu-evidence
.DELETE_ON_ERROR:

all: cuenv cuenv-net $(BUILD)/cuenv.1

# The binaries the user runs; `make SANITIZE=1` builds its own copies.
cuenv: $(BUILD)/cuenv
	$(Q)cp $< $@

cuenv-net: $(BUILD)/cuenv-net
	$(Q)cp $< $@

$(BUILD)/manifests:
	@mkdir -p $(@D)
	$(Q)ln -sfn "$$(realpath -m --relative-to=$(@D) manifests)" $@

$(BUILD)/cuenv $(BUILD)/cuenv-net $(BUILD)/cuenv-probe: | $(BUILD)/manifests

$(BUILD)/cuenv-net: $(NET_OBJ) $(LIB) $(BUILD)/flags
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(NET_OBJ) $(LIB) $(ALL_LDFLAGS) \
		$(PKG_LIBS_ALL) -lpthread

# cuenv-probe: what cuenv check runs in the activated environment. It
# dlopens CUDA as an application would, so it links libc and libdl only.
all: cuenv-probe

cuenv-probe: $(BUILD)/cuenv-probe
	$(Q)cp $< $@

$(BUILD)/cuenv-probe: $(BUILD)/cmd/probe_main.o $(LIB) $(BUILD)/flags
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(BUILD)/cmd/probe_main.o $(LIB) \
		$(ALL_LDFLAGS) -ldl -lpthread

$(BUILD)/cuenv: $(CMD_OBJ) $(LIB) $(BUILD)/flags
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJ) $(LIB) $(ALL_LDFLAGS) $(CUENV_LIBS)

$(LIB): $(CORE_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

# Changed options force a rebuild.
$(BUILD)/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(CUENV_LIBS) $(VERSION_STRING)' | \
		cmp -s - $@ || echo '$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) $(CUENV_LIBS) $(VERSION_STRING)' > $@
FORCE:

$(BUILD)/core/%.o: core/%.c $(BUILD)/flags
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# A command includes its "cli/<name>.h", generated from docs/cli.txt.
$(BUILD)/cmd/%.o: cmd/%.c $(BUILD)/flags | $(BUILD)/cli.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(CMD_DEFS) -I$(BUILD) -c -o $@ $<

$(BUILD)/cmd/%_net.o: cmd/%.c $(BUILD)/flags | $(BUILD)/cli.c
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -DCUENV_NET $(CMD_DEFS) -I$(BUILD) -c -o $@ $<

# The command line's one description (docs/cli.txt) as C: the option
# tables, usage and notes in cli.c, each command's enum and table fields
# in cli/<name>.h (rewritten only when they change).
$(BUILD)/cli-gen: tools/cli.c
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) -O1 -o $@ $<

$(BUILD)/cli.c: $(BUILD)/cli-gen docs/cli.txt docs/cuenv.1.in VERSION
	@mkdir -p $(BUILD)/cli
	@echo "  GEN     $@"
	$(Q)$(BUILD)/cli-gen docs/cli.txt $@ $(BUILD)/cli docs/cuenv.1.in \
		$(BUILD)/cuenv.1
	$(Q)sed -i 's/@VERSION@/$(VERSION)/' $(BUILD)/cuenv.1

# The manual page: docs/cuenv.1.in with each command's options from
# docs/cli.txt, made with cli.c.
$(BUILD)/cuenv.1: $(BUILD)/cli.c

$(BUILD)/cli.o: $(BUILD)/cli.c $(BUILD)/flags
	$(Q)$(CC) $(ALL_CFLAGS) -I. -c -o $@ $<

$(BUILD)/embed: tools/embed.c
	@mkdir -p $(@D)
	$(Q)$(HOST_CC) -O1 -o $@ $<

$(BUILD)/shells.c: $(BUILD)/embed $(SHELLS)
	$(Q)$(BUILD)/embed $@ embedded_cuenv_sh=shells/cuenv.sh \
		embedded_cuenv_bash=shells/cuenv.bash \
		embedded_cuenv_zsh=shells/cuenv.zsh \
		embedded_cuenv_fish=shells/cuenv.fish \
		embedded_cuenv_direnv=shells/cuenv.direnv \
		embedded_cuenv_pwsh=shells/cuenv.ps1 \
		embedded_cuenv_doskey=shells/cuenv.doskey \
		embedded_completion_bash=shells/completion.bash \
		embedded_completion_zsh=shells/completion.zsh \
		embedded_completion_fish=shells/completion.fish

$(BUILD)/shells.o: $(BUILD)/shells.c
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# ---- tests -----------------------------------------------------------------

# The e2e tests run with their hints (e2e-hints: 165-180 s on 2 cores,
# plain e2e 156 s: 5-15% more); under ASan, plain e2e.
test: unit $(if $(SANITIZE),e2e,e2e-hints)

# Every test binary links the shared helpers in tests/unit/fakes/.
FAKES := fixture
FAKE_OBJ := $(FAKES:%=$(BUILD)/tests/fakes/%.o)
TABLE_OBJ := $(filter-out $(BUILD)/cmd/main.o,$(CMD_OBJ))
TEST_CFLAGS := $(ALL_CFLAGS) -iquote tests/unit -DCUENV_TESTING \
	-DCUENV_SRCDIR='"$(CURDIR)"' $(CMOCKA_CFLAGS)
TEST_LIBS := $(FAKE_OBJ) $(LIB) $(ALL_LDFLAGS) $(PKG_LIBS_ALL) $(CMOCKA_LIBS)

$(BUILD)/tests/fakes/%.o: tests/unit/fakes/%.c $(BUILD)/flags
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(TEST_CFLAGS) -c -o $@ $<

$(BUILD)/tests/test_%: test_%.c $(FAKE_OBJ) $(LIB) $(BUILD)/flags
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(TEST_CFLAGS) -o $@ $< $(TEST_LIBS)

# test_table also reads cmd/ to check that every command is listed.
$(BUILD)/tests/test_table: tests/unit/cmd/test_table.c $(TABLE_OBJ) $(FAKE_OBJ) \
		$(LIB) $(BUILD)/flags
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(TEST_CFLAGS) -o $@ $< \
		$(TABLE_OBJ) $(TEST_LIBS)

# The fake CUDA libraries (tests/unit/fakes/cuda/fake.h): test_check_cuda
# loads these by path; the e2e tests build their own with the sonames
# they need. With a toolkit installed (CUDA_INCLUDE=DIR/include), the
# test also checks core/nvidia/cuda_abi.h against NVIDIA's headers.
FAKE_CUDA_DIR := $(BUILD)/tests/fakes/cuda
FAKE_CUDA_SO := $(FAKE_CUDA_DIR)/libcuda.so $(FAKE_CUDA_DIR)/libcudart.so \
	$(FAKE_CUDA_DIR)/libcudnn.so $(FAKE_CUDA_DIR)/libcupti.so \
	$(FAKE_CUDA_DIR)/libcudart11.so
# They define NVIDIA's functions, whose prototypes are NVIDIA's headers'.
FAKE_CUDA_WARN := -Wno-missing-prototypes
SONAME_libcuda := libcuda.so.1
SONAME_libcudart := libcudart.so.12
SONAME_libcudnn := libcudnn.so.9
SONAME_libcupti := libcupti.so.12
CUDA_INCLUDE ?= $(patsubst %/cupti_activity.h,%,$(firstword \
	$(wildcard /usr/local/cuda/include/cupti_activity.h)))

$(FAKE_CUDA_DIR)/%.so: tests/unit/fakes/cuda/%.c \
		tests/unit/fakes/cuda/fake.h core/nvidia/cuda_abi.h $(BUILD)/flags
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(FAKE_CUDA_WARN) -O1 -g -fPIC -shared \
		-Wl,-soname,$(SONAME_$*) -o $@ $< -ldl

# CUDA 11.8's runtime: soname libcudart.so.11.0, and no version without
# a driver, as NVIDIA's is.
$(FAKE_CUDA_DIR)/libcudart11.so: tests/unit/fakes/cuda/libcudart.c \
		tests/unit/fakes/cuda/fake.h core/nvidia/cuda_abi.h $(BUILD)/flags
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) -std=c11 -D_GNU_SOURCE $(WARN) $(FAKE_CUDA_WARN) -O1 -g -fPIC -shared \
		-DFAKE_DEFAULT_VERSION=11080 -Wl,-soname,libcudart.so.11.0 \
		-o $@ $< -ldl

$(BUILD)/tests/test_check_cuda: $(FAKE_CUDA_SO)
$(BUILD)/tests/test_check_cuda: TEST_CFLAGS += \
	-DCUENV_FAKE_CUDA_DIR='"$(CURDIR)/$(FAKE_CUDA_DIR)"' \
	$(if $(CUDA_INCLUDE),-DCUENV_CUDA_INCLUDE='"$(CUDA_INCLUDE)"' \
		-isystem $(CUDA_INCLUDE))
e2e: $(BUILD)/cuenv-probe $(BUILD)/cuenv.1
install: $(BUILD)/cuenv-probe

unit: $(UNIT_BIN)
	$(Q)$(UNIT_ENV) sh tests/unit/run.sh $(UNIT_BIN)

e2e: $(BUILD)/cuenv $(BUILD)/cuenv-net
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv sh tests/e2e/run.sh

# Every hint and fix line the e2e tests' commands print, run in the state
# where it was printed: it must work, or be a manual action of
# tests/e2e/hints-manual.txt. make test runs this instead of plain e2e.
e2e-hints: $(BUILD)/cuenv $(BUILD)/cuenv-net $(BUILD)/cuenv-probe \
		$(BUILD)/cuenv.1
	$(Q)CUENV_E2E_HINTS=1 CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv sh tests/e2e/run.sh

# ---- aarch64 under emulation (issue 25) ------------------------------------

# make cross-aarch64: cuenv, cuenv-net, cuenv-probe and the manual page for
# aarch64 in BUILDROOT/aarch64/ (the native ./cuenv is left alone); make
# install CROSS=aarch64 installs them. make test-aarch64: their unit tests
# and the end-to-end subset of tests/aarch64/run.sh, each aarch64 program
# run by qemu's user-mode emulator (QEMU, no binfmt registration); the
# aarch64 libraries are the arm64 multiarch packages' (/lib/ld-linux-
# aarch64.so.1, /usr/lib/aarch64-linux-gnu).
ifneq ($(CROSS),)
QEMU ?= qemu-$(CROSS)-static
UNIT_ENV := CUENV_UNIT_RUNNER='$(QEMU)' \
	CUENV_UNIT_KNOWN=tests/$(CROSS)/unit-known.txt
endif
.PHONY: cross-aarch64 test-aarch64 cross-binaries e2e-cross unit-binaries
cross-binaries: $(BUILD)/cuenv $(BUILD)/cuenv-net $(BUILD)/cuenv-probe \
		$(BUILD)/cuenv.1
cross-aarch64:
	$(Q)$(MAKE) --no-print-directory CROSS=aarch64 cross-binaries
# Built in parallel, then run one after the other.
test-aarch64:
	$(Q)$(MAKE) --no-print-directory CROSS=aarch64 cross-binaries \
		unit-binaries
	$(Q)$(MAKE) --no-print-directory -j1 CROSS=aarch64 unit e2e-cross
unit-binaries: $(UNIT_BIN)
e2e-cross: $(BUILD)/cuenv $(BUILD)/cuenv-net $(BUILD)/cuenv-probe
	$(Q)QEMU='$(QEMU)' CROSS_BUILD=$(CURDIR)/$(BUILD) sh tests/aarch64/run.sh

# ---- fuzzing and benchmarks -----------------------------------------------

# libFuzzer needs clang and its runtime (Debian: clang, libclang-rt-14-dev).
# The targets link core built with the fuzzer's coverage instrumentation
# (FUZZ/libcore.a), not libcuenv.a. Crashes land in
# $(FUZZ)/artifacts; replay one with `$(FUZZ)/fuzz_<name> FILE`.
FUZZ := $(BUILDROOT)/fuzz
FUZZ_SRC := $(LINUX_SRC)
# LLVMFuzzerTestOneInput is libFuzzer's entry point, declared in no header.
FUZZ_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Wno-missing-prototypes \
	$(INCLUDES) -g -O1 -fno-omit-frame-pointer \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

$(FUZZ)/flags: FORCE
	@mkdir -p $(@D)
	@echo '$(FUZZ_CC) $(FUZZ_CFLAGS)' | \
		cmp -s - $@ || echo '$(FUZZ_CC) $(FUZZ_CFLAGS)' > $@

# core is compiled once, instrumented, into an archive the 13 targets link
# (each compiled all of core itself: 6 of CI's 12 fuzz minutes).
FUZZ_OBJ := $(FUZZ_SRC:%.c=$(FUZZ)/%.o)

$(FUZZ)/core/%.o: core/%.c $(FUZZ)/flags
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ)/libcore.a: $(FUZZ_OBJ)
	@echo "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ)/libcore.a $(FUZZ)/flags
	@mkdir -p $(@D)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PKG_CFLAGS) -MMD -MP -o $@ $< \
		$(FUZZ)/libcore.a $(PKG_LIBS_ALL)

# Each target runs FUZZ_SECONDS from its seeds in tests/fuzz/corpus/<name>/,
# with tests/fuzz/<name>.dict when there is one; the first crash stops.
FUZZ_TARGETS := dotfile entry catalog elf pe assemble ldcache env check_json \
	needs_python wheel frameworks mirror_plan

fuzz: $(FUZZ_TARGETS:%=$(FUZZ)/fuzz_%)
	$(Q)for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ)/corpus-$$t $(FUZZ)/artifacts && \
		cp tests/fuzz/corpus/$$t/* $(FUZZ)/corpus-$$t/ && \
		dict= && \
		if [ -f tests/fuzz/$$t.dict ]; then \
			dict=-dict=tests/fuzz/$$t.dict; \
		fi && \
		echo "  FUZZ    $$t ($(FUZZ_SECONDS) s)" && \
		$(FUZZ)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-max_len=4096 $$dict -print_final_stats=1 \
			-artifact_prefix=$(FUZZ)/artifacts/ \
			$(FUZZ)/corpus-$$t || exit 1; \
	done

# One after the other, never in parallel: each measures the machine. The
# install benchmark's fixtures (~320 MiB, built once) stay in BUILDROOT.
bench: $(BUILD)/cuenv $(BUILD)/cuenv-net
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv bash tests/bench/hook.sh
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv \
		BENCH_FIXTURES=$(CURDIR)/$(BUILDROOT)/bench-fixtures \
		bash tests/bench/install.sh
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv bash tests/bench/modules.sh
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv bash tests/bench/needs.sh
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv bash tests/bench/explain.sh
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv bash tests/bench/pages.sh
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv bash tests/bench/doctor.sh

# ---- real artifacts ---------------------------------------------------------

# The corpus of real wheels' members (tests/realworld/corpus.py: range
# requests into the index's wheels, pinned by sha256, cached in
# CUENV_CORPUS; with the jax venv's wheels ~192 MB the first time),
# judged against expected.tsv and expected-layouts.tsv.
# Online; skips cleanly when the index cannot be reached.
.PHONY: realworld
realworld: $(BUILD)/cuenv $(BUILD)/cuenv-net
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv sh tests/realworld/run.sh

# The build sweep (tests/sweep/builds.py, README there): `cuenv needs` on
# the recent releases of every project of tests/sweep/packages.txt on the
# real index, NAME==VERSION and the wheel in place, against an oracle
# (tests/sweep/oracle.py: readelf and the wheel's own bytes). Online,
# long (about an hour), not part of `make test`; cached in
# CUENV_SWEEP_CACHE (default /var/cache/cuenv-ci/sweep). SWEEP_ARGS
# passes --limit N, --max-wheel-mb M, --minutes T, --jobs J, --only RE,
# --out FILE. Skips when the index cannot be reached.
SWEEP_ARGS ?= --max-wheel-mb 1500 --out $(BUILDROOT)/sweep.tsv
.PHONY: sweep
sweep: $(BUILD)/cuenv $(BUILD)/cuenv-net
	$(Q)python3 tests/sweep/builds.py $(CURDIR)/$(BUILD)/cuenv $(SWEEP_ARGS); rc=$$?; \
	if [ $$rc -eq 77 ]; then echo "sweep: skipped: the package index cannot be reached"; \
	[ "$${CUENV_REALWORLD_REQUIRED:-0}" = 1 ] && exit 1; exit 0; fi; exit $$rc

# The loader model against the real loader: torch 2.4.1 from the package
# index in a venv, LD_LIBRARY_PATH cases, doctor's verdicts and fixes
# (issue 21; online, cached, skips when the index is unreachable).
.PHONY: loader-matrix
loader-matrix: $(BUILD)/cuenv
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv sh tests/loader-matrix/run.sh

# ---- planted bugs ----------------------------------------------------------

# Each entry of tools/mutations.txt is applied alone to a scratch copy of
# the working tree (this tree is never changed), built there, and run
# against the unit tests and the entry's e2e tests; every one must be
# KILLED. MUTATE_ONLY="ID ..." picks entries, MUTATE_FULL=1 runs every e2e
# test for each (see tools/mutate.sh for the rest).
.PHONY: mutate
mutate:
	$(Q)sh tools/mutate.sh

# ---- install ---------------------------------------------------------------

# Everything lands under PREFIX (or the *DIR variables) and nothing
# elsewhere: tools/install.sh records each file put and each folder made
# in INSTALL_RECORD, and make uninstall removes exactly those (a file of
# another install, or a folder that was there before, stays).
INSTALL_RECORD ?= $(DATADIR)/cuenv/installed
INSTALL_SH = DESTDIR='$(DESTDIR)' RECORD='$(INSTALL_RECORD)' sh tools/install.sh

install: $(BUILD)/cuenv $(BUILD)/cuenv-net
	$(INSTALL_SH) dirs $(BINDIR) $(LIBEXECDIR)/cuenv $(DATADIR)/cuenv
	$(INSTALL_SH) file 0755 $(BUILD)/cuenv $(BINDIR)/cuenv
	$(INSTALL_SH) file 0755 $(BUILD)/cuenv-net $(LIBEXECDIR)/cuenv/cuenv-net
	$(INSTALL_SH) file 0755 $(BUILD)/cuenv-probe \
		$(LIBEXECDIR)/cuenv/cuenv-probe
	$(INSTALL_SH) tree manifests $(DATADIR)/cuenv/manifests

# Completion scripts and the man page, where Debian's shells and man look.
# bash-completion also searches share/bash-completion/completions beside
# the bin/ that holds the command, so one place serves every PREFIX. zsh
# searches /usr/local/share/zsh/site-functions, and the distribution's own
# vendor-completions under /usr. fish searches share/fish/
# vendor_completions.d under /usr, ~/.local and each XDG_DATA_DIRS entry;
# for another PREFIX, XDG_DATA_DIRS must name PREFIX/share (or give
# FISH_COMPLETIONSDIR=/etc/fish/completions, outside the prefix, as
# root). Override with BASH_COMPLETIONSDIR, ZSH_COMPLETIONSDIR or
# FISH_COMPLETIONSDIR.
BASH_COMPLETIONSDIR ?= $(DATADIR)/bash-completion/completions
ifeq ($(PREFIX),/usr)
ZSH_COMPLETIONSDIR ?= $(DATADIR)/zsh/vendor-completions
else
ZSH_COMPLETIONSDIR ?= $(DATADIR)/zsh/site-functions
endif
FISH_COMPLETIONSDIR ?= $(DATADIR)/fish/vendor_completions.d
MAN1DIR ?= $(DATADIR)/man/man1
# What an install made before it kept a record (make uninstall's guess
# when there is none).
UNRECORDED_FILES := $(BINDIR)/cuenv $(LIBEXECDIR)/cuenv/cuenv-net \
	$(LIBEXECDIR)/cuenv/cuenv-probe $(BASH_COMPLETIONSDIR)/cuenv \
	$(ZSH_COMPLETIONSDIR)/_cuenv $(FISH_COMPLETIONSDIR)/cuenv.fish \
	$(MAN1DIR)/cuenv.1
.PHONY: install-extras
install: install-extras
install-extras: $(BUILD)/cuenv.1
	$(INSTALL_SH) dirs $(BASH_COMPLETIONSDIR) $(ZSH_COMPLETIONSDIR) \
		$(FISH_COMPLETIONSDIR) $(MAN1DIR)
	$(INSTALL_SH) file 0644 shells/completion.bash \
		$(BASH_COMPLETIONSDIR)/cuenv
	$(INSTALL_SH) file 0644 shells/completion.zsh $(ZSH_COMPLETIONSDIR)/_cuenv
	$(INSTALL_SH) file 0644 shells/completion.fish \
		$(FISH_COMPLETIONSDIR)/cuenv.fish
	$(INSTALL_SH) file 0644 $(BUILD)/cuenv.1 $(MAN1DIR)/cuenv.1

uninstall:
	@if [ -f '$(DESTDIR)$(INSTALL_RECORD)' ]; then \
		echo "$(INSTALL_SH) uninstall"; $(INSTALL_SH) uninstall; \
	else \
		echo "rm -f $(UNRECORDED_FILES:%=$(DESTDIR)%)"; \
		rm -f $(UNRECORDED_FILES:%=$(DESTDIR)%); \
		rm -rf '$(DESTDIR)$(DATADIR)/cuenv'; \
		rmdir '$(DESTDIR)$(LIBEXECDIR)/cuenv' 2>/dev/null || :; \
	fi

# ---- release archives ------------------------------------------------------

# make dist: DISTDIR/cuenv-VERSION-linux-ARCH.tar.gz and its .sha256, the
# make install tree (bin/, libexec/cuenv/, share/) under one top folder,
# and DISTDIR/LATEST (the version, for install.sh). ARCH is the compiler's
# target: CC=aarch64-linux-gnu-gcc PKG_CONFIG=aarch64-linux-gnu-pkg-config
# (with a BUILDROOT of its own) gives the aarch64 archive. cuenv is a
# static PIE; cuenv-probe needs glibc only; cuenv-net links libcurl,
# OpenSSL, libarchive and jansson as shared libraries, since Debian ships
# no static libnghttp2, libpsl, libssh2, librtmp, libgssapi_krb5 or
# libldap for libcurl.a's own needs. tools/dist.sh prints what each
# binary needs (readelf -d) and the newest glibc it asks for.
DISTDIR ?= dist
DIST_ARCH ?= $(firstword $(subst -, ,$(shell $(CC) -dumpmachine)))
DIST_NAME = cuenv-$(VERSION)-linux-$(DIST_ARCH)
# The tree is staged by make install itself (its variables set for dist and
# what dist makes), the install record left out.
.PHONY: dist
dist: override PREFIX =
dist: override DESTDIR = $(abspath $(DISTDIR))/$(DIST_NAME)
dist: override INSTALL_RECORD = /.dist-record
dist: install
	$(Q)rm -f '$(DESTDIR)$(INSTALL_RECORD)'
	$(Q)sh tools/dist.sh '$(DISTDIR)' '$(DIST_NAME)' '$(VERSION)'

clean:
	rm -rf build cuenv cuenv-net cuenv-probe dist

# The tree's own style (.clang-format, clang-format 14). format rewrites
# the files; format-check only says which lines differ, and fails then.
FORMAT_FILES = $(CORE_SRC) $(CORE_H) $(wildcard cmd/*.c cmd/*.h \
	$(UNIT_SRC) tests/unit/fakes/*.c tests/unit/fakes/*.h \
	tests/unit/fakes/cuda/*.c tests/unit/fakes/cuda/*.h tests/fuzz/*.c \
	tools/*.c)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	$(Q)clang-format --dry-run -Werror $(FORMAT_FILES)

# The tree's plan, checked (CI runs it): no include runs up a layer of
# core/ or makes a circle (tools/layer-check), and no NVIDIA library is
# named outside core/nvidia but in the allowed texts of
# tools/nvidia-names-allow.txt (tools/nvidia-names-check).
.PHONY: layers
layers:
	$(Q)python3 tools/layer-check
	$(Q)python3 tools/nvidia-names-check
	$(Q)python3 tools/outside-open-check

# The analyzers CI runs; each fails on any finding. A finding that is
# proven wrong is silenced on its line with a NOLINT comment that says
# why. LINT_JOBS files at a time (clang-tidy is ~3 min of one core).
# cmd/ is read twice: as cuenv's and, where it differs, as cuenv-net's.
LINT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
LINT_CFLAGS := -std=c11 -D_GNU_SOURCE $(INCLUDES) $(PKG_CFLAGS) -I$(BUILD)
# Windows-only sources (built by the mingw targets below) are left out of
# clang-tidy and gcc's analyzer, which would need Windows' headers;
# cppcheck reads them.
LINT_SRC ?= $(LINUX_SRC) $(wildcard cmd/*.c)
NET_SRC = $(shell grep -l CUENV_NET $(filter cmd/%,$(LINT_SRC)) /dev/null)

# One file per clang-tidy (tools/tidy-one.sh: a file found clean is not
# read again while its preprocessed text is the same, with
# CUENV_LINT_CACHE); xargs fails when any file has a finding.
tidy = xargs -r -P$(LINT_JOBS) -I{} sh tools/tidy-one.sh {} $(LINT_CFLAGS) \
	$(1)

lint: $(BUILD)/cli.c
	$(Q)printf '%s\n' $(LINT_SRC) | $(call tidy)
	$(Q)printf '%s\n' $(NET_SRC) | $(call tidy,-DCUENV_NET)
	$(Q)cppcheck --error-exitcode=1 --enable=warning,portability \
		--inline-suppr -q -D_GNU_SOURCE core cmd

# gcc's static analyzer (-fanalyzer: leaks, double frees, use after free,
# NULL dereferences) over every file, with the build's flags but at -O0:
# gcc 12's optimisations hide paths from it (a double free through an
# alias goes unseen at -O1 and -O2). core/ is given as -iquote only
# (INCLUDES), which <elf.h> never searches.
ANALYZE_CC ?= gcc
ANALYZE_CFLAGS := -std=c11 -D_GNU_SOURCE $(INCLUDES) $(WARN) -O0 \
	$(PKG_CFLAGS) $(CMD_DEFS) -I$(BUILD) -fanalyzer

analyze: $(BUILD)/cli.c
	$(Q)printf '%s\n' $(LINT_SRC) | xargs -r -P$(LINT_JOBS) -I{} \
		$(ANALYZE_CC) $(ANALYZE_CFLAGS) -c -o /dev/null {}
	$(Q)printf '%s\n' $(NET_SRC) | xargs -r -P$(LINT_JOBS) -I{} \
		$(ANALYZE_CC) $(ANALYZE_CFLAGS) -DCUENV_NET -c -o /dev/null {}

compdb:
	bear -- $(MAKE) -B

# A dependency file whose source is gone (moved into a folder by
# tools/relayout) is left out: its target is built again from the source
# where it is now, which writes the file anew.
-include $(shell find $(BUILDROOT) -name '*.d' -exec awk 'FNR == 1 { \
	s = $$2; if (s == "" || (getline x < s) >= 0) print FILENAME; \
	close(s) }' {} + 2>/dev/null)

# On a machine with an NVIDIA GPU: install its own CUDA libraries through
# cuenv from a file:// mirror, check them healthy and broken, and keep the
# output under docs/evidence/ (see docs/evidence/README.md).
gpu-evidence: $(BUILD)/cuenv $(BUILD)/cuenv-net $(BUILD)/cuenv-probe
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv sh tests/gpu/evidence.sh

# examples/Dockerfile built with buildah (as root; vfs storage, chroot
# isolation) from a debootstrapped Debian 12, run, and its runtime image
# checked; the base images and buildah's storage are cached in
# CUENV_CI_CACHE (above). See tests/containers/build.sh.
.PHONY: test-containers check-examples
test-containers: $(BUILD)/cuenv $(BUILD)/cuenv-net
	$(Q)CUENV_BIN=$(CURDIR)/$(BUILD)/cuenv bash tests/containers/build.sh

# The README's quick start (sh .ci/deps && make demo, then make test) in
# a clean Debian 12 image with only what .ci/deps installs
# (tests/containers/quickstart.sh; as root, after test-containers or
# test-deb made the image).
.PHONY: test-quickstart
test-quickstart:
	$(Q)bash tests/containers/quickstart.sh

# The Debian package (debian/): built with dpkg-buildpackage in a copy of
# the tree, checked by lintian (no errors, no warnings), installed with apt
# in a clean Debian 12 image (buildah, as test-containers), used (an
# install from the fixtures' mirror, the bash hook), then purged: nothing
# may be left. As root; see tests/deb/run.sh.
.PHONY: test-deb
test-deb:
	$(Q)bash tests/deb/run.sh

# examples/github-actions.yml checked with actionlint (from PyPI, into a
# virtual environment in CUENV_CI_CACHE) and shellcheck.
check-examples:
	$(Q)sh tests/examples/actionlint.sh

# What building and testing need (the README's quick start), and what CI
# needs besides (buildah, lintian, wine, Lmod, the analyzers...).
.PHONY: deps deps-ci
deps:
	$(Q)sh .ci/deps
deps-ci:
	$(Q)sh .ci/deps-ci

demo: all
	$(Q)CUENV_BIN=$(CURDIR)/cuenv sh tools/demo.sh

# Windows (issue 13): the dependency layer, cross-built with Debian's
# mingw-w64 and cached in CUENV_WIN_CACHE (set
# above), and its proof under Debian's wine64.
.PHONY: ci-cache ci-cache-prune
ci-cache:
	$(Q)sh tools/ci-cache.sh report
ci-cache-prune:
	$(Q)sh tools/ci-cache.sh prune

.PHONY: windows-deps test-windows-deps
windows-deps:
	$(Q)sh tools/windows-deps.sh
# Each test-windows* target runs in a wine prefix of its own, removed
# afterwards (tools/with-wine-prefix.sh); test-windows's three share one.
WITH_WINE := sh tools/with-wine-prefix.sh
test-windows-deps:
	$(Q)BUILDROOT=$(BUILDROOT) $(WITH_WINE) sh tests/windows/deps-smoke.sh

# The core modules for Windows (WIN_SRC: every module but the POSIX
# platform layer's and OpenSSL's side), cross-compiled into
# BUILDROOT/windows/core/libcuenv-core.a (tools/windows-core.sh; what was
# ported and why: docs/windows-port.md). test-windows-core runs
# tests/windows/test_core.c's checks of them under wine64.
WIN_CORE := $(WIN_SRC)
.PHONY: windows-core test-windows-core test-windows windows test-windows-e2e
windows-core:
	$(Q)BUILDROOT=$(BUILDROOT) WIN_CORE="$(WIN_CORE)" sh tools/windows-core.sh
test-windows-core:
	$(Q)BUILDROOT=$(BUILDROOT) WIN_CORE="$(WIN_CORE)" $(WITH_WINE) sh -c \
		'sh tools/windows-core.sh test && sh tests/windows/dllsearch.sh'

# cuenv.exe, cuenv-net.exe and cuenv-probe.exe (tools/windows-build.sh),
# static, in BUILDROOT/windows with the catalogue beside them; the
# README's Windows walk-through run with them under wine64
# (tests/windows/e2e.sh).
WIN_CMDS := $(CMDS)
WIN_NET_CMDS := $(NET_CMDS)
windows:
	$(Q)BUILDROOT=$(BUILDROOT) WIN_CORE="$(WIN_CORE)" WIN_CMDS="$(WIN_CMDS)" \
		WIN_NET_CMDS="$(WIN_NET_CMDS)" \
		CUENV_VERSION_STRING='$(VERSION_STRING)' sh tools/windows-build.sh
test-windows-e2e: windows
	$(Q)BUILDROOT=$(BUILDROOT) $(WITH_WINE) sh tests/windows/e2e.sh

# Everything of the Windows port that runs here, under wine64, one after
# the other (they share the wine prefix).
test-windows:
	$(Q)$(WITH_WINE) sh -c '$(MAKE) --no-print-directory test-windows-deps && \
		$(MAKE) --no-print-directory test-windows-core && \
		$(MAKE) --no-print-directory test-windows-e2e'
