"""The gpu form's kernels for copies and casts (issue 29): strided copies through local-memory
tiles, contiguous ones four elements per work-item.

A copy or cast (one input, no scalars, an empty body or one ``cast``) whose collapsed index space
has two or more axes (a strided outer/inner pair, after merging contiguous axes) goes through
``TILE`` x ``TILE`` tiles in local memory (one column of padding against bank conflicts): each
work-group of ``TILE_GROUP`` work-items reads a tile along the input's faster axis and writes it
along the output's, so a transpose reads and writes whole runs; the outer axes are decoded once
per work-group, never per element. A contiguous copy or cast loads four source elements
(``vload4``), converts each with the scalar code's C expression (the same bits as one element per
work-item) and stores four (``vstore4``); the last work-item takes the tail one by one. Complex
operands go element by element, four per work-item. Everything else keeps ``render.render``.
"""
from __future__ import annotations

from ..dtypes import ctype
from .render import cast, prologue, signature
from .spec import KernelSpec, Operand

TILE = 32          # a tile's side
TILE_GROUP = 256   # work-items per tile: TILE lanes x TILE_GROUP // TILE rows of lanes
CAST_WIDTH = 4     # elements per work-item of contiguous copies and casts
_LANE_ROWS = TILE_GROUP // TILE


def copy_like(spec: KernelSpec) -> bool:
    """Whether ``spec`` copies or casts one array into another (no other op, no scalars)."""
    if spec.reduce is not None or spec.scalars or len(spec.inputs) != 1 or len(spec.outputs) != 1:
        return False
    if spec.inputs[0].pattern == "0":
        return False
    ref = spec.outputs[0][1]
    if not spec.body:
        return ref == ("in", 0)
    return len(spec.body) == 1 and spec.body[0].op == "cast" and spec.body[0].args == (("in", 0),) and ref == ("t", 0)


def gpu_kind(spec: KernelSpec, max_group: int) -> str:
    """``tiles`` (a copy or cast over two or more collapsed axes, on devices whose work-groups
    hold ``TILE_GROUP``), ``cast`` (a contiguous copy or cast), else '' (``render.render``)."""
    if not copy_like(spec):
        return ""
    if spec.rank >= 2:
        return "tiles" if max_group >= TILE_GROUP else ""
    return "cast" if all(op.pattern == "c" for op in spec.operands) else ""


def work_items(kind: str, shape: tuple[int, ...], n: int) -> int:
    """Work-items of a ``kind`` kernel over the collapsed ``shape`` (``n`` elements)."""
    if kind == "cast":
        return -(-n // CAST_WIDTH)
    outer = 1
    for d in shape[:-2]:
        outer *= d
    return outer * -(-shape[-2] // TILE) * -(-shape[-1] // TILE) * TILE_GROUP


def render_gpu(spec: KernelSpec, kind: str) -> str:
    """OpenCL source of a ``kind`` kernel (:func:`gpu_kind`) for ``spec``; entry ``elementwise``
    with ``render.params``' arguments (``ch``, and ``rh`` where tiled, unused)."""
    body = _tiles(spec) if kind == "tiles" else _cast(spec)
    return "\n".join([*prologue(spec), signature(spec, "elementwise"), *body, "}"]) + "\n"


def _value(spec: KernelSpec, x: str) -> str:
    """``x``, an element of the input, as the output's dtype (through the body's cast, if any, then
    the store's, as ``render`` writes them)."""
    src = spec.inputs[0].dtype
    if spec.body:
        x, src = cast(src, spec.body[0].dtype, x), spec.body[0].dtype
    return cast(src, spec.outputs[0][0].dtype, x)


def _cast(spec: KernelSpec) -> list[str]:
    idx, w = spec.index, CAST_WIDTH
    src, dst = spec.inputs[0].dtype, spec.outputs[0][0].dtype
    lines = [f"    const {idx} first = get_global_id(0) * {w};", f"    if (first + {w} <= n) {{"]
    if src.kind == "c":
        lines += [f"        const {ctype(src)} a{j} = in0[in0_o + first + {j}];" for j in range(w)]
        parts = [f"a{j}" for j in range(w)]
    else:
        lines.append(f"        const {ctype(src)}{w} a = vload{w}(0, in0 + in0_o + first);")
        parts = [f"a.s{j}" for j in range(w)]
    values = [_value(spec, p) for p in parts]
    if dst.kind == "c":
        lines += [f"        out0[out0_o + first + {j}] = {v};" for j, v in enumerate(values)]
    else:
        lines.append(f"        vstore{w}(({ctype(dst)}{w})({', '.join(values)}), 0, out0 + out0_o + first);")
    return lines + ["        return;", "    }",
                    f"    for ({idx} g = first; g < n; g++) out0[out0_o + g] = {_value(spec, 'in0[in0_o + g]')};"]


def _address(spec: KernelSpec, op: Operand, name: str, row: str, col: str) -> str:
    """The element of ``op`` at (``row``, ``col``) of the tile's outer index ``t``."""
    r = spec.rank
    if op.pattern == "c":
        return f"{name}_o + (t * R + {row}) * C + {col}"
    return f"{name}_q + {row} * {name}_s{r - 2} + {col} * {name}_s{r - 1}"


def _along(op: Operand, name: str, r: int) -> str:
    """C condition: ``op``'s columns are its faster axis (lanes then walk a row)."""
    return "1" if op.pattern == "c" else f"abs({name}_s{r - 1}) <= abs({name}_s{r - 2})"


def _tiles(spec: KernelSpec) -> list[str]:
    idx, r, t = spec.index, spec.rank, TILE
    inp, out = spec.inputs[0], spec.outputs[0][0]
    rows_expr = f"d{r - 2}" if r > 2 else f"(n / d{r - 1})"
    lines = [f"    __local {ctype(out.dtype)} tile[{t}][{t + 1}];",
             f"    const {idx} C = d{r - 1}, R = {rows_expr};",
             f"    const {idx} tc = (C + {t - 1}) / {t}, tr = (R + {t - 1}) / {t};",
             f"    {idx} t = get_group_id(0);",
             f"    const {idx} cb = (t % tc) * {t}; t /= tc;",
             f"    const {idx} rb = (t % tr) * {t}; t /= tr;",
             f"    const int lx = get_local_id(0) % {t}, ly = get_local_id(0) / {t};"]
    if r > 2:  # the outer axes' coordinates of this tile, once per work-group
        lines += [f"    {idx} {', '.join(f'c{d}' for d in range(r - 2))};", f"    {{ {idx} q = t;",
                  *[f"      c{d} = q % d{d}; q /= d{d};" for d in range(r - 3, 0, -1)], "      c0 = q; }"]
    for op, name in ((inp, "in0"), (out, "out0")):
        if op.pattern == "s":
            lines.append(f"    const {idx} {name}_q = {name}_o" +
                         "".join(f" + c{d} * {name}_s{d}" for d in range(r - 2)) + ";")
    for op, name, phase in ((inp, "in0", "read"), (out, "out0", "write")):
        at = _address(spec, op, name, "(rb + i)", "(cb + k)")
        move = f"tile[i][k] = {_value(spec, f'in0[{at}]')};" if phase == "read" else f"out0[{at}] = tile[i][k];"
        along = _along(op, name, r)
        if along == "1":
            lines += _moves(move, "ly + {j}", "lx")
        else:  # lanes walk a row where that is the faster axis, else a column (a transposed operand)
            lines += [f"    if ({along}) {{  /* {phase} along the rows */", *_moves(move, "ly + {j}", "lx"),
                      "    } else {", *_moves(move, "lx", "ly + {j}"), "    }"]
        if phase == "read":
            lines.append("    barrier(CLK_LOCAL_MEM_FENCE);")
    return lines


def _moves(move: str, i: str, k: str) -> list[str]:
    """``move`` at tile cell (``i``, ``k``) for each row ``j`` of lanes, inside the array's bounds;
    unrolled (Intel's CPU compiler crashed on the loop)."""
    return [f"        {{ const int i = {i.format(j=j)}, k = {k.format(j=j)}; if (rb + i < R && cb + k < C) {move} }}"
            for j in range(0, TILE, _LANE_ROWS)]
