# json: filled by its owner (see tests/local.mk)
