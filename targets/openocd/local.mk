# targets/openocd/local.mk: OpenOCD 0.12.0 configs for pmuprobe-sim, one per
# shipped target plus "-stock" variants that use OpenOCD's own board
# configs; installed under $(pkgdatadir)/openocd (own variable name, so
# targets/openocd/pmu.mk can install there too without a clash).
simcfgdir = $(pkgdatadir)/openocd
dist_simcfg_DATA = targets/openocd/pmuprobe-sim-adapter.tcl \
	targets/openocd/pmuprobe-sim.tcl \
	targets/openocd/a32.cfg targets/openocd/a7-soc.cfg targets/openocd/a72-quad.cfg \
	targets/openocd/a76-cluster.cfg targets/openocd/a9-soc.cfg \
	targets/openocd/biglittle.cfg targets/openocd/rpi3-a53.cfg \
	targets/openocd/rpi3-a53-stock.cfg targets/openocd/a72-quad-stock.cfg \
	targets/openocd/a7-soc-stock.cfg \
	targets/openocd/zynq7000-stock.cfg targets/openocd/imx6q-stock.cfg
