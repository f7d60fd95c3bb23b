# tests/top.mk: tests of pmuprobe top (top helper)
