# src/cli/top.mk: pmuprobe top (top helper): the command, its model (topview.c:
# a capture output folding records into rates and history) and its drawing
# (topdraw.c: --batch text and the ncurses screen).
src_pmuprobe_SOURCES += src/cli/cmd_top.c src/cli/topview.h src/cli/topview.c src/cli/topdraw.c
