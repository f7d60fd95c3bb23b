# src/sim/local.mk: pmuprobe-sim, the simulated SoC served over remote_bitbang
# (src/sim/pmuprobe-sim.c, src/sim/simsrv_*.c; man/pmuprobe-sim.1).
bin_PROGRAMS += src/pmuprobe-sim
src_pmuprobe_sim_SOURCES = src/sim/pmuprobe-sim.c src/sim/simsrv.h src/sim/simsrv_net.c \
	src/sim/simsrv_rbb.c src/sim/simsrv_ctl.c
src_pmuprobe_sim_LDADD = lib/libpmuprobe-internal.la
man_MANS += man/pmuprobe-sim.1
EXTRA_DIST += man/pmuprobe-sim.1
