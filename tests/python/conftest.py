"""Fixtures of the Python package's tests (run by tests/python.test, which
starts pmuprobe-sim and says where in the environment):
PMUPROBE_TEST_RBB is the probe spec of that server (a76-cluster, real
time), PMUPROBE_TEST_CTL its control socket, PMUPROBE_TEST_SIM the
pmuprobe-sim binary (for `pmuprobe-sim ctl`)."""
import os
import subprocess

import pytest

import pmuprobe

RBB = os.environ["PMUPROBE_TEST_RBB"]
TARGET = "a76-cluster"


@pytest.fixture(params=["sim", "rbb"])
def probe(request):
    """Each test that takes it runs in process and over remote_bitbang."""
    return "sim" if request.param == "sim" else RBB


@pytest.fixture
def session(probe):
    with pmuprobe.open(probe=probe, target=TARGET) as s:
        yield s


def ctl(*args):
    """One command on pmuprobe-sim's control channel; its reply."""
    out = subprocess.run([os.environ["PMUPROBE_TEST_SIM"], "ctl", os.environ["PMUPROBE_TEST_CTL"]]
                         + list(args), capture_output=True, text=True, check=True,
                         stdin=subprocess.DEVNULL)
    assert out.stdout.startswith("ok"), out.stdout + out.stderr
    return out.stdout
