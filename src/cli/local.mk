src_pmuprobe_SOURCES += src/cli/cli.h src/cli/pmuprobe.c src/cli/session.c src/cli/args.c \
	src/cli/cmd_scan.c src/cli/cmd_status.c src/cli/cmd_events.c src/cli/cmd_regs.c src/cli/cmd_remedy.c src/cli/cmd_stream.c \
	src/cli/cmd_config.c src/cli/cmd_reset.c src/cli/link_report.c \
	src/cli/cmd_stat.c src/cli/cmd_convert.c src/cli/capture_cli.h src/cli/capture_cli.c src/cli/trace_out.c
