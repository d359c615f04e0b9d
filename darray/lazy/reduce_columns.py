"""Render the column kernels of CPU reductions (stage ``columns``): reductions whose kept axes
are innermost in memory (``sum(x, axis=0)`` of a C-order matrix). The plans are in
``darray/lazy/reduce.py``; the row and group kernels in ``reduce_render.py``, the GPU tree
kernels in ``reduce_gpu.py``.
"""
from __future__ import annotations

import numpy as np

from ..dtypes import ctype
from . import user
from .reduce_render import (
    LANES,
    REDUCE_NAME,
    _arg_better,
    _extreme,
    _final,
    _fold,
    _indent,
    _scratch,
    _step,
    _vectorisable,
    identity,
)
from .render import body_lines, cast, prologue, ref_name, signature, vector_ref, vector_values
from .spec import KernelSpec, Ref

COLUMNS = 4096  # widest stripe of a column task (its partial results stay in L1/L2)
ROWS = 8     # rows folded in registers before joining the stripe's partials


def _offsets(spec: KernelSpec, at: str, name: str) -> list[str]:
    """``name.format(i=i)``: the element offset (less ``in<i>_o``) of flat index ``at`` in each
    strided input ``i``, from its coordinates (a division per dimension)."""
    strided = [i for i, op in enumerate(spec.inputs) if op.pattern == "s"]
    if not strided:
        return []
    idx = spec.index
    names = [name.format(i=i) for i in strided]
    lines = [f"{idx} {', '.join(f'{o} = 0' for o in names)};", f"{{ {idx} q_ = {at};"]
    for d in range(spec.rank - 1, 0, -1):
        adds = " ".join(f"{o} += e_ * in{i}_s{d};" for o, i in zip(names, strided))
        lines.append(f"  {{ const {idx} e_ = q_ % d{d}; q_ /= d{d}; {adds} }}")
    lines.append("  " + " ".join(f"{o} += q_ * in{i}_s0;" for o, i in zip(names, strided)) + " }")
    return lines


def _values_at(spec: KernelSpec, row: str) -> tuple[list[str], str]:
    """Scalar loads and SSA body at ``g`` for a column kernel (strided inputs at ``ro<row>_<i> +
    co<i>``: the row's offset plus the column's); returns the lines and the reduced value."""
    red = spec.reduce
    assert red is not None
    index = {"c": "in{i}_o + g", "0": "in{i}_o", "s": "in{i}_o + ro" + row + "_{i} + co{i}"}
    lines = [f"const {ctype(op.dtype)} v{i} = in{i}[{index[op.pattern].format(i=i)}];"
             for i, op in enumerate(spec.inputs)]
    dtypes: dict[Ref, np.dtype] = {("in", i): op.dtype for i, op in enumerate(spec.inputs)}
    lines += body_lines(spec, dtypes)
    ref = spec.outputs[0][1]
    return lines, cast(dtypes[ref], red.acc, ref_name(ref))


def render_columns(spec: KernelSpec) -> str:
    """A one-launch kernel for reductions whose kept axes are innermost in memory (``sum(x,
    axis=0)`` of a C-order matrix) on CPU devices. The index space is ``[reduced..., kept...]``,
    so element (k, j) is ``g = k * M + j``. The ``M`` outputs split into ``B`` stripes of at most
    ``COLUMNS`` and the ``K`` rows into ``P`` bands; task ``(b, band)`` goes to a work-group (its
    first work-item; the launch asks for ``B * P`` groups, so all compute units stream rows,
    and a group loops over tasks if it gets fewer). A task
    folds blocks of ``ROWS`` rows in registers, 8 columns at a time as float8 where the body
    vectorises, and joins each block into its stripe's partial results ``part[band * M + j]``;
    the last band of a stripe then folds the ``P`` partials in order. A float sum is thus
    blocked (``ROWS`` rows, then blocks, then bands), not a serial loop over all rows. Scalar
    arg reductions fold row by row into the partials."""
    red = spec.reduce
    assert red is not None
    acc_t, idx, zero, arg = ctype(red.acc), spec.index, identity(red.op, red.acc), red.arg
    value_ref = spec.outputs[0][1]
    vt = f"{acc_t}{LANES}"
    vector = _vectorisable(spec, ("sum", "prod", "max", "min") + (("argmax", "argmin") if idx == "int" else ()))
    lines = prologue(spec) + [signature(spec, REDUCE_NAME)]
    lines += ["    if (get_local_id(0) != 0) return;  /* tasks go to work-groups (their first work-item) */",
              f"    const {idx} M = K ? n / K : 0, B = (M + {COLUMNS - 1}) / {COLUMNS};",
              "    if (B * P == 0) return;",
              f"    const {idx} W = ((M + B - 1) / B + 7) / 8 * 8, C = (K + P - 1) / P;", *_scratch(spec)]
    task = [f"const {idx} b = t / P, band = t - b * P, j0 = b * W, cw = min(W, M - j0);",
            f"const {idx} k0 = band * C, k1 = min(k0 + C, K);",
            f"__global {acc_t}* acc = part + band * M + j0;"]
    if arg:
        task.append("__global long* best = part_i + band * M + j0;")
    task.append(f"for ({idx} c = 0; c < cw; c++) {{ acc[c] = {zero};{' best[c] = -1;' if arg else ''} }}")

    def row(r: int, vector: bool) -> list[str]:
        """Row ``k + r`` at column ``c``: the body's value as ``x_`` (float8 at c..c+7 if ``vector``)."""
        if vector:
            body, value = vector_values(spec, vt, ""), vector_ref(value_ref, vt)
        else:
            body, value = _values_at(spec, str(r))
        return [f"const {idx} g = (k + {r}) * M + j0 + c;", *body,
                f"const {vt if vector else acc_t} x_ = {value};"]

    def vector_block(rows: int) -> list[str]:
        """Columns c..c+7 of ``rows`` rows folded in float8 registers, then joined into ``acc``."""
        out = [f"for (; c + {LANES} <= cw; c += {LANES}) {{", f"    {vt} s = ({vt})({zero});",
               f"    __global {vt}_u* a_ = (__global {vt}_u*)(acc + c);"]
        if red.op in ("max", "min"):
            out.append(f"    int{LANES} nn = (int{LANES})(0);")
            for r in range(rows):
                out += ["    {", *_indent(row(r, True), 2), f"        s = {_extreme(red.op, 's', 'x_')};",
                        "        nn |= x_ != x_;", "    }"]
            return out + [f"    const {vt} p_ = *a_;",
                          f"    *a_ = select({_extreme(red.op, 'p_', 's')}, ({vt})(NAN), nn | (p_ != p_));", "}"]
        if not arg:
            for r in range(rows):
                out += ["    {", *_indent(row(r, True), 2), f"        s = {_step(spec, 's', 'x_')};", "    }"]
            return out + [f"    const {vt} p_ = *a_;", f"    *a_ = {_step(spec, 'p_', 's')};", "}"]
        out.append(f"    int{LANES} si = (int{LANES})(-1);")
        for r in range(rows):
            out += ["    {", *_indent(row(r, True), 2)]
            out += [f"        s = x_; si = (int{LANES})(k);"] if r == 0 else [
                f"        const int{LANES} t_ = {_arg_better(red.op, 'x_', 's')};",
                f"        s = select(s, x_, t_); si = select(si, (int{LANES})(k + {r}), t_);"]
            out.append("    }")
        out += [f"    const {vt} p_ = *a_;",  # a band's first block replaces the identity
                f"    const int{LANES} t_ = k == k0 ? (int{LANES})(-1) : {_arg_better(red.op, 's', 'p_')};",
                "    *a_ = select(p_, s, t_);",
                *[f"    if (t_.s{lane}) best[c + {lane}] = si.s{lane};" for lane in range(LANES)], "}"]
        return out

    def block(rows: int) -> list[str]:
        """Fold rows ``k .. k + rows - 1`` of the stripe into ``acc`` (and ``best``)."""
        out = [line for r in range(rows) for line in _offsets(spec, f"(k + {r}) * M", f"ro{r}_{{i}}")]
        out.append(f"{idx} c = 0;")
        if vector:
            out += vector_block(rows)
        out += ["for (; c < cw; c++) {", *_indent(_offsets(spec, "j0 + c", "co{i}"))]
        if rows == 1:  # straight into the partials
            out += ["    {", *_indent(row(0, False), 2),
                    *_indent(_fold(spec, "", "x_", "(long)k", "acc[c]", "best[c]"), 2), "    }", "}"]
            return out
        out.append(f"    {acc_t} s = {zero};" + (" long si = -1;" if arg else ""))
        for r in range(rows):
            out += ["    {", *_indent(row(r, False), 2),
                    *_indent(_fold(spec, "", "x_", f"(long)(k + {r})", "s", "si"), 2), "    }"]
        return out + [*_indent(_fold(spec, "", "s", "si", "acc[c]", "best[c]")), "}"]

    task.append(f"{idx} k = k0;")
    if vector or not arg:
        task += [f"for (; k + {ROWS} <= k1; k += {ROWS}) {{", *_indent(block(ROWS)), "}"]
    task += ["for (; k < k1; k++) {", *_indent(block(1)), "}"]
    # the last band of stripe b folds the P partials of each of its columns
    task += ["mem_fence(CLK_GLOBAL_MEM_FENCE);", "if (atomic_inc(done + b) != P - 1) continue;",
             "mem_fence(CLK_GLOBAL_MEM_FENCE);", "done[b] = 0;"]
    finish = [f"__global const {acc_t}* pv = part + j0;"] + (["__global const long* pi = part_i + j0;"] if arg else [])
    finish.append(f"{idx} c = 0;")
    if vector and not arg and user.get(red.op) is None:  # (a user fold's post-map is scalar code)
        final = "(s / count)" if red.mean else "s"
        finish += [f"for (; c + {LANES} <= cw; c += {LANES}) {{", f"    {vt} s = ({vt})({zero});",
                   f"    for ({idx} q = 0; q < P; q++) {{",
                   f"        const {vt} p_ = *(__global const {vt}_u*)(pv + q * M + c);",
                   f"        s = {_step(spec, 's', 'p_', True)};", "    }",
                   f"    *(__global {vt}_u*)(out0 + out0_o + j0 + c) = {final};", "}"]
    finish += ["for (; c < cw; c++) {", f"    {acc_t} s = {zero};" + (" long si = -1;" if arg else ""),
               f"    for ({idx} q = 0; q < P; q++) {{",
               *_indent(_fold(spec, "", "pv[q * M + c]", "pi[q * M + c]", "s", "si"), 2), "    }",
               *_indent(_final(spec, "s", "si", "j0 + c")), "}"]
    # as many tasks per work-group as it takes, whatever the launch's work-group size
    loop = f"for ({idx} t = get_group_id(0); t < B * P; t += get_num_groups(0)) {{"
    return "\n".join(lines + ["    " + loop, *_indent(task + finish, 2), "    }", "}"]) + "\n"
