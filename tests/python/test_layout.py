"""The cffi declarations are generated from lib/pmuprobe.h (python/gencdef.py):
every struct of the header has, as cffi lays it out, the size and field
offsets the C compiler gives it, and every function of libpmuprobe.sym is
declared."""
import os
import re
import subprocess

from pmuprobe import _build, ffi, lib

SRC = os.environ["top_srcdir"]


def structs():
    return sorted(set(re.findall(r"\bstruct (pp_\w+) \{", _build.CDEF)))


def test_struct_layouts_match_the_c_compiler(tmp_path):
    names = structs()
    assert {"pp_open_opts", "pp_trace_rec", "pp_core_info", "pp_sample",
            "pp_capture_opts", "pp_sample_batch", "pp_core_status", "pp_reg_value"} <= set(names)
    want, lines = [], []
    for s in names:
        t = ffi.typeof("struct " + s)
        want.append("%s %d" % (s, ffi.sizeof(t)))
        lines.append('printf("%s %%zu\\n", sizeof(struct %s));' % (s, s))
        for f, cf in t.fields:
            want.append("%s.%s %d" % (s, f, cf.offset))
            lines.append('printf("%s.%s %%zu\\n", offsetof(struct %s, %s));' % (s, f, s, f))
    c = tmp_path / "layout.c"
    c.write_text("#include <stddef.h>\n#include <stdio.h>\n#include <pmuprobe.h>\n"
                 "int main(void)\n{\n" + "\n".join(lines) + "\nreturn 0;\n}\n")
    exe = tmp_path / "layout"
    subprocess.run([os.environ.get("CC") or "cc", "-I", os.path.join(SRC, "lib"), "-o", str(exe),
                    str(c)], check=True, env=dict(os.environ, LD_PRELOAD=""))
    got = subprocess.run([str(exe)], check=True, capture_output=True, text=True,
                         env=dict(os.environ, LD_PRELOAD="")).stdout.split("\n")[:-1]
    assert got == want


def test_every_exported_function_is_declared():
    with open(os.path.join(SRC, "lib", "libpmuprobe.sym")) as f:
        exported = f.read().split()
    missing = [name for name in exported if not hasattr(lib, name)]
    assert not missing
