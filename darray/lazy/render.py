"""Render a :class:`KernelSpec` as OpenCL C: each work-item handles ``ch`` consecutive elements
(a contiguous run on CPU devices, one element on GPUs); sizes are arguments, never source. Each
op's C code and vector safety come from its row in ``lazy.table`` (table and user ops alike)."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from importlib import resources

import numpy as np

from ..dtypes import ctype, real_dtype
from . import table, user
from .spec import KernelSpec, Operand, Ref

KERNEL_NAME = "elementwise"


@cache
def header(name: str) -> str:
    """The text of ``kernels/include/<name>`` (shipped in the wheel as ``darray.kernels``)."""
    return resources.files("darray.kernels").joinpath("include").joinpath(name).read_text()


def cast(src: np.dtype, dst: np.dtype, x: str) -> str:
    """C expression converting ``x`` from ``src`` to ``dst`` with NumPy's astype semantics."""
    if src == dst:
        return x
    dt = ctype(dst)
    if dst.kind == "b":
        return f"(uchar)(({x}).x != 0 || ({x}).y != 0)" if src.kind == "c" else f"(uchar)(({x}) != 0)"
    if dst.kind == "c":
        comp = dt[:-1]
        if src.kind == "c":
            return f"convert_{dt}({x})"
        return f"({dt})(({comp})({x}), ({comp})0)"
    if src.kind == "c":
        return f"({dt})(({x}).x)"
    return f"({dt})({x})"


def _index(spec: KernelSpec, operand: Operand, name: str) -> str:
    if operand.pattern == "c":
        return f"{name}_o + g"
    if operand.pattern == "0":
        return f"{name}_o"
    terms = " + ".join(f"c{d} * {name}_s{d}" for d in range(spec.rank))
    return f"{name}_o + {terms}"


def ref_name(ref: Ref) -> str:
    kind, k = ref
    return {"in": "v", "sc": "s", "t": "t"}[kind] + str(k)


def _dtypes(spec: KernelSpec) -> list[np.dtype]:
    return [o.dtype for o in spec.operands] + list(spec.scalars) + [i.dtype for i in spec.body]


def _uses_double(spec: KernelSpec) -> bool:
    return any(d in (np.dtype("float64"), np.dtype("complex128")) for d in _dtypes(spec))


def _uses_half(spec: KernelSpec) -> bool:
    return np.dtype("float16") in _dtypes(spec)


def _uses_complex(spec: KernelSpec) -> bool:
    return any(d.kind == "c" for d in _dtypes(spec))


_INDEX_DTYPE: dict[str, np.dtype] = {"int": np.dtype(np.int32), "long": np.dtype(np.int64)}


def params(spec: KernelSpec) -> list[tuple[str, str, np.dtype | None]]:
    """The kernel's parameters as (C type, name, host dtype or None for buffers), in argument order."""
    idx, idt = spec.index, _INDEX_DTYPE[spec.index]
    out: list[tuple[str, str, np.dtype | None]] = []
    names = [f"out{k}" for k in range(len(spec.outputs))] + [f"in{k}" for k in range(len(spec.inputs))]
    for name, op in zip(names, spec.operands):
        const = "const " if name.startswith("in") else ""
        out += [(f"__global {const}{ctype(op.dtype)}*", name, None), (idx, f"{name}_o", idt)]
    out += [(ctype(dt), f"s{k}", np.dtype(np.uint8) if dt.kind == "b" else dt) for k, dt in enumerate(spec.scalars)]
    out.append((idx, "n", idt))
    if spec.reduce is None:
        out += [(idx, "ch", idt)] + ([(idx, "rh", idt)] if tiled(spec) else [])
    else:
        real = real_dtype(spec.reduce.acc)
        out += [(idx, "K", idt), (idx, "P", idt)] + ([(ctype(real), "count", real)] if spec.reduce.mean else [])
    if spec.strided:
        out += [(idx, f"d{d}", idt) for d in range(1, spec.rank)]
        for name, op in zip(names, spec.operands):
            if op.pattern == "s":
                out += [(idx, f"{name}_s{d}", idt) for d in range(spec.rank)]
    return out


def prologue(spec: KernelSpec) -> list[str]:
    """Extension pragmas, the helper headers and the user ops' helpers (``lazy.user``) the kernel
    needs (contraction is off in every darray program: ``place._programs.PROLOGUE``)."""
    lines = []
    if _uses_double(spec):
        lines.append("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#define DARRAY_FP64 1")
    if _uses_half(spec):
        lines.append("#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#define DARRAY_FP16 1")
    lines.append(header("elementwise.h"))
    if _uses_complex(spec):
        lines.append(header("complex.h"))
    return lines + user.sources(spec)


def signature(spec: KernelSpec, name: str) -> str:
    sig = ",\n    ".join(f"{t} {n}" for t, n, _ in params(spec))
    return f"__kernel void {name}(\n    {sig})\n{{"


def coordinates(spec: KernelSpec, flat: str) -> list[str]:
    """Declare the coordinates ``c0..c{rank-1}`` of flat index ``flat`` (C order) as variables,
    for a chunked kernel to step with :func:`advance` instead of dividing per element."""
    idx = spec.index
    return [f"{idx} {', '.join(f'c{d}' for d in range(spec.rank))};", f"{{ {idx} r = {flat};",
            *[f"  c{d} = r % d{d}; r /= d{d};" for d in range(spec.rank - 1, 0, -1)], "  c0 = r; }"]


def advance(rank: int) -> str:
    """Step the coordinates ``c0..c{rank-1}`` to the next flat index (C order; c0 never wraps)."""
    code = "++c0;"
    for d in range(1, rank):
        code = f"if (++c{d} == d{d}) {{ c{d} = 0; {code} }}"
    return code


def value_lines(spec: KernelSpec, pad: str = "    ", stepped: bool = False,
                index: Callable[[KernelSpec, Operand, str], str] = _index,
                load: Callable[[int, Operand], str] | None = None,
                skip: frozenset[Ref] = frozenset()) -> tuple[list[str], dict[Ref, np.dtype]]:
    """Code computing every body value at flat index ``g``: coordinates (unless ``stepped``: the
    caller keeps them, see :func:`coordinates`), input loads (``load(k, operand)``, else at
    ``index``), SSA steps; ``skip``: values computed before (see :func:`uniform`)."""
    idx = spec.index
    lines = []
    if spec.strided and not stepped:
        lines.append(f"{idx} r = g;")
        for d in range(spec.rank - 1, 0, -1):
            lines.append(f"const {idx} c{d} = r % d{d}; r /= d{d};")
        lines.append(f"const {idx} c0 = r;")
    for k, op in enumerate(spec.inputs):
        if ("in", k) not in skip:
            value = load(k, op) if load else f"in{k}[{index(spec, op, f'in{k}')}]"
            lines.append(f"const {ctype(op.dtype)} v{k} = {value};")
    dtypes: dict[Ref, np.dtype] = {("in", k): op.dtype for k, op in enumerate(spec.inputs)}
    lines += body_lines(spec, dtypes, skip)
    return [pad + line for line in lines], dtypes


def body_lines(spec: KernelSpec, dtypes: dict[Ref, np.dtype], skip: frozenset[Ref] = frozenset(),
               only: frozenset[Ref] | None = None) -> list[str]:
    """The SSA steps ``const T t<k> = ...;`` of ``spec`` (scalar code), but those in ``skip`` (or
    only those in ``only``). ``dtypes`` holds the inputs' dtypes and gains the scalars' and each step's."""
    dtypes.update({("sc", k): dt for k, dt in enumerate(spec.scalars)})
    lines = []
    for k, ins in enumerate(spec.body):
        dtypes[("t", k)] = ins.dtype
        if ("t", k) in skip or (only is not None and ("t", k) not in only):
            continue
        arg_dts = tuple(dtypes[a] for a in ins.args)
        names = tuple(ref_name(a) for a in ins.args)
        code = cast(arg_dts[0], ins.dtype, names[0]) if ins.op == "cast" else table.c(ins, arg_dts, names)
        lines.append(f"const {ctype(ins.dtype)} t{k} = {code};")
    return lines


def uniform(spec: KernelSpec) -> frozenset[Ref]:
    """The values that are the same at every element: single-element inputs (pattern '0') and
    steps over those and scalars only. The chunked scalar loop computes them once, before it
    (a load inside the loop is repeated after every store: the output may alias it). Ordered
    user ops (``lazy.user``) are never uniform: they read their element index."""
    out: set[Ref] = {("in", k) for k, op in enumerate(spec.inputs) if op.pattern == "0"}
    for k, ins in enumerate(spec.body):
        if all(a in out or a[0] == "sc" for a in ins.args) and not user.ordered(ins.op):
            out.add(("t", k))
    return frozenset(out)


_FLOAT32 = np.dtype(np.float32)
WIDTH = 8  # float8 through the float8_u type of elementwise.h (PoCL 3.0: vload16 miscomputed)
GPU_WIDTH = 4  # elements per work-item of the gpu form's vector kernels (float4 loads and stores)


def vector_width(spec: KernelSpec, strided: bool = False) -> int:
    """8 when every operand is contiguous or a single element (``strided``: or strided, for the
    tiled form's unit-stride rows), all float32, and every op is vector-safe (``table.vector``);
    else 1 (scalar code only). Not double8: PoCL (AVX2, no AVX-512) builds it once, but a
    program reloaded from a binary (its own kernel cache, or ours on disk) then has no kernels
    (CL_INVALID_KERNEL_NAME in the next process)."""
    dts = {o.dtype for o in spec.operands} | {i.dtype for i in spec.body} | set(spec.scalars)
    if len(dts) != 1 or next(iter(dts)) != _FLOAT32 or spec.reduce is not None:
        return 1
    if (not strided and any(o.pattern == "s" for o in spec.operands)) or \
            not all(table.vector(i.op) for i in spec.body):
        return 1
    return WIDTH


def gpu_width(spec: KernelSpec) -> int:
    """Elements per work-item of ``spec`` in the gpu form: GPU_WIDTH (one float4 each) when the
    kernel vectorises (:func:`vector_width`), else 1."""
    return GPU_WIDTH if vector_width(spec) > 1 else 1


def _at_g(spec: KernelSpec, op: Operand, name: str) -> str:
    """The element index of a contiguous operand at ``g`` (the vector loads' default)."""
    return f"{name}_o + g"


def vector_values(spec: KernelSpec, vt: str, pad: str,
                  index: Callable[[KernelSpec, Operand, str], str] = _at_g,
                  strided_load: Callable[[int], str] | None = None) -> list[str]:
    """Vector loads at ``index`` (contiguous runs, element-aligned ``vt``; a strided input ``k``
    as ``strided_load(k)`` when given) and the SSA body on vectors of type ``vt`` (scalar
    arguments widened for the ops that take vectors only: ``table.widen``, user ops' overloads)."""
    lines = []
    dtypes: dict[Ref, np.dtype] = {("sc", k): dt for k, dt in enumerate(spec.scalars)}
    for k, op in enumerate(spec.inputs):
        if op.pattern == "0":
            load = f"({vt})(in{k}[in{k}_o])"
        elif op.pattern == "s" and strided_load is not None:
            load = strided_load(k)
        else:
            load = f"*(__global const {vt}_u*)(in{k} + {index(spec, op, f'in{k}')})"
        lines.append(f"{pad}const {vt} v{k} = {load};")
        dtypes[("in", k)] = op.dtype
    for k, ins in enumerate(spec.body):
        widen = table.widen(ins.op)
        names = tuple(vector_ref(a, vt) if widen else ref_name(a) for a in ins.args)
        code = table.c(ins, tuple(dtypes[a] for a in ins.args), names)
        lines.append(f"{pad}const {vt} t{k} = {code};")
        dtypes[("t", k)] = ins.dtype
    return lines


def vector_ref(ref: Ref, vt: str) -> str:
    """A body value as a vector (scalar arguments are widened)."""
    return ref_name(ref) if ref[0] != "sc" else f"({vt})({ref_name(ref)})"


def _vector_body(spec: KernelSpec, width: int, pad: str) -> list[str]:
    """Vector loads, ops and stores of the ``width`` elements at ``g`` (contiguous operands)."""
    vt = f"{ctype(spec.operands[0].dtype)}{width}"
    return [*vector_values(spec, vt, pad),
            *[f"{pad}*(__global {vt}_u*)(out{k} + out{k}_o + g) = {vector_ref(ref, vt)};"
              for k, (_, ref) in enumerate(spec.outputs)]]


def render(spec: KernelSpec, chunked: bool = True, gpu: bool = False) -> str:
    """OpenCL source for an elementwise ``spec``.

    ``chunked`` (CPU devices): each work-item runs ``ch`` consecutive elements, contiguous
    float kernels of vector-safe ops in float8 blocks first (PoCL does not vectorise scalar
    transcendental calls; Intel's runtime runs them in groups of one work-item, as written),
    then the rest one by one; strided kernels of rank 2 or more walk 2-D tiles instead
    (:func:`_tiled`). Otherwise (the ``item`` and ``gpu`` forms) one element per work-item,
    ``ch`` unused, except that the ``gpu`` form gives kernels that vectorise :func:`gpu_width`
    elements per work-item as one float4 (the last work-item's partial block one by one)."""
    lines = prologue(spec) + [signature(spec, KERNEL_NAME)]
    idx = spec.index
    if chunked and tiled(spec):
        return "\n".join(lines + _tiled(spec)) + "\n"
    if chunked:
        lines.append(f"    const {idx} start = get_global_id(0) * ch, end = min(start + ch, n);")
        lines.append(f"    {idx} g = start;")
        if vector_width(spec) > 1:
            lines += [f"    for (; g + {WIDTH} <= end; g += {WIDTH}) {{", *_vector_body(spec, WIDTH, "        "),
                      "    }"]
        else:
            hoisted = uniform(spec)
            lines += [f"    const {ctype(op.dtype)} v{k} = in{k}[in{k}_o];" for k, op in enumerate(spec.inputs)
                      if ("in", k) in hoisted]
            dtypes: dict[Ref, np.dtype] = {("in", k): op.dtype for k, op in enumerate(spec.inputs)}
            lines += ["    " + line for line in body_lines(spec, dtypes, only=hoisted)]
            lines.append("    for (; g < end; g++) {")
            lines += _element(spec, "        ", _index, skip=hoisted)
            lines.append("    }\n}")
            return "\n".join(lines) + "\n"
        lines.append("    for (; g < end; g++) {")
    elif gpu and (w := gpu_width(spec)) > 1:
        lines += [f"    const {idx} first = get_global_id(0) * {w};",
                  f"    if (first + {w} <= n) {{", f"        const {idx} g = first;",
                  *_vector_body(spec, w, "        "), "        return;", "    }",
                  f"    for ({idx} g = first; g < n; g++) {{"]
    else:
        lines.append(f"    const {idx} g = get_global_id(0);")
        lines.append("    if (g < n) {")
    lines += _element(spec, "        ", _index)
    lines.append("    }\n}")
    return "\n".join(lines) + "\n"


def _element(spec: KernelSpec, pad: str, index: Callable[[KernelSpec, Operand, str], str],
             stepped: bool = False, load: Callable[[int, Operand], str] | None = None,
             skip: frozenset[Ref] = frozenset()) -> list[str]:
    """The loads (``load(k, operand)``, else at ``index``), body and stores of the element at
    ``g`` (outputs addressed by ``index``); ``skip``: values computed before the loop."""
    body, dtypes = value_lines(spec, pad=pad, stepped=stepped, index=index, load=load, skip=skip)
    for k, (op, ref) in enumerate(spec.outputs):
        body.append(f"{pad}out{k}[{index(spec, op, f'out{k}')}] = {cast(dtypes[ref], op.dtype, ref_name(ref))};")
    return body


TILE_ROWS = 16  # rows of a tile in the tiled form, and the side of its private blocks
TALL_TILE = (256, 16)  # (rows, columns) of the tiles of a transposed float8 layout (measured best on CPUs)


def tiled(spec: KernelSpec) -> bool:
    """Whether a chunked elementwise kernel walks 2-D tiles: strided kernels of rank 2 or more.
    Tiled kernels take the tile's rows as ``rh`` next to its columns ``ch``."""
    return spec.reduce is None and spec.strided and spec.rank >= 2


def tile_shape(spec: KernelSpec, strides: Sequence[tuple[int, ...]], ch: int) -> tuple[int, int]:
    """(rows, columns) of the tiles of a tiled kernel whose operands have ``strides``: tall
    ``TALL_TILE`` tiles when the float8 transposed blocks apply (every strided input transposed,
    every strided output row-major, not all rows contiguous: the transposed reads of a tile's 16
    columns stay in cache across its rows), else TILE_ROWS x ``ch`` (long contiguous rows)."""
    r, nout = spec.rank, len(spec.outputs)
    strided = [(k, st) for k, (op, st) in enumerate(zip(spec.operands, strides)) if op.pattern == "s"]
    unit_rows = all(st[r - 1] == 1 or spec.operands[k].per_row for k, st in strided)  # the contiguous-rows branch
    transposed = all(st[r - 1 if k < nout else r - 2] == 1 for k, st in strided)
    return TALL_TILE if transposed and not unit_rows and vector_width(spec, strided=True) > 1 \
        else (TILE_ROWS, ch)


def tiles(shape: tuple[int, ...], rows: int, cols: int) -> int:
    """Work-items of the tiled form over the collapsed ``shape``: one per ``rows`` x ``cols``
    tile of the last two axes, for every index of the others."""
    outer = 1
    for n in shape[:-2]:
        outer *= n
    return outer * -(-shape[-2] // rows) * -(-shape[-1] // cols)


def _tiled(spec: KernelSpec) -> list[str]:
    """The tiled form: work-item t takes an ``rh`` x ``ch`` tile of the last two axes (rows
    ``c{r-2}``, columns ``c{r-1}``) at index t of the others; every element's address is a row
    base plus a column (no division per element).

    When every strided operand has a unit column stride, rows run as contiguous loops (float8
    blocks where the body vectorises). Otherwise (a transposed operand, say) the tile goes in
    TILE_ROWS x TILE_ROWS blocks (8 x 8 float8 blocks where they apply, see
    :func:`_transposed_blocks`): the inputs are first loaded column by column into private
    blocks, then the body runs and stores row by row, so each cache line read or written is
    used whole while it is in cache (a column of a transposed matrix is one line)."""
    idx, r = spec.index, spec.rank
    nout = len(spec.outputs)
    names = [f"out{k}" if k < nout else f"in{k - nout}" for k in range(len(spec.operands))]
    strided = [name for name, op in zip(names, spec.operands) if op.pattern == "s"]
    rows = f"d{r - 2}" if r > 2 else f"(n / d{r - 1})"
    lines = [f"    const {idx} C = d{r - 1}, R = {rows};",
             f"    {idx} t = get_global_id(0);",
             f"    const {idx} cb = (t % ((C + ch - 1) / ch)) * ch; t /= (C + ch - 1) / ch;",
             f"    const {idx} rb = (t % ((R + rh - 1) / rh)) * rh; t /= (R + rh - 1) / rh;",
             "    if (t * R * C >= n) return;",
             f"    const {idx} ce = min(cb + ch, C), re = min(rb + rh, R);"]
    if r > 2:  # the other axes' coordinates of this tile
        step = [f"      c{d} = q % d{d}; q /= d{d};" for d in range(r - 3, 0, -1)]
        lines = [f"    {idx} {', '.join(f'c{d}' for d in range(r - 2))};"] + lines + [
            f"    {{ {idx} q = t;", *step, "      c0 = q; }"]
    lines += [f"    const {idx} {name}_q = {name}_o" + "".join(f" + c{d} * {name}_s{d}" for d in range(r - 2)) + ";"
              for name in strided]
    unit = [f"{name}_s{r - 1} == 1" for name, op in zip(names, spec.operands) if op.pattern == "s" and not op.per_row]
    lines.append(f"    if ({' && '.join(unit) or '1'}) {{")
    lines += ["        " + line for line in _unit_rows(spec, strided)]
    lines.append("    } else {")
    lines += ["        " + line for line in _blocks(spec)]
    return lines + ["    }", "}"]


def _unit_rows(spec: KernelSpec, strided: list[str]) -> list[str]:
    """The tile's rows as contiguous runs (every strided operand's column stride is 1, but inputs
    broadcast along the rows, ``Operand.per_row``: one value per row)."""
    idx, r = spec.index, spec.rank
    row_c, col_c = f"c{r - 2}", f"c{r - 1}"

    def at(spec: KernelSpec, op: Operand, name: str) -> str:
        if op.pattern != "s":
            return _index(spec, op, name)
        return f"{name}_r" if op.per_row else f"{name}_r + {col_c}"

    lines = [f"for ({idx} {row_c} = rb; {row_c} < re; {row_c}++) {{",
             f"    const {idx} row = (t * R + {row_c}) * C;",
             *[f"    const {idx} {name}_r = {name}_q + {row_c} * {name}_s{r - 2};" for name in strided],
             f"    {idx} {col_c} = cb;"]
    if vector_width(spec, strided=True) > 1:  # float8 runs
        vt = f"{ctype(spec.operands[0].dtype)}{WIDTH}"
        lines += [f"    for (; {col_c} + {WIDTH} <= ce; {col_c} += {WIDTH}) {{",
                  f"        const {idx} g = row + {col_c};",
                  *vector_values(spec, vt, "        ", at, lambda k: f"({vt})(in{k}[in{k}_r])" if spec.inputs[k].per_row
                                 else f"*(__global const {vt}_u*)(in{k} + in{k}_r + {col_c})"),
                  *[f"        *(__global {vt}_u*)(out{k} + {at(spec, op, f'out{k}')}) = {vector_ref(ref, vt)};"
                    for k, (op, ref) in enumerate(spec.outputs)], "    }"]
    return lines + [f"    for (; {col_c} < ce; {col_c}++) {{", f"        const {idx} g = row + {col_c};",
                    *_element(spec, "        ", at, stepped=True), "    }", "}"]


def _blocks(spec: KernelSpec) -> list[str]:
    """The tile in TILE_ROWS-wide blocks: inputs loaded column by column into private blocks,
    then computed and stored row by row."""
    idx, r, b = spec.index, spec.rank, TILE_ROWS
    row_c, col_c = f"c{r - 2}", f"c{r - 1}"

    def at(spec: KernelSpec, op: Operand, name: str) -> str:
        if op.pattern != "s":
            return _index(spec, op, name)
        return f"{name}_q + {row_c} * {name}_s{r - 2} + {col_c} * {name}_s{r - 1}"

    inputs = [(k, op) for k, op in enumerate(spec.inputs) if op.pattern != "0"]
    cell = f"[{row_c} - ib][{col_c} - jb]"
    flat = f"const {idx} g = (t * R + {row_c}) * C + {col_c};"
    return _transposed_blocks(spec) + [f"for ({idx} jb = cb; jb < ce; jb += {b})",
            f"for ({idx} ib = rb; ib < re; ib += {b}) {{",
            f"    const {idx} je = min(jb + {b}, ce), ie = min(ib + {b}, re);",
            *[f"    {ctype(op.dtype)} b{k}[{b}][{b}];" for k, op in inputs],
            f"    for ({idx} {col_c} = jb; {col_c} < je; {col_c}++)",
            f"        for ({idx} {row_c} = ib; {row_c} < ie; {row_c}++) {{",
            f"            {flat}",
            *[f"            b{k}{cell} = in{k}[{at(spec, op, f'in{k}')}];" for k, op in inputs],
            "        }",
            f"    for ({idx} {row_c} = ib; {row_c} < ie; {row_c}++)",
            f"        for ({idx} {col_c} = jb; {col_c} < je; {col_c}++) {{",
            f"            {flat}",
            *_element(spec, "            ", at, stepped=True,
                      load=lambda k, op: f"b{k}{cell}" if op.pattern != "0" else f"in{k}[in{k}_o]"),
            "        }",
            "}", *(["}"] if vector_width(spec, strided=True) > 1 else [])]


def _transposed_blocks(spec: KernelSpec) -> list[str]:
    """For float32 bodies that vectorise, the opening of a branch taken when every strided input
    is transposed (row stride 1), every strided output has column stride 1 and the tile is
    whole 8 x 8 blocks: each block loads 8 columns of each input as float8, turns them into
    rows with component moves, and computes and stores 8 rows of float8; the caller's blocks
    are the ``else`` branch (closed by the caller). Empty otherwise."""
    if vector_width(spec, strided=True) == 1:
        return []
    idx, r, w = spec.index, spec.rank, WIDTH
    vt = f"{ctype(spec.operands[0].dtype)}{w}"
    ins = [k for k, op in enumerate(spec.inputs) if op.pattern == "s"]
    outs = [k for k, (op, _) in enumerate(spec.outputs) if op.pattern == "s"]
    cond = [f"in{k}_s{r - 2} == 1" for k in ins] + [f"out{k}_s{r - 1} == 1" for k in outs] + \
        [f"(re - rb) % {w} == 0", f"(ce - cb) % {w} == 0"]
    lines = [f"if ({' && '.join(cond)}) {{",
             f"    for ({idx} jb = cb; jb < ce; jb += {w})",
             f"    for ({idx} ib = rb; ib < re; ib += {w}) {{",
             *[f"        const {vt} k{k}_{j} = vload{w}(0, in{k} + in{k}_q + ib + (jb + {j}) * in{k}_s{r - 1});"
               for k in ins for j in range(w)]]
    for i in range(w):
        def at(spec: KernelSpec, op: Operand, name: str, i: int = i) -> str:
            return f"{name}_q + (ib + {i}) * {name}_s{r - 2} + jb" if op.pattern == "s" else _index(spec, op, name)

        def row(k: int, i: int = i) -> str:  # row i of input k's block: component i of its columns
            return f"({vt})({', '.join(f'k{k}_{j}.s{i}' for j in range(w))})"

        lines += ["        {", f"            const {idx} g = (t * R + ib + {i}) * C + jb;",
                  *vector_values(spec, vt, "            ", at, row),
                  *[f"            *(__global {vt}_u*)(out{k} + {at(spec, op, f'out{k}')}) = {vector_ref(ref, vt)};"
                    for k, (op, ref) in enumerate(spec.outputs)], "        }"]
    return lines + ["    }", "} else {"]
