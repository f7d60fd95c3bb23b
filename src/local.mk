src_pmuprobe_SOURCES += src/pmuprobe.c
