# Shipped target descriptions (man/pmuprobe-target.5), installed where
# pp_target_find looks for them: PP_TARGETDIR = $(pkgdatadir)/targets.
targetsdir = $(pkgdatadir)/targets
dist_targets_DATA = targets/a76-cluster.target targets/rpi3-a53.target \
	targets/a72-quad.target targets/a7-soc.target targets/a9-soc.target \
	targets/a32.target targets/biglittle.target \
	targets/zynq7000.target targets/imx6q.target
