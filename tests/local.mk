# One fragment per room, so that adding a test touches one small list.
# A check test looks like:
#   check_PROGRAMS += tests/check_sim
#   tests_check_sim_SOURCES = tests/check_sim.c tests/fixture.c tests/fixture.h
#   tests_check_sim_CFLAGS = $(TEST_CFLAGS)
#   tests_check_sim_LDADD = $(TEST_LIBS)
include $(srcdir)/tests/catalog.mk
include $(srcdir)/tests/sim.mk
include $(srcdir)/tests/target.mk
include $(srcdir)/tests/coresight.mk
include $(srcdir)/tests/regs.mk
include $(srcdir)/tests/cli.mk
include $(srcdir)/tests/evname.mk
include $(srcdir)/tests/grow.mk
include $(srcdir)/tests/diag.mk
include $(srcdir)/tests/extend.mk
include $(srcdir)/tests/program.mk
include $(srcdir)/tests/simjtag.mk
include $(srcdir)/tests/simswd.mk
include $(srcdir)/tests/link.mk
include $(srcdir)/tests/chains.mk
include $(srcdir)/tests/capture.mk
include $(srcdir)/tests/sink.mk
include $(srcdir)/tests/simserver.mk
include $(srcdir)/tests/openocd.mk
include $(srcdir)/tests/ftdi.mk
include $(srcdir)/tests/cmsisdap.mk
include $(srcdir)/tests/top.mk
include $(srcdir)/tests/faultpath.mk
include $(srcdir)/tests/timing.mk
include $(srcdir)/tests/openocd-adapter.mk
include $(srcdir)/tests/soak.mk
include $(srcdir)/tests/fuzz.mk
include $(srcdir)/tests/security.mk
include $(srcdir)/tests/takeover.mk
include $(srcdir)/tests/api.mk
include $(srcdir)/tests/plot.mk
include $(srcdir)/tests/json.mk
include $(srcdir)/tests/docs.mk
include $(srcdir)/tests/discover.mk
include $(srcdir)/tests/trace.mk
include $(srcdir)/tests/duration.mk
include $(srcdir)/tests/liveout.mk
include $(srcdir)/tests/summary.mk
