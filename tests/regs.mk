# tests of regs (see tests/local.mk)
