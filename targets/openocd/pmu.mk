# targets/openocd/pmu.mk: pmu.tcl and its generated tables (openocd helper)
