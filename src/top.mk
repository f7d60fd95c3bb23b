# src/top.mk: pmuprobe top (top helper)
src_pmuprobe_SOURCES += src/cmd_top.c
