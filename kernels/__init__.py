"""OpenCL sources shipped with darray (read through importlib.resources)."""
