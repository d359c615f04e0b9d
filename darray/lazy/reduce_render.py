"""Render a reduction :class:`KernelSpec` (the plans are in ``darray/lazy/reduce.py``).

CPU devices. Row kernels (stages ``first``, ``rows``): work-item ``p`` folds part ``p % P``
of output ``j = p / P``, a contiguous run folded in ``LANES`` lanes, evaluating the fused
elementwise body at ``g = j * K + k`` (with strided inputs, row by row of the index space's
innermost dimension: :func:`_strided_rows`). Column kernels (stage ``columns``): see
``reduce_columns.py``. Group kernels (stages ``group`` and ``groups``, CPU runtimes that
vectorise across work-items): see :func:`_render_groups`. The GPU tree kernels (stages
``tree`` and ``trees``) are in ``reduce_gpu.py``.

Outputs: the results (values; for argmax/argmin also int64 indices). Stages ``rows`` and
``columns`` finish in the same launch: they also get scratch outputs (partial values, partial
indices for arg reductions, and int32 counters that are zero before and after every launch);
each task writes its partial result, and the last of an output's (or stripe's) tasks, found
by an atomic counter, folds the partials into the result and resets the counter.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..dtypes import ctype, real_dtype
from . import table, user
from .render import (
    advance,
    cast,
    coordinates,
    prologue,
    ref_name,
    signature,
    value_lines,
    vector_ref,
    vector_values,
)
from .spec import Instr, KernelSpec, Operand, Reduction, Ref

REDUCE_NAME = "reduce"
LANES = 8    # independent accumulators per chunked work-item (one float8 where the body vectorises)
BLOCK = 16   # float sums: terms per lane summed into a fresh block accumulator before joining acc
GROUP = 16   # group kernels: work-items of a work-group that share a task (a SIMD group of Intel's runtime)
GROUP_STAGES = ("group", "groups")
# Before each loop of a float sum's lanes: Intel's CPU compiler otherwise reassociates the lanes'
# sums where its loop vectoriser takes them (groups under 16 work-items, AVX-512), in an order the
# sizes do not predict; kept as written, the host engine computes the same bits (``host_sum``).
# Other compilers do not vectorise these loops (GPUs) or keep the order anyway (PoCL).
KEEP_ORDER = "#pragma clang loop vectorize(disable) interleave(disable)"
_FLOAT32 = np.dtype(np.float32)
Element = Callable[[int, str, str], list[str]]


def identity(op: str, dt: np.dtype) -> str:
    """C literal of the neutral start value of ``op`` in ``dt`` (``table.FOLDS``; a user fold's own)."""
    t = ctype(dt)
    custom = user.get(op)
    if custom is not None:
        return f"(({t})({custom.identity}))"
    fold = table.FOLDS[op]
    if fold.identity is not None:
        one = int(fold.identity)
        return f"({t})({one})" if dt.kind != "c" else f"({t})({one}, 0)"
    low = fold.low
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


_VECTOR_STEP = {"max": "select({1}, {0}, ({0} > {1}) | ({0} != {0}))",
                "min": "select({1}, {0}, ({0} < {1}) | ({0} != {0}))"}
def _combine(op: str) -> str:
    """The elementwise op joining two partials of reduction ``op`` (a user fold: its own op)."""
    fold = table.FOLDS.get(op)
    return fold.combine if fold is not None and fold.combine is not None else op


def _better(op: str) -> str:
    """The C comparison by which a value beats the best so far in max/min/argmax/argmin."""
    return ">" if table.FOLDS[op].low else "<"


def _extreme(op: str, s: str, x: str) -> str:
    """float8 max/min of ``s`` and ``x`` as one compare and blend (NaN not propagated: the
    caller keeps a NaN mask ``nn |= x != x``, cheaper than a NaN test per fold)."""
    return f"({x} {_better(op)} {s}) ? {x} : {s}"


def _arg_better(op: str, x: str, s: str) -> str:
    """int8 mask: lanes where ``x`` replaces ``s`` in argmax/argmin of float8 values seen in
    increasing index order (strictly better, or the first NaN; ties keep the earlier index)."""
    return f"((({x}) {_better(op)} ({s})) | ((({x}) != ({x})) & (({s}) == ({s}))))"


def _step(spec: KernelSpec, a: str, b: str, vector: bool = False) -> str:
    """C expression folding ``b`` into ``a`` (scalars, or float8 if ``vector``: NaN-propagating
    max/min as one ``select``, as PoCL calls ``isnan`` on vectors out of line); a user fold is an
    op of its own."""
    red = spec.reduce
    assert red is not None
    if vector and red.op in _VECTOR_STEP:
        return _VECTOR_STEP[red.op].format(a, f"({b})")
    return table.c(Instr(_combine(red.op), (), red.acc), (red.acc, red.acc), (a, f"({b})"))


def _fold(spec: KernelSpec, lane: int | str, value: str, vi: str, into: str = "acc",
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
    return [f"{a} = {_step(spec, a, value)};"]


def _indent(block: list[str], depth: int = 1) -> list[str]:
    return ["    " * depth + line for line in block]


def _vectorisable(spec: KernelSpec, ops: tuple[str, ...], patterns: str = "c0") -> bool:
    """Whether a chunked float32 reduction (one of ``ops``) reads only inputs of ``patterns``
    (contiguous or single-element; with ``"s"``, strided too: rows of unit stride, see
    :func:`_strided_rows`) through vector-safe ops (``lazy.table.vector``: float8 templates, or
    user ops whose float8 overloads compiled), so blocks of ``LANES`` elements load, compute
    and fold as float8. A user fold vectorises where ``sum`` does. Not double8 (see
    ``render.vector_width``)."""
    red = spec.reduce
    assert red is not None
    dts = {o.dtype for o in spec.inputs} | {spec.outputs[0][0].dtype} | {i.dtype for i in spec.body} \
        | set(spec.scalars) | {red.acc}
    fold = table.vector(red.op) and "sum" in ops if user.get(red.op) is not None else \
        red.op in ops and (red.arg or table.vector(_combine(red.op)))
    body = all(table.vector(i.op) for i in spec.body)
    return red.chunked and fold and dts == {_FLOAT32} and body and all(o.pattern in patterns for o in spec.inputs)


def blocked(red: Reduction) -> bool:
    """Whether a reduction's lanes fold in blocks (see :func:`_lanes`): float sums and user folds
    (associative by contract, so they follow ``sum``'s order on every path)."""
    return red.acc.kind in "fc" and (red.op == "sum" or user.get(red.op) is not None)


def _final(spec: KernelSpec, value: str, best: str, at: str) -> list[str]:
    """Store a finished fold (divided by ``count`` for a mean) as result ``at``."""
    red = spec.reduce
    assert red is not None
    final = f"({value} / count)" if red.mean else value
    if red.mean and red.acc.kind == "c":  # NumPy divides by a complex count (Smith's algorithm: inf -> inf+nanj)
        final = f"cdiv_{ctype(real_dtype(red.acc))}({value}, ({ctype(red.acc)})(count, 0))"
    custom = user.get(red.op)
    if custom is not None and custom.post:  # the user's post-map gives the output's dtype
        return [f"out0[out0_o + {at}] = {custom.post}({value});"]
    lines = [f"out0[out0_o + {at}] = {cast(red.acc, spec.outputs[0][0].dtype, final)};"]
    return lines + ([f"out1[out1_o + {at}] = {best};"] if red.arg else [])


def _scratch(spec: KernelSpec) -> list[str]:
    """Pointers to the scratch outputs of a one-launch kernel: ``part``, ``part_i``, ``done``."""
    red = spec.reduce
    assert red is not None
    v, last = 1 + red.arg, len(spec.outputs) - 1
    lines = [f"    __global {ctype(red.acc)}* part = out{v} + out{v}_o;"]
    if red.arg:
        lines.append(f"    __global long* part_i = out{v + 1} + out{v + 1}_o;")
    return lines + [f"    __global int* done = out{last} + out{last}_o;"]


def _last(counter: str) -> list[str]:
    """Publish this task's partials; only the last task of ``counter`` goes on (and resets it)."""
    return ["    mem_fence(CLK_GLOBAL_MEM_FENCE);",
            f"    if (atomic_inc(done + {counter}) != P - 1) return;",
            "    mem_fence(CLK_GLOBAL_MEM_FENCE);",
            f"    done[{counter}] = 0;"]


# -- row kernels ---------------------------------------------------------------------------------

def _lanes(spec: KernelSpec, element: Element, vector: list[str] | None = None,
           tail: bool = False, stride: int = 1, lanes: int = LANES, var: str = "k", end: str = "k1",
           into: str = "acc") -> list[str]:
    """Fold ``var`` over ``[var, end)`` into ``lanes`` lanes ``<into>0..<into>7`` (declared by the
    caller): ``vector`` (float8 body lines folding elements ``k..k+7`` into ``b_v``) in blocks, or
    blocked scalar lanes for float sums, or plain lanes; then the tail in lane 0 (only that if
    ``tail``). ``element(lane, offset, into)`` folds element ``var + offset``.

    Float sums are blocked like NumPy's pairwise sum: each lane sums ``BLOCK`` terms into a block
    accumulator, ``BLOCK`` blocks into a super-block accumulator, and those into the lane's
    total (so a chunk of 65536 elements costs at most ``2 * BLOCK + 65536 / (LANES * BLOCK**2)``
    rounding steps per lane), then lanes join as a tree. (Vector products block the same way.)
    ``stride``: every ``stride``-th element from ``var`` (the GPU tree kernels' lanes; no ``vector``).
    Every address in the loops must be a function of ``var`` (no second induction variable:
    Intel's CPU compiler, where its cost model vectorises these loops (AVX-512), miscompiled
    an odometer stepped beside ``k`` into reads past the view).
    """
    red = spec.reduce
    assert red is not None
    acc_t, idx, zero = ctype(red.acc), spec.index, identity(red.op, red.acc)
    step, span, superspan = lanes * stride, lanes * BLOCK * stride, lanes * BLOCK * BLOCK * stride
    k, k1 = var, end
    lines = []
    if tail:
        pass
    elif vector is not None:  # float8 loads and block accumulators; their components are the lanes
        vt = f"{acc_t}{LANES}"
        lines += [f"for (; {k} + {LANES} <= {k1};) {{",
                  f"    const {idx} kc = min({k} + {superspan}, {k1});",
                  f"    {vt} c_v = ({vt})({zero});",
                  f"    for (; {k} + {LANES} <= kc;) {{",
                  f"        const {idx} kb = min({k} + {span}, kc);",
                  f"        {vt} b_v = ({vt})({zero});",
                  f"        for (; {k} + {LANES} <= kb; {k} += {LANES}) {{", *_indent(vector, 3), "        }",
                  f"        c_v = {_step(spec, 'c_v', 'b_v')};", "    }",
                  *[f"    {line}" for q in range(LANES) for line in _fold(spec, q, f"c_v.s{q}", "", into)], "}"]
    elif blocked(red):
        lines += [KEEP_ORDER, f"for (; {k} + {step} <= {k1};) {{",
                  f"    const {idx} kc = min({k} + {superspan}, {k1});"]
        lines += [f"    {acc_t} u{lane} = {zero};" for lane in range(lanes)]
        lines += [f"    {KEEP_ORDER}", f"    for (; {k} + {step} <= kc;) {{",
                  f"        const {idx} kb = min({k} + {span}, kc);"]
        lines += [f"        {acc_t} b{lane} = {zero};" for lane in range(lanes)]
        lines += [f"        {KEEP_ORDER}", f"        for (; {k} + {step} <= kb; {k} += {step}) {{"]
        for lane in range(lanes):
            lines += _indent(element(lane, f" + {lane * stride}" if lane else "", "b"), 3)
        lines.append("        }")
        for lane in range(lanes):
            lines += _indent(_fold(spec, lane, f"b{lane}", "", "u"), 2)
        lines.append("    }")
        for lane in range(lanes):
            lines += _indent(_fold(spec, lane, f"u{lane}", "", into))
        lines.append("}")
    else:
        lines.append(f"for (; {k} + {step} <= {k1}; {k} += {step}) {{")
        for lane in range(lanes):
            lines += _indent(element(lane, f" + {lane * stride}" if lane else "", into))
        lines.append("}")
    if blocked(red):
        lines.append(KEEP_ORDER)
    lines.append(f"for (; {k} < {k1}; {k} += {stride}) {{")
    lines += _indent(element(0, "", into))
    lines.append("}")
    return lines


def _join(spec: KernelSpec, lanes: int) -> list[str]:
    """Join lanes ``acc0..`` into ``acc0`` as a tree: (0+1)+(2+3)..."""
    lines, step = [], 1
    while step < lanes:
        for lane in range(0, lanes, 2 * step):
            lines += _fold(spec, lane, f"acc{lane + step}", f"best{lane + step}")
        step *= 2
    return lines


def _vector_extremes(spec: KernelSpec, vt: str, value_ref: Ref) -> list[str]:
    """Row kernels, float32 max/min/argmax/argmin: fold whole float8 blocks of ``k..k1`` into
    lanes ``acc0..acc7`` (and ``best0..``: lane ``l`` sees indices ``k + l``), leaving the
    tail to the scalar loop. Max/min keep a NaN mask instead of testing each fold."""
    red = spec.reduce
    assert red is not None
    idx, zero, iv = spec.index, identity(red.op, red.acc), f"int{LANES}"
    lines = [f"{vt} acc_v = ({vt})({zero});",
             f"{iv} nn = ({iv})(0);" if not red.arg else f"{iv} bi_v = ({iv})(-1);",
             f"for (; k + {LANES} <= k1; k += {LANES}) {{", f"    const {idx} g = j * K + k;",
             *vector_values(spec, vt, "    "), f"    const {vt} x_ = {vector_ref(value_ref, vt)};"]
    if red.arg:
        lines += [f"    const {iv} t_ = {_arg_better(red.op, 'x_', 'acc_v')} | (bi_v < 0);",
                  "    acc_v = select(acc_v, x_, t_);",
                  f"    bi_v = select(bi_v, ({iv})(k) + ({iv})({', '.join(map(str, range(LANES)))}), t_);", "}"]
        return lines + [f"acc{lane} = acc_v.s{lane}; best{lane} = bi_v.s{lane};" for lane in range(LANES)]
    lines += [f"    acc_v = {_extreme(red.op, 'acc_v', 'x_')};", "    nn |= x_ != x_;", "}",
              f"acc_v = select(acc_v, ({vt})(NAN), nn);"]
    return lines + [f"acc{lane} = acc_v.s{lane};" for lane in range(LANES)]


def render_reduce(spec: KernelSpec) -> str:
    """OpenCL source for a reduction ``spec`` (see the module docstring)."""
    assert spec.reduce is not None
    render = _render_groups if spec.reduce.stage in GROUP_STAGES else _render_rows
    return render(spec) + "\n"


def _render_rows(spec: KernelSpec) -> str:
    """A row kernel (see the module docstring); stage ``rows`` finishes its outputs itself."""
    red = spec.reduce
    assert red is not None
    acc_t, idx, zero = ctype(red.acc), spec.index, identity(red.op, red.acc)
    lanes = LANES
    lines = prologue(spec) + [signature(spec, REDUCE_NAME)]
    lines += [f"    const {idx} p = get_global_id(0);", f"    const {idx} M = K ? n / K : 0;",
              "    if (p >= M * P) return;", f"    const {idx} j = p / P;"]

    def reset() -> list[str]:
        return [f"{acc_t} acc{lane} = {zero};" + (f" long best{lane} = -1;" if red.arg else "")
                for lane in range(lanes)]

    lines += _indent(reset())
    index_ref = spec.outputs[1][1] if red.arg else None
    value_ref = spec.outputs[0][1]

    def element(lane: int, offset: str, into: str) -> list[str]:
        body, dtypes = value_lines(spec, pad="    ")
        vi = f"k{offset}" if index_ref is None or index_ref[0] == "idx" else ref_name(index_ref)
        value = cast(dtypes[value_ref], red.acc, ref_name(value_ref))
        return ["{", f"    const {idx} g = j * K + k{offset};", *body,
                *_indent(_fold(spec, lane, value, vi, into)), "}"]

    lines.append(f"    const {idx} C = (K + P - 1) / P, k0 = (p - j * P) * C, k1 = min(k0 + C, K);")
    lines.append(f"    {idx} k = k0;")
    if spec.strided:
        lines += _indent(_strided_rows(spec))
        return _finish_rows(spec, lines, reset)
    vector, tail = None, False
    vt = f"{acc_t}{LANES}"
    if _vectorisable(spec, ("sum", "prod")):
        vector = ["{", f"    const {idx} g = j * K + k;", *vector_values(spec, vt, "    "),
                  f"    b_v = {_step(spec, 'b_v', vector_ref(value_ref, vt))};", "}"]
    elif _vectorisable(spec, ("max", "min") + (("argmax", "argmin") if idx == "int" else ())):
        lines += _indent(_vector_extremes(spec, vt, value_ref))
        tail = True
    lines += _indent(_lanes(spec, element, vector, tail))
    return _finish_rows(spec, lines, reset)


def _finish_rows(spec: KernelSpec, lines: list[str], reset: Callable[[], list[str]]) -> str:
    """Join a row kernel's lanes and store the result (stage ``first``), or publish the partial
    and let the output's last work-item fold its ``P`` partials (stage ``rows``)."""
    red = spec.reduce
    assert red is not None
    idx = spec.index
    lines += _indent(_join(spec, LANES))
    if red.stage != "rows":
        lines += _indent(_final(spec, "acc0", "best0", "p"))
        return "\n".join(lines + ["}"])
    # one launch: publish the partial; the output's last work-item folds its P partials
    lines += _scratch(spec) + ["    part[p] = acc0;"] + (["    part_i[p] = best0;"] if red.arg else [])
    lines += _last("j")

    def partial(lane: int, offset: str, into: str) -> list[str]:
        return _fold(spec, lane, f"part[j * P + k{offset}]", f"part_i[j * P + k{offset}]", into)

    finish = [*reset(), f"{idx} k = 0;", f"const {idx} k1 = P;", *_lanes(spec, partial),
              *_join(spec, LANES), *_final(spec, "acc0", "best0", "j")]
    return "\n".join(lines + ["    {", *_indent(finish, 2), "    }", "}"])


def _strided_rows(spec: KernelSpec) -> list[str]:
    """A row kernel's run ``[k, k1)`` over strided inputs, one row of the index space's innermost
    dimension at a time: each row's strided inputs get a base offset ``in<i>_r`` from the
    coordinates (stepped per row, no division), and the row's elements fold through
    :func:`_lanes` with every address a function of the row's loop variable ``e``. Float sums
    fold rows into lanes ``r0..r7`` (rotated after each row, so short rows' tails spread over
    the lanes) that join ``acc`` every ``LANES * BLOCK**2`` elements: blocked like a dense run.
    Float32 sums whose body has float8 templates walk rows whose strided inputs all have unit
    innermost stride (``unit``, a test of kernel arguments: Dask's chunks, column slices) with
    float8 loads, blocked and folded in the order of the scalar lanes (the same order in the
    source; the bits only where the compiler keeps it, which Intel's CPU compiler does not where its
    cost model vectorises the scalar walk, as on AVX-512 machines; products keep the scalar walk,
    whose lanes are not blocked); on Intel's CPU runtime about 1.7x the scalar
    walk's bandwidth on 2048^2 blocks of a 16384^2 array."""
    red = spec.reduce
    assert red is not None
    acc_t, idx, zero, r = ctype(red.acc), spec.index, identity(red.op, red.acc), spec.rank
    index_ref = spec.outputs[1][1] if red.arg else None
    value_ref = spec.outputs[0][1]
    strided = [i for i, op in enumerate(spec.inputs) if op.pattern == "s"]
    sums = blocked(red)
    into = "r" if sums else "acc"

    def element(lane: int, offset: str, target: str) -> list[str]:
        def at(spec: KernelSpec, op: Operand, name: str) -> str:
            return {"c": f"{name}_o + g", "0": f"{name}_o"}.get(op.pattern, f"{name}_r + (e{offset}) * {name}_s{r - 1}")

        body, dtypes = value_lines(spec, pad="    ", stepped=True, index=at)
        vi = f"k + e{offset}" if index_ref is None or index_ref[0] == "idx" else ref_name(index_ref)
        value = cast(dtypes[value_ref], red.acc, ref_name(value_ref))
        return ["{", f"    const {idx} g = j * K + k + e{offset};", *body,
                *_indent(_fold(spec, lane, value, vi, target)), "}"]

    row = [f"const {idx} e1 = " + (f"min(d{r - 1} - c{r - 1}, k1 - k);" if r > 1 else "k1 - k;")]
    row += [f"const {idx} in{i}_r = in{i}_o + " + " + ".join(f"c{d} * in{i}_s{d}" for d in range(r)) + ";"
            for i in strided]
    row.append(f"{idx} e = 0;")
    lanes = _lanes(spec, element, var="e", end="e1", into=into)
    lines = coordinates(spec, "j * K + k0")
    if _vectorisable(spec, ("sum",), "cs0"):  # rows of unit stride: float8 loads, the same folds
        def at(spec: KernelSpec, op: Operand, name: str) -> str:
            return f"{name}_o + g" if op.pattern == "c" else f"{name}_r + e"

        vt = f"{acc_t}{LANES}"
        vector = ["{", f"    const {idx} g = j * K + k + e;", *vector_values(spec, vt, "    ", index=at),
                  f"    b_v = {_step(spec, 'b_v', vector_ref(value_ref, vt))};", "}"]
        lines.append("const int unit = " + " && ".join(f"in{i}_s{r - 1} == 1" for i in strided) + ";")
        row += ["if (unit) {", *_indent(_lanes(spec, element, vector, var="e", end="e1", into=into)),
                "} else {", *_indent(lanes), "}"]
    else:
        row += lanes
    if sums:
        lines += [f"{acc_t} r{lane} = {zero};" for lane in range(LANES)] + [f"{idx} nr = 0;"]
        row += [f"{{ const {acc_t} r_ = r0; " + " ".join(f"r{q} = r{q + 1};" for q in range(LANES - 1))
                + f" r{LANES - 1} = r_; }}", "nr += e1;", f"if (nr >= {LANES * BLOCK * BLOCK}) {{",
                *_indent([line for q in range(LANES) for line in _fold(spec, q, f"r{q}", "")]),
                *_indent([f"r{q} = {zero};" for q in range(LANES)] + ["nr = 0;"]), "}"]
    row.append("k += e1;")
    if r > 1:
        row += [f"c{r - 1} = 0;", advance(r - 1)]
    lines += ["while (k < k1) {  /* one row of the innermost dimension */", *_indent(row), "}"]
    if sums:
        lines += [line for q in range(LANES) for line in _fold(spec, q, f"r{q}", "")]
    return lines


# -- group kernels -------------------------------------------------------------------------------

def _render_groups(spec: KernelSpec) -> str:
    """A one-launch row kernel for CPU runtimes that vectorise across work-items (the ``item`` form):
    task ``t`` (part ``t % P`` of output ``j = t / P``, a contiguous run ``[k0, k1)``) goes to a
    work-group, whose first ``GROUP`` work-items walk it interleaved (lane ``v`` reads
    ``k0 + v + i * GROUP``: a loop of the same trip count in every work-item, neighbouring
    work-items on neighbouring elements, so the runtime's implicit vectorisation makes it
    vector loads over one contiguous run). The other work-items of the group skip the loop:
    with all 64 walking the run, the runtime runs its SIMD groups one after another, each over
    every row of the run (0.3x the copy bandwidth); with one SIMD group, 0.9-1.2x. (A group
    of fewer than ``GROUP`` work-items takes several lanes per work-item, in slower code.)
    Float sums (and products) are blocked per lane (``BLOCK`` terms, ``BLOCK`` blocks, then the
    total), like the chunked lanes; the lanes then join as a tree in local memory. Stage ``group`` (P == 1)
    stores the result; stage ``groups`` publishes the task's partial and the last task of an
    output folds its ``P`` partials (as the ``rows`` stage). A group loops over tasks, so any
    number of work-groups is right."""
    red = spec.reduce
    assert red is not None
    acc_t, idx, zero, arg = ctype(red.acc), spec.index, identity(red.op, red.acc), red.arg
    index_ref = spec.outputs[1][1] if arg else None
    value_ref = spec.outputs[0][1]
    W = GROUP

    def element(into: str) -> list[str]:
        body, dtypes = value_lines(spec, pad="    ")
        vi = "k" if index_ref is None or index_ref[0] == "idx" else ref_name(index_ref)
        value = cast(dtypes[value_ref], red.acc, ref_name(value_ref))
        return ["{", f"    const {idx} g = j * K + k;", *body, *_indent(_fold(spec, 0, value, vi, into)), "}"]

    def lane(v: str) -> list[str]:
        """Lane ``v`` folds its elements of the task into ``sh[v]`` (``shi[v]``)."""
        out = [f"{acc_t} acc0 = {zero};" + (" long best0 = -1;" if arg else ""), f"{idx} k = k0 + {v}, i = 0;"]
        if red.op == "prod" and red.acc.kind in "fc" or blocked(red):  # products block the same way
            inner = [f"    {acc_t} b0 = {zero};", f"    for (int q = 0; q < {BLOCK}; q++, k += {W}) {{",
                     *_indent(element("b"), 2), "    }"]
            out += [f"for (; i + {BLOCK * BLOCK} <= R; i += {BLOCK * BLOCK}) {{", f"    {acc_t} u0 = {zero};",
                    f"    for (int c = 0; c < {BLOCK}; c++) {{", *_indent(inner),
                    *_indent(_fold(spec, 0, "b0", "", "u"), 2), "    }",
                    *_indent(_fold(spec, 0, "u0", "")), "}",
                    f"for (; i + {BLOCK} <= R; i += {BLOCK}) {{", *inner, *_indent(_fold(spec, 0, "b0", "")), "}"]
        out += [f"for (; i < R; i++, k += {W}) {{", *_indent(element("acc")), "}",
                "if (k < k1) {", *_indent(element("acc")), "}",
                f"sh[{v}] = acc0;" + (f" shi[{v}] = best0;" if arg else "")]
        return ["{", *_indent(out), "}"]

    lines = prologue(spec) + [signature(spec, REDUCE_NAME)]
    lines += [f"    const {idx} M = K ? n / K : 0;", "    const int l = get_local_id(0), L = get_local_size(0);",
              f"    __local {acc_t} sh[{W}];"] + ([f"    __local long shi[{W}];"] if arg else [])
    if red.stage == "groups":
        lines += _scratch(spec)
    task = [f"const {idx} j = t / P;",
            f"const {idx} C = (K + P - 1) / P, k0 = min((t - j * P) * C, K), k1 = min(k0 + C, K);",
            f"const {idx} R = (k1 - k0) / {W};  /* full rows of {W} elements: the same in every lane */",
            f"if (L >= {W}) {{", f"    if (l < {W}) {{  /* one SIMD group works, the others wait */",
            *_indent(lane("l"), 2), "    }", "} else {", f"    for (int v = l; v < {W}; v += L) {{",
            *_indent(lane("v"), 2), "    }", "}", "barrier(CLK_LOCAL_MEM_FENCE);"]
    reset = [f"{acc_t} acc{v} = sh[{v}];" + (f" long best{v} = shi[{v}];" if arg else "") for v in range(W)]
    first = [*reset, *_join(spec, W)]
    if red.stage == "group":
        first += _final(spec, "acc0", "best0", "j")
    else:
        def partial(ln: int, offset: str, into: str) -> list[str]:
            return _fold(spec, ln, f"part[j * P + k{offset}]", f"part_i[j * P + k{offset}]", into)

        zeros = [f"{acc_t} acc{v} = {zero};" + (f" long best{v} = -1;" if arg else "") for v in range(LANES)]
        finish = [*zeros, f"{idx} k = 0;", f"const {idx} k1 = P;", *_lanes(spec, partial),
                  *_join(spec, LANES), *_final(spec, "acc0", "best0", "j")]
        first += ["part[t] = acc0;" + (" part_i[t] = best0;" if arg else ""), "mem_fence(CLK_GLOBAL_MEM_FENCE);",
                  "if (atomic_inc(done + j) == P - 1) {", "    mem_fence(CLK_GLOBAL_MEM_FENCE);", "    done[j] = 0;",
                  "    {", *_indent(finish, 2), "    }", "}"]
    task += ["if (l == 0) {", *_indent(["{", *_indent(first), "}"]), "}",
             "barrier(CLK_LOCAL_MEM_FENCE);  /* sh is reused by the next task */"]
    loop = f"for ({idx} t = get_group_id(0); t < M * P; t += get_num_groups(0)) {{"
    return "\n".join(lines + ["    " + loop, *_indent(task, 2), "    }", "}"])
