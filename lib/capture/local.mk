# The capture engine: read plan, sampler and writer threads, SPSC ring,
# metrics and statistics (lib/capture/capture.h, ring.h).
lib_libpmuprobe_internal_la_SOURCES += lib/capture/capture.h lib/capture/engine.h \
	lib/capture/capture.c lib/capture/plan.c lib/capture/sampler.c \
	lib/capture/ring.h lib/capture/ring.c lib/capture/metrics.c lib/capture/stats.c \
	lib/capture/evlist.c lib/capture/api.c
