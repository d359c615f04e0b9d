"""OpenCL device discovery: one flat, stable index over every platform's devices.

Every device found is listed (``cl:N`` indices stay stable); whether it may be used is the
probe's verdict (``_probe``). Each device's kernel form is decided here, once.
"""
from __future__ import annotations

import os
import threading
from dataclasses import asdict, dataclass
from typing import Any

import pyopencl as cl

_TYPE_NAMES = {cl.device_type.GPU: "GPU", cl.device_type.CPU: "CPU", cl.device_type.ACCELERATOR: "ACCELERATOR"}
FORMS = ("chunked", "item", "gpu")
WORK_GROUP = {"chunked": 16, "item": 64, "gpu": 256}  # work-group size of generated kernels by form (at most
# the device's maximum): 256 on GPUs, where 64 left an H100 at half its bandwidth (issue 19)


def kernel_form(dtype: str, platform: str) -> tuple[str, int]:
    """The form of darray's generated kernels on a device and their work-group size.

    - ``chunked``: a contiguous run of elements per work-item (float8 blocks for float32) and
      one-launch reductions; CPU devices. PoCL runs one work-item per element slowly and does
      not vectorise scalar transcendentals: groups of 16. Intel's compiler vectorises across
      the work-items of a group, which turns the float8 blocks into gathers: groups of one
      work-item, so the vector code runs as written (on a 2-core Zen 1 EPYC, sum of 16M
      float32: 1.37x the copy bandwidth, against 0.19x in groups of 16 and 0.57x in the
      ``item`` form; a fused chain with ``sin``: 0.89x against 0.50x).
    - ``item``: one element per work-item, one-launch reductions whose dense sums go to
      work-groups: for CPU runtimes that vectorise across work-items; only when forced.
    - ``gpu``: a float4 (contiguous float32 kernels) or one element per work-item, one-launch
      tree reductions (``lazy/reduce_gpu.py``), copies and casts through local-memory tiles
      (strided) or four elements per work-item (contiguous; ``lazy/render_gpu.py``); every
      non-CPU device.

    ``DARRAY_KERNEL_FORM`` forces a form on every device, so each form is tested anywhere."""
    form = os.environ.get("DARRAY_KERNEL_FORM", "").strip().lower()
    if form and form not in FORMS:
        raise ValueError(f"darray place: DARRAY_KERNEL_FORM={form!r}; expected one of {', '.join(FORMS)}")
    form = form or ("chunked" if dtype == "CPU" else "gpu")
    return form, 1 if form == "chunked" and "Intel" in platform else WORK_GROUP[form]


@dataclass(frozen=True)
class DeviceInfo:
    """What darray knows about one OpenCL device (``da.place.get_device_properties(i)``)."""

    index: int
    platform: str
    name: str
    type: str
    vendor: str
    driver: str
    global_mem_bytes: int
    max_alloc_bytes: int
    compute_units: int
    max_work_group_size: int
    max_parameter_bytes: int
    fp16: bool
    fp64: bool
    host_unified_memory: bool
    form: str
    work_group: int

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def chunked(self) -> bool:
        """Whether kernels give each work-item a contiguous run of elements (see :func:`kernel_form`)."""
        return self.form == "chunked"

    @property
    def ident(self) -> str:
        """Platform, device, driver and vendor: what the program cache keys binaries by."""
        return "|".join((self.platform, self.name, self.driver, self.vendor))

    @property
    def rank(self) -> int:
        """Preference for the default device: GPU, then Intel's CPU runtime, then PoCL, then others."""
        if self.type == "GPU":
            return 0
        if "Intel" in self.platform:
            return 1
        if "Portable Computing Language" in self.platform:
            return 2
        return 3


_lock = threading.Lock()
_found: list[tuple[DeviceInfo, cl.Device]] | None = None


def _describe(index: int, platform: cl.Platform, dev: cl.Device) -> DeviceInfo:
    ext = dev.extensions.split()
    dtype = next((n for t, n in _TYPE_NAMES.items() if dev.type & t), "OTHER")
    pname = platform.name.strip()
    form, group = kernel_form(dtype, pname)
    group = min(group, int(dev.max_work_group_size))
    unified = bool(getattr(dev, "host_unified_memory", False)) or dtype == "CPU"
    return DeviceInfo(
        index=index, platform=pname, name=dev.name.strip(), type=dtype,
        vendor=dev.vendor.strip(), driver=dev.driver_version.strip(),
        global_mem_bytes=int(dev.global_mem_size), max_alloc_bytes=int(dev.max_mem_alloc_size),
        compute_units=int(dev.max_compute_units), max_work_group_size=int(dev.max_work_group_size),
        max_parameter_bytes=int(dev.max_parameter_size),
        fp16="cl_khr_fp16" in ext, fp64="cl_khr_fp64" in ext or bool(dev.double_fp_config),
        host_unified_memory=unified, form=form, work_group=group,
    )


def found() -> list[tuple[DeviceInfo, cl.Device]]:
    """Every OpenCL device on every platform, discovered once (lazily) and cached."""
    global _found
    with _lock:
        if _found is None:
            result: list[tuple[DeviceInfo, cl.Device]] = []
            try:
                platforms = cl.get_platforms()
            except cl.Error:
                platforms = []
            for platform in platforms:
                try:
                    devices = platform.get_devices()
                except cl.Error:
                    continue
                for dev in devices:
                    result.append((_describe(len(result), platform, dev), dev))
            _found = result
        return _found
