src_pmuprobe_SOURCES += src/cli.h src/pmuprobe.c src/session.c src/args.c \
	src/cmd_scan.c src/cmd_status.c src/cmd_events.c src/cmd_regs.c src/cmd_remedy.c src/cmd_stream.c \
	src/cmd_config.c src/cmd_reset.c src/link_report.c \
	src/cmd_stat.c src/cmd_convert.c src/capture_cli.h src/capture_cli.c src/trace_out.c
