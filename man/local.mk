man_MANS += man/pmuprobe.1 man/pmuprobe-target.5
EXTRA_DIST += man/pmuprobe.1 man/pmuprobe-target.5
man_MANS += man/libpmuprobe.3
EXTRA_DIST += man/libpmuprobe.3
man_MANS += man/pp_capture.3
EXTRA_DIST += man/pp_capture.3
