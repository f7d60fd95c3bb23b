# bench/local.mk: make bench (bench helper)
