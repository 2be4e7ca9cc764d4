"""A description of the machine a benchmark ran on: CPUs, memory, Python and tool versions."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
from pathlib import Path


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def _version(command: list[str]) -> str:
    if not shutil.which(command[0]):
        return "not installed"
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    out = (proc.stdout or proc.stderr).strip().splitlines()
    return out[0] if out else "unknown"


def describe() -> dict[str, str]:
    """Facts a reader needs to compare these figures with their own machine."""
    load = os.getloadavg()
    return {
        "CPU": _cpu_model(),
        "CPUs (nproc)": str(os.cpu_count()),
        "memory": _memory_gib(),
        "OS": f"{platform.system()} {platform.release()}",
        "Python": platform.python_version(),
        "load average at start (1/5/15 min)": " / ".join(f"{x:.2f}" for x in load),
        "redis-server": _version(["redis-server", "--version"]),
        "wrk": _version(["wrk", "--version"]),
        "pdftotext": _version(["pdftotext", "-v"]),
    }
