"""darray benchmark suite (`python -m darray bench`)."""
