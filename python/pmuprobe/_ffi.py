"""The cffi binding: declarations generated from lib/pmuprobe.h at build
time (pmuprobe/_build.py, see python/gencdef.py) and the library opened in
ABI mode (ffi.dlopen), so nothing is compiled when the package installs.

The library is $PMUPROBE_LIB when set (a path: the tests point it at the
build tree's lib/.libs/libpmuprobe.so.0), else the one `make install` put
in the configured libdir, else whatever the dynamic linker finds by soname.
"""
import os

import cffi

from . import _build

ffi = cffi.FFI()
ffi.cdef(_build.CDEF)


def _open_library():
    env = os.environ.get("PMUPROBE_LIB")
    tried = []
    candidates = [env] if env else [os.path.join(_build.LIBDIR, _build.SONAME), _build.SONAME]
    for path in candidates:
        try:
            return ffi.dlopen(path), path
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("pmuprobe: cannot load libpmuprobe: tried " + "; ".join(tried)
                      + ("" if env else "; set PMUPROBE_LIB to the library's path"))


lib, LIBRARY = _open_library()


def has(name):
    """Whether the loaded library exports the function (an older library
    may lack the newer sections of the header)."""
    try:
        getattr(lib, name)
    except AttributeError:
        return False
    return True


def string(p):
    """A C string as str; None for NULL."""
    return None if p == ffi.NULL else ffi.string(p).decode("utf-8", "replace")


def cstr(s):
    """str -> char[] (kept alive by the caller), None -> NULL."""
    return ffi.NULL if s is None else ffi.new("char[]", str(s).encode())
