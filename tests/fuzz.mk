# Fuzzing: targets in tests/fuzz/fuzz_<name>.c.
# make check: each target linked with tests/fuzz/replay.c, run over its seed
# corpus and its crash regressions by tests/fuzz-replay.test.
# make fuzz: the same targets under libFuzzer + ASan + UBSan with $(FUZZ_CC)
# (one or some: make fuzz FUZZ_TARGETS=mpssereply),
# linked with the library's sources compiled once (see the fuzz rule),
# plus the target's own FUZZ_SRCS_NAME.  Crashes land in
# fuzz-build/crashes-NAME/.  README files in corpus/ and regress/ are never
# inputs (replay.c skips them, `make fuzz` does not copy them).
# The product's parsers of untrusted input, then ftdiemu: the test
# emulator's MPSSE interpreter (a test tool, not a parser of the product).
FUZZ_TARGETS = target evlist binread rbb rbbclient ocdreply mpssereply ftdiemu
# noinst, not check_PROGRAMS: every check program also runs as a test with no
# arguments (Makefile.am), and these need the corpus directories.
noinst_PROGRAMS += tests/fuzz/fuzz_target tests/fuzz/fuzz_evlist tests/fuzz/fuzz_binread \
	tests/fuzz/fuzz_rbb tests/fuzz/fuzz_rbbclient tests/fuzz/fuzz_ocdreply tests/fuzz/fuzz_mpssereply tests/fuzz/fuzz_ftdiemu
tests_fuzz_fuzz_target_SOURCES = tests/fuzz/fuzz_target.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_target_LDADD = lib/libpmuprobe-internal.la
tests_fuzz_fuzz_evlist_SOURCES = tests/fuzz/fuzz_evlist.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_evlist_LDADD = lib/libpmuprobe-internal.la
tests_fuzz_fuzz_binread_SOURCES = tests/fuzz/fuzz_binread.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_binread_LDADD = lib/libpmuprobe-internal.la
# fuzz_rbb: pmuprobe-sim's remote_bitbang input; its server files are
# compiled in (src/sim/local.mk's program is left as it is).
FUZZ_SRCS_rbb = src/sim/simsrv_rbb.c src/sim/simsrv_net.c
tests_fuzz_fuzz_rbb_SOURCES = tests/fuzz/fuzz_rbb.c tests/fuzz/replay.c tests/fuzz/fuzz.h \
	src/sim/simsrv.h src/sim/simsrv_rbb.c src/sim/simsrv_net.c
tests_fuzz_fuzz_rbb_LDADD = lib/libpmuprobe-internal.la
# fuzz_rbbclient: the remote_bitbang client (lib/link/rbb.c) and the JTAG
# and DP layers above it, against a fake server thread.
tests_fuzz_fuzz_rbbclient_SOURCES = tests/fuzz/fuzz_rbbclient.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_rbbclient_LDADD = lib/libpmuprobe-internal.la $(PTHREAD_LIBS)
# fuzz_ocdreply: OpenOCD's TCL RPC replies, from a fake OpenOCD thread.
tests_fuzz_fuzz_ocdreply_SOURCES = tests/fuzz/fuzz_ocdreply.c tests/fuzz/replay.c tests/fuzz/fuzz.h
tests_fuzz_fuzz_ocdreply_LDADD = lib/libpmuprobe-internal.la $(PTHREAD_LIBS)
# fuzz_mpssereply: what the FTDI chip answers to a queued batch, through
# the product's read-back plan and bad-command search (lib/link/mpsse.c).
tests_fuzz_fuzz_mpssereply_SOURCES = tests/fuzz/fuzz_mpssereply.c tests/fuzz/replay.c \
	tests/fuzz/fuzz.h
tests_fuzz_fuzz_mpssereply_LDADD = lib/libpmuprobe-internal.la
# fuzz_ftdiemu: the test FTDI emulator's MPSSE engine and chip FIFOs (no
# usb.c: nothing goes through libusb).  It fuzzes a test tool, so that the
# emulator the ftdi tests rely on survives any byte stream.
FUZZ_SRCS_ftdiemu = tests/ftdi-emu/engine.c tests/ftdi-emu/chip.c tests/ftdi-emu/setup.c \
	tests/ftdi-emu/board.c tests/ftdi-emu/rt.c tests/emu-soc.c
tests_fuzz_fuzz_ftdiemu_SOURCES = tests/fuzz/fuzz_ftdiemu.c tests/fuzz/replay.c tests/fuzz/fuzz.h \
	tests/ftdi-emu/emu.h tests/ftdi-emu/engine.c tests/ftdi-emu/chip.c tests/ftdi-emu/setup.c \
	tests/ftdi-emu/board.c tests/ftdi-emu/rt.c tests/emu-soc.h tests/emu-soc.c
tests_fuzz_fuzz_ftdiemu_CFLAGS = $(AM_CFLAGS) $(LIBUSB_CFLAGS)
tests_fuzz_fuzz_ftdiemu_LDADD = lib/libpmuprobe-internal.la $(PTHREAD_LIBS)
TESTS += tests/fuzz-replay.test
EXTRA_DIST += tests/fuzz-replay.test tests/fuzz/corpus tests/fuzz/regress tests/fuzz/binread.dict \
	tests/fuzz/target.dict
# (the corpus and regression directories are copied whole; never all of
# tests/fuzz, which holds objects after an in-tree build)

FUZZ_SECONDS = 60
# Inputs are at most 8 KiB (-max_len) but for ocdreply, whose replies
# must pass the client's first 16 KiB buffer to reach its growth
# (lib/bus/ocd_rpc.c).  A target with tests/fuzz/NAME.dict gets it as
# libFuzzer's -dict.
FUZZ_MAXLEN_ocdreply = 65536
FUZZ_DIR = fuzz-build
FUZZ_COMMON = -g -O1 -std=gnu11 -fno-sanitize-recover=undefined \
	-DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
	-I$(top_builddir) -I$(top_srcdir)/lib -DPP_SRCTARGETDIR='"$(abs_top_srcdir)/targets"'
FUZZ_FLAGS = $(FUZZ_COMMON) -fsanitize=fuzzer,address,undefined
# lib/ is compiled once for every target: instrumented, without libFuzzer's main.
FUZZ_OBJ_FLAGS = $(FUZZ_COMMON) -fsanitize=fuzzer-no-link,address,undefined

# What the library is built from, as the fuzz build compiles it: every
# lib/**/*.c but the catalog generator (a program of its own) and lib/plot/
# (cairo), plus the generated catalog tables from the build tree.  The
# FTDI link is in: the library opens every path (lib/session/path_ftdi.c),
# so the targets link libftdi1 as the library does.
fuzz: lib/catalog/tables.c
	@if test -z "$(FUZZ_CC)"; then \
	  echo "make fuzz: no clang found (FUZZ_CC is empty); install the Debian packages clang and libclang-rt-14-dev, then re-run configure" >&2; \
	  exit 1; fi
	@rm -rf $(FUZZ_DIR)/obj; mkdir -p $(FUZZ_DIR)/obj
	@echo "  FUZZCC   $(FUZZ_DIR)/obj: lib/, once for every target"
	@for f in `cd $(top_srcdir) && ls lib/*.c lib/*/*.c | grep -v -e '^lib/catalog/gen-' -e '^lib/plot/'`; do \
	  o=`echo "$$f" | sed 's|/|_|g; s|\.c$$|.o|'`; \
	  $(FUZZ_CC) $(FUZZ_OBJ_FLAGS) $(LIBFTDI_CFLAGS) -c $(top_srcdir)/$$f -o $(FUZZ_DIR)/obj/$$o || exit 1; \
	done
	@$(FUZZ_CC) $(FUZZ_OBJ_FLAGS) -c lib/catalog/tables.c -o $(FUZZ_DIR)/obj/lib_catalog_tables.o
	@fail=0; for t in $(FUZZ_TARGETS); do \
	  cflags=; maxlen=8192; case $$t in \
	    rbb) own='$(FUZZ_SRCS_rbb)' ;; \
	    ftdiemu) own='$(FUZZ_SRCS_ftdiemu)'; cflags='$(LIBUSB_CFLAGS)' ;; \
	    ocdreply) own=; maxlen=$(FUZZ_MAXLEN_ocdreply) ;; \
	    *) own= ;; \
	  esac; \
	  dict=; test -f $(top_srcdir)/tests/fuzz/$$t.dict && dict=-dict=$(top_srcdir)/tests/fuzz/$$t.dict; \
	  extra=; for f in $$own; do extra="$$extra $(top_srcdir)/$$f"; done; \
	  echo "  FUZZCC   $(FUZZ_DIR)/fuzz_$$t"; \
	  $(FUZZ_CC) $(FUZZ_FLAGS) $$cflags -o $(FUZZ_DIR)/fuzz_$$t $(top_srcdir)/tests/fuzz/fuzz_$$t.c \
	    $$extra $(FUZZ_DIR)/obj/*.o $(LIBFTDI_LIBS) $(LIBUSB_LIBS) -lm -pthread || exit 1; \
	  rm -rf $(FUZZ_DIR)/corpus-$$t; mkdir -p $(FUZZ_DIR)/corpus-$$t $(FUZZ_DIR)/crashes-$$t; \
	  for f in $(top_srcdir)/tests/fuzz/corpus/$$t/* $(top_srcdir)/tests/fuzz/regress/$$t/*; do \
	    case $${f##*/} in README*) ;; *) test -f "$$f" && cp "$$f" $(FUZZ_DIR)/corpus-$$t/ ;; esac; \
	  done; \
	  echo "  FUZZ     $$t for $(FUZZ_SECONDS) s"; \
	  if ! $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$maxlen $$dict -print_final_stats=1 \
	      -artifact_prefix=$(FUZZ_DIR)/crashes-$$t/ $(FUZZ_DIR)/corpus-$$t \
	      > $(FUZZ_DIR)/fuzz_$$t.log 2>&1; then \
	    echo "make fuzz: fuzz_$$t crashed: see $(FUZZ_DIR)/fuzz_$$t.log and $(FUZZ_DIR)/crashes-$$t/" >&2; \
	    fail=1; fi; \
	done; exit $$fail
.PHONY: fuzz
clean-local: clean-fuzz
clean-fuzz:
	rm -rf $(FUZZ_DIR)
.PHONY: clean-fuzz
