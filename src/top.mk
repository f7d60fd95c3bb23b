# src/top.mk: pmuprobe top (top helper): the command, its model (topview.c:
# a capture output folding records into rates and history) and its drawing
# (topdraw.c: --batch text and the ncurses screen).
src_pmuprobe_SOURCES += src/cmd_top.c src/topview.h src/topview.c src/topdraw.c
