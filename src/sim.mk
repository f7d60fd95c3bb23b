# src/sim.mk: pmuprobe-sim, the simulated SoC served over remote_bitbang
# (src/pmuprobe-sim.c, src/simsrv_*.c; man/pmuprobe-sim.1).
bin_PROGRAMS += src/pmuprobe-sim
src_pmuprobe_sim_SOURCES = src/pmuprobe-sim.c src/simsrv.h src/simsrv_net.c \
	src/simsrv_rbb.c src/simsrv_ctl.c
src_pmuprobe_sim_LDADD = lib/libpmuprobe-internal.la
man_MANS += man/pmuprobe-sim.1
EXTRA_DIST += man/pmuprobe-sim.1
