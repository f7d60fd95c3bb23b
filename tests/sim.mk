# tests of sim (see tests/local.mk)
