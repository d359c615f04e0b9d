"""Render a reduction :class:`KernelSpec`: work-item ``p`` folds elements ``k = part, part + P, ...``
of output ``j = p / P`` (interleaved, so neighbouring work-items read neighbouring memory),
evaluating the fused elementwise body at ``g = j * K + k`` for each.
"""
from __future__ import annotations

import numpy as np

from ..dtypes import ctype
from .render import ExprFn, cast, prologue, ref_name, signature, value_lines, vector_ref, vector_values
from .spec import Instr, KernelSpec

REDUCE_NAME = "reduce"
COMBINE = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum", "any": "logical_or",
           "all": "logical_and"}


def identity(op: str, dt: np.dtype) -> str:
    """C literal of the neutral start value of ``op`` in ``dt``."""
    t = ctype(dt)
    if op in ("sum", "any"):
        return f"({t})(0)" if dt.kind != "c" else f"({t})(0, 0)"
    if op in ("prod", "all"):
        return f"({t})(1)" if dt.kind != "c" else f"({t})(1, 0)"
    low = op in ("max", "argmax")
    if dt.kind == "f":
        return f"({t})({'-' if low else ''}INFINITY)"
    if dt.kind == "c":
        inf = "-INFINITY" if low else "INFINITY"
        return f"({t})({inf}, {inf})"
    if dt.kind == "b":
        return "(uchar)0" if low else "(uchar)1"
    info = np.iinfo(dt)
    value = info.min if low else info.max
    suffix = "UL" if dt.kind == "u" else "L"
    return f"({t})({value}{suffix})" if value != np.iinfo(np.int64).min else f"({t})(-9223372036854775807L - 1)"


def _arg_take(op: str, dt: np.dtype, v: str, vi: str, acc: str, best: str) -> str:
    """C condition: replace (acc, best) by (v, vi); NaN wins, ties keep the lower index."""
    if dt.kind == "c":
        r = ctype(dt)[:-1]
        cmp = f"c{'greater' if op == 'argmax' else 'less'}_{r}({v}, {acc})"
        nan_v, nan_a = f"(isnan({v}.x) || isnan({v}.y))", f"(isnan({acc}.x) || isnan({acc}.y))"
        eq = f"({v}.x == {acc}.x && {v}.y == {acc}.y)"
    else:
        cmp, eq = f"({v} {'>' if op == 'argmax' else '<'} {acc})", f"({v} == {acc})"
        nan_v, nan_a = (f"isnan({v})", f"isnan({acc})") if dt.kind == "f" else ("0", "0")
    return (f"{vi} >= 0 && ({best} < 0 || ({nan_a} ? ({nan_v} && {vi} < {best}) : "
            f"({nan_v} || {cmp} || ({eq} && {vi} < {best}))))")


LANES = 8


def _fold(spec: KernelSpec, expr: ExprFn, lane: int | str, value: str, vi: str, into: str = "acc",
          best: str | None = None) -> list[str]:
    """Fold ``value`` (index ``vi``) into accumulator ``<into><lane>`` (arg reductions: and its
    index ``best``, default ``best<lane>``)."""
    red = spec.reduce
    assert red is not None
    acc_t, a = ctype(red.acc), f"{into}{lane}"
    if red.arg:
        bi = best or f"best{lane}"
        take = _arg_take(red.op, red.acc, "v_", "vi_", a, bi)
        return [f"{{ const {acc_t} v_ = {value}; const long vi_ = {vi};",
                f"  if ({take}) {{ {a} = v_; {bi} = vi_; }} }}"]
    step = expr(Instr(COMBINE[red.op], (), red.acc), (red.acc, red.acc), (a, f"({value})"))
    return [f"{a} = {step};"]


def _drop_coordinates(spec: KernelSpec, body: list[str]) -> list[str]:
    """``value_lines`` without its coordinate lines (``r = g``, ``c_d = r % d_d``, ``c0 = r``):
    the chunked kernel keeps the coordinates in variables stepped by ``_advance``."""
    head, rest = body[:spec.rank + 1], body[spec.rank + 1:]
    assert head[0].strip().endswith(" r = g;") and head[-1].strip().endswith(" c0 = r;"), head
    return rest


def _advance(rank: int) -> str:
    """Step the coordinates ``c0..c{rank-1}`` to the next flat index (C order; c0 never wraps)."""
    code = "++c0;"
    for d in range(1, rank):
        code = f"if (++c{d} == d{d}) {{ c{d} = 0; {code} }}"
    return code


_FLOAT32 = np.dtype(np.float32)


def _vector(spec: KernelSpec, expr: ExprFn) -> bool:
    """Whether a chunked float32 sum/prod reads only contiguous or single-element inputs
    through ops with float8 templates (``expr.vector_ops``): then blocks of ``LANES`` elements
    load, compute and fold as float8 (the lanes are its components). Not double8 (see
    ``render.vector_width``; max/min templates with NaN tests measured slower as float8)."""
    red = spec.reduce
    assert red is not None
    ops = getattr(expr, "vector_ops", frozenset())
    dts = {o.dtype for o in spec.operands} | {i.dtype for i in spec.body} | set(spec.scalars)
    return (red.chunked and red.op in ("sum", "prod") and dts == {_FLOAT32}
            and COMBINE[red.op] in ops and all(i.op in ops for i in spec.body)
            and all(o.pattern in "c0" for o in spec.inputs))


def _vector_element(spec: KernelSpec, expr: ExprFn, g: str, into: str) -> list[str]:
    """Fold the float8 of elements ``g .. g + LANES - 1`` into the float8 ``into``."""
    red = spec.reduce
    assert red is not None
    vt = f"{ctype(red.acc)}{LANES}"
    lines = ["{", f"    const {spec.index} g = {g};", *vector_values(spec, expr, vt, "    ")]
    step = expr(Instr(COMBINE[red.op], (), red.acc), (red.acc, red.acc), (into, vector_ref(spec.outputs[0][1], vt)))
    lines += [f"    {into} = {step};", "}"]
    return lines


BLOCK = 16  # float sums: terms per lane summed into a fresh block accumulator before joining acc


def render_reduce(spec: KernelSpec, expr: ExprFn) -> str:
    """OpenCL source for a reduction ``spec`` (see the module docstring).

    Chunked kernels unroll the loop over ``LANES`` independent accumulators, so float folds
    stay vectorisable. Float sums are blocked like NumPy's pairwise sum: each lane sums
    ``BLOCK`` terms into a block accumulator, which is then added to the lane's total (so a
    chunk of ``MAX_CHUNK`` elements costs at most ``BLOCK + MAX_CHUNK / (LANES * BLOCK)``
    rounding steps per lane, not ``MAX_CHUNK / LANES``); then lanes, then partials.
    Interleaved (GPU) kernels block the same way over their strided run.
    """
    red = spec.reduce
    assert red is not None
    if red.stage == "columns":
        return _render_columns(spec, expr)
    acc_t, idx = ctype(red.acc), spec.index
    lanes = LANES if red.chunked else 1
    blocked = red.op == "sum" and red.acc.kind in "fc"
    zero = identity(red.op, red.acc)
    lines = prologue(spec) + [signature(spec, REDUCE_NAME)]
    lines += [f"    const {idx} p = get_global_id(0);", f"    const {idx} M = K ? n / K : 0;",
              "    if (p >= M * P) return;", f"    const {idx} j = p / P;"]
    for lane in range(lanes):
        lines.append(f"    {acc_t} acc{lane} = {zero};")
        if red.arg:
            lines.append(f"    long best{lane} = -1;")
    index_ref = spec.outputs[1][1] if red.arg else None
    value_ref = spec.outputs[0][1]

    odometer = red.chunked and spec.strided

    def element(lane: int, offset: str, into: str = "acc") -> list[str]:
        body, dtypes = value_lines(spec, expr, pad="    ")
        if odometer:
            body = _drop_coordinates(spec, body)
        vi = f"k{offset}" if index_ref is None or index_ref[0] == "idx" else ref_name(index_ref)
        value = cast(dtypes[value_ref], red.acc, ref_name(value_ref))
        return ["    {", f"    const {idx} g = j * K + k{offset};", *body,
                *("    " + line for line in _fold(spec, expr, lane, value, vi, into)),
                *(["    " + _advance(spec.rank)] if odometer else []), "    }"]

    def indent(block: list[str], depth: int = 1) -> list[str]:
        return ["    " * depth + line for line in block]

    if red.chunked:
        lines.append(f"    const {idx} C = (K + P - 1) / P, k0 = (p - j * P) * C, k1 = min(k0 + C, K);")
        lines.append(f"    {idx} k = k0;")
        if odometer:  # coordinates of g = j * K + k0, then stepped per element (no division in the loop)
            coords = ", ".join(f"c{d}" for d in range(spec.rank))
            lines.append(f"    {idx} {coords};")
            lines.append(f"    {{ {idx} r = j * K + k0;")
            lines += [f"      c{d} = r % d{d}; r /= d{d};" for d in range(spec.rank - 1, 0, -1)]
            lines.append("      c0 = r; }")
        if _vector(spec, expr):  # float8 loads and accumulator; its components are the lanes
            vt = f"{acc_t}{LANES}"
            step = expr(Instr(COMBINE[red.op], (), red.acc), (red.acc, red.acc), ("acc_v", "b_v"))
            lines.append(f"    {vt} acc_v = ({vt})({zero});")
            lines.append(f"    for (; k + {lanes} <= k1;) {{")
            lines.append(f"        const {idx} kb = min(k + {lanes * BLOCK}, k1);")
            lines.append(f"        {vt} b_v = ({vt})({zero});")
            lines.append(f"        for (; k + {lanes} <= kb; k += {lanes}) {{")
            lines += indent(_vector_element(spec, expr, "j * K + k", "b_v"), 3)
            lines.append("        }")
            lines.append(f"        acc_v = {step};")
            lines.append("    }")
            lines += [f"    acc{lane} = acc_v.s{lane};" for lane in range(lanes)]
        elif blocked:
            lines.append(f"    for (; k + {lanes} <= k1;) {{")
            lines.append(f"        const {idx} kb = min(k + {lanes * BLOCK}, k1);")
            lines += [f"        {acc_t} b{lane} = {zero};" for lane in range(lanes)]
            lines.append(f"        for (; k + {lanes} <= kb; k += {lanes}) {{")
            for lane in range(lanes):
                lines += indent(element(lane, f" + {lane}" if lane else "", "b"), 2)
            lines.append("        }")
            for lane in range(lanes):
                lines += indent(_fold(spec, expr, lane, f"b{lane}", ""), 2)
            lines.append("    }")
        else:
            lines.append(f"    for (; k + {lanes} <= k1; k += {lanes}) {{")
            for lane in range(lanes):
                lines += indent(element(lane, f" + {lane}" if lane else ""))
            lines.append("    }")
        lines.append("    for (; k < k1; k++) {")
        lines += indent(element(0, ""))
        lines.append("    }")
    elif blocked:
        lines.append(f"    for ({idx} k = p - j * P; k < K;) {{")
        lines.append(f"        {acc_t} b0 = {zero};")
        lines.append(f"        for (int i = 0; i < {BLOCK * LANES} && k < K; i++, k += P) {{")
        lines += indent(element(0, "", "b"), 2)
        lines.append("        }")
        lines += indent(_fold(spec, expr, 0, "b0", ""), 2)
        lines.append("    }")
    else:
        lines.append(f"    for ({idx} k = p - j * P; k < K; k += P) {{")
        lines += indent(element(0, ""))
        lines.append("    }")
    step = 1
    while step < lanes:  # join the lanes as a tree: (0+1)+(2+3)...
        for lane in range(0, lanes, 2 * step):
            lines += indent(_fold(spec, expr, lane, f"acc{lane + step}", f"best{lane + step}"))
        step *= 2
    final = "(acc0 / count)" if red.mean else "acc0"
    out = spec.outputs[0][0]
    lines.append(f"    out0[out0_o + p] = {cast(red.acc, out.dtype, final)};")
    if red.arg:
        lines.append("    out1[out1_o + p] = best0;")
    lines.append("}")
    return "\n".join(lines) + "\n"


COLUMNS = 8192  # widest stripe of a "columns" work-item (32 KiB of float32 partial results)


def _render_columns(spec: KernelSpec, expr: ExprFn) -> str:
    """A first-stage kernel for reductions whose kept axes are innermost in memory (``sum(x,
    axis=0)`` of a C-order matrix) on CPU devices. The index space is ``[reduced..., kept...]``,
    so element (k, j) is ``g = k * M + j``. Work-item ``p`` owns the stripe of outputs
    ``j0 = (p / P) * COLUMNS`` .. ``j0 + COLUMNS`` (all of a row when ``M <= COLUMNS``) and
    chunk ``p % P`` of ``K``: it streams its rows and folds each element into its partial result
    ``out[part * M + j]``, which stay in cache (layout ``[P, M]``, unlike the row kernel's
    ``[M, P]``; float32 sums and products fold float8 at a time). The reduce planner picks a
    small ``P`` (the device's compute units), so the combine pass over ``P`` is short. Each
    partial sums its column serially, as NumPy's own axis-0 sum does."""
    red = spec.reduce
    assert red is not None
    acc_t, idx = ctype(red.acc), spec.index
    assert spec.outputs[0][0].dtype == red.acc, "the partial results are folded in place"
    value_ref = spec.outputs[0][1]
    lines = prologue(spec) + [signature(spec, REDUCE_NAME)]
    lines += [f"    const {idx} p = get_global_id(0);", f"    const {idx} M = K ? n / K : 0;",
              f"    const {idx} B = (M + {COLUMNS - 1}) / {COLUMNS};", "    if (p >= B * P) return;",
              f"    const {idx} b = p / P, part = p - b * P, j0 = b * {COLUMNS}, cw = min(({idx}){COLUMNS}, M - j0);",
              f"    const {idx} C = (K + P - 1) / P, k0 = part * C, k1 = min(k0 + C, K);",
              f"    __global {acc_t}* acc = out0 + out0_o + part * M + j0;"]
    if red.arg:
        lines.append("    __global long* best = out1 + out1_o + part * M + j0;")
    init = f"acc[c] = {identity(red.op, red.acc)};" + (" best[c] = -1;" if red.arg else "")
    lines.append(f"    for ({idx} c = 0; c < cw; c++) {{ {init} }}")
    if spec.strided:
        lines.append(f"    {idx} {', '.join(f'c{d}' for d in range(spec.rank))};")
    lines.append(f"    for ({idx} k = k0; k < k1; k++) {{")
    if spec.strided:  # coordinates of (k, j0) once per row, then stepped per column
        lines.append(f"        {{ {idx} r = k * M + j0;")
        lines += [f"          c{d} = r % d{d}; r /= d{d};" for d in range(spec.rank - 1, 0, -1)]
        lines.append("          c0 = r; }")
    lines.append(f"        {idx} c = 0;")
    if _vector(spec, expr):
        vt = f"{acc_t}{LANES}"
        lines.append(f"        for (; c + {LANES} <= cw; c += {LANES}) {{")
        lines.append(f"            {vt} part_v = *(__global {vt}_u*)(acc + c);")
        lines += ["            " + x for x in _vector_element(spec, expr, "k * M + j0 + c", "part_v")]
        lines.append(f"            *(__global {vt}_u*)(acc + c) = part_v;")
        lines.append("        }")
    lines.append("        for (; c < cw; c++) {")
    body, dtypes = value_lines(spec, expr, pad="")
    if spec.strided:
        body = _drop_coordinates(spec, body)
    value = cast(dtypes[value_ref], red.acc, ref_name(value_ref))
    lines.append(f"            const {idx} g = k * M + j0 + c;")
    lines += ["            " + x for x in body]
    lines += ["            " + x for x in _fold(spec, expr, "", value, "k", "acc[c]", "best[c]")]
    if spec.strided:
        lines.append("            " + _advance(spec.rank))
    lines.append("        }")
    lines.append("    }")
    if red.mean:
        lines.append(f"    for ({idx} c = 0; c < cw; c++) acc[c] = acc[c] / count;")
    lines.append("}")
    return "\n".join(lines) + "\n"
