# capture/sink.mk: the output formats of a capture (lib/capture/sink.h) and
# the reader of the binary one (lib/capture/binread.h, man/pmuprobe-bin.5).
lib_libpmuprobe_internal_la_SOURCES += lib/capture/sink.h lib/capture/sink.c \
	lib/capture/sink_csv.c lib/capture/sink_jsonl.c lib/capture/sink_perf.c \
	lib/capture/sink_trace.c lib/capture/sink_bin.c \
	lib/capture/binread.h lib/capture/binread.c
man_MANS += man/pmuprobe-bin.5
EXTRA_DIST += man/pmuprobe-bin.5
