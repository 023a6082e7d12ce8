"""mindspore.hal and mindspore.device_context on sprout (CPU only), with MindSpore 2.10 CPU's answers and errors."""
import subprocess
import sys

import pytest

import sprout as ms


def test_hal_reports_the_cpu_only():
    assert ms.hal.is_available("CPU") and not ms.hal.is_available("GPU") and not ms.hal.is_available("Ascend")
    assert ms.hal.device_count() == 1 and ms.hal.device_count("CPU") == 1 and ms.hal.get_device_name(0) == "CPU"
    assert ms.hal.get_device_capability(0, "CPU") is None and ms.hal.get_device_properties(0, "CPU") is None
    assert ms.hal.get_arch_list("CPU") is None and ms.hal.is_initialized("CPU") is False
    with pytest.raises(ValueError, match="must be one of \\['CPU', 'GPU', 'Ascend'\\], but got cpu"):
        ms.hal.is_available("cpu")
    with pytest.raises(ValueError, match="GPU backend is not available"):
        ms.hal.device_count("GPU")


def test_device_context_backends():
    assert ms.device_context.cpu.is_available() and ms.device_context.cpu.device_count() == 1
    assert not ms.device_context.gpu.is_available() and not ms.device_context.ascend.is_available()
    with pytest.raises(RuntimeError, match="Device_target GPU not exist"):
        ms.device_context.gpu.device_count()


def test_cpu_threads_num_sets_blas_threads_once():
    # a fresh process: the setting is once per process
    code = ("import sprout as ms\nfrom sprout.communication import blas\n"
            "ms.device_context.cpu.op_tuning.threads_num(1)\nprint(blas.blas_threads())\n"
            "try:\n    ms.device_context.cpu.op_tuning.threads_num(2)\nexcept RuntimeError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout
    lines = out.splitlines()
    assert lines[-1] == "The 'threads_num' can not be set repeatedly."
    assert lines[0] in ("1", "None")  # None: NumPy's BLAS is not OpenBLAS here
    with pytest.raises(TypeError, match="'num' must be int"):
        ms.device_context.cpu.op_tuning.threads_num(1.5)
