"""Moving values between the host and devices: one room for conversion and transfer.

- ``convert``: host <-> device conversion: ``asarray``, ``to_numpy``, ``astype``, ``assign``
  (slice assignment), ``to`` another place;
- ``copies``: the copies and maps between host and device memory, all through the scheduler
  (``upload``, ``download``, ``Mapped``);
- ``staging``: the pinned staging buffers that device -> host reads and chunked transfers go
  through on discrete GPUs.

The modules sit at different layers (``docs/architecture.md``): ``staging`` below the allocator,
``copies`` beside it, ``convert`` above ``lazy`` and below the ops. This file imports none of
them, so importing one loads nothing above it.
"""
