"""Render the one-launch GPU reduction (stages ``tree`` and ``trees``; the plan is in ``reduce.py``).

A work-group of ``W`` work-items (``Reduction.group``) holds ``W / T`` teams of ``T`` lanes
(``Reduction.team``, a power of two). A team takes a task: part ``pt`` of output ``j``, the
contiguous run ``[k0, k1)`` of its ``K`` elements; lane ``v`` folds ``k0 + v, k0 + v + T, ...``
(neighbouring lanes read neighbouring elements when the reduced axes are innermost in memory),
then the team joins its lanes as a tree in local memory. With ``T == 1`` tasks are numbered
part-major (``t = pt * M + j``), so neighbouring work-items take neighbouring outputs: the
layout for kept axes innermost in memory (``sum(x, axis=0)``), read row by row, coalesced.

Stage ``tree`` (``P == 1``) stores each task's result. Stage ``trees`` publishes each task's
partial (and index) to scratch; the team that finishes an output's last task, found through an
atomic counter per output (zero before and after every launch), folds the ``P`` partials the
same way (lanes, then tree) and stores the result. Groups loop over the tasks in rounds of the
same trip count in every work-item (the barriers stay uniform), so any number of groups is right.

A work-item folds its elements in a few accumulators (loads in flight; float sums blocked as
in ``reduce_render._lanes``), joined as a tree. The tree's order is fixed, so a result does not
depend on timing; it differs in the last bits from the CPU forms' orders.
"""
from __future__ import annotations

from ..dtypes import ctype
from .reduce_render import REDUCE_NAME, Element, _final, _fold, _indent, _join, _lanes, _scratch, identity
from .render import cast, prologue, ref_name, signature, value_lines
from .spec import KernelSpec

# accumulators per work-item: teams of one lane (neighbouring outputs) and of many. On an H100, with
# 1024 lanes per compute unit: sum(axis=0) of 4096x4096 1780 GB/s with 8 against 1641 with 4;
# full sums 1876 with 4 against 1803 with 8 and 1576 with 2 (copy kernel: 2320 GB/s)
COLUMN_LANES, ROW_LANES = 8, 4


def render_tree(spec: KernelSpec) -> str:
    """OpenCL source of a ``tree``/``trees`` reduction (see the module docstring)."""
    red = spec.reduce
    assert red is not None
    acc_t, idx, zero, arg = ctype(red.acc), spec.index, identity(red.op, red.acc), red.arg
    W, T = red.group, red.team
    S, count = W // T, COLUMN_LANES if T == 1 else ROW_LANES
    index_ref = spec.outputs[1][1] if arg else None
    value_ref = spec.outputs[0][1]
    many = red.stage == "trees"

    def element(lane: int, offset: str, into: str) -> list[str]:
        """Fold the body's value at element ``k<offset>`` of output ``j`` into ``<into><lane>``."""
        body, dtypes = value_lines(spec, pad="    ")
        vi = f"k{offset}" if index_ref is None or index_ref[0] == "idx" else ref_name(index_ref)
        value = cast(dtypes[value_ref], red.acc, ref_name(value_ref))
        return ["{", f"    const {idx} g = j * K + k{offset};", *body,
                *_indent(_fold(spec, lane, value, vi, into)), "}"]

    def lanes(first: str, last: str, fold: Element) -> list[str]:
        """This work-item's share of ``[first, last)`` (every ``T``-th) folded into ``acc0``
        (``best0``) through ``count`` accumulators, so several loads are in flight."""
        return [f"{acc_t} {', '.join(f'acc{a} = {zero}' for a in range(count))};",
                *([f"long {', '.join(f'best{a} = -1' for a in range(count))};"] if arg else []),
                f"{idx} k = {first};", f"const {idx} k1 = {last};",
                *_lanes(spec, fold, stride=T, lanes=count), *_join(spec, count)]

    def tree() -> list[str]:
        """Join the team's lanes in ``sh`` (``shi``) into its first lane (every work-item runs the barriers)."""
        out = ["sh[l] = a0;" + (" shi[l] = b0;" if arg else ""), "barrier(CLK_LOCAL_MEM_FENCE);"]
        h = T // 2
        while h:
            step = _fold(spec, "", f"sh[l + {h}]", f"shi[l + {h}]", "sh[l]", "shi[l]")
            out += [f"if (v < {h}) {{", *_indent(step), "}", "barrier(CLK_LOCAL_MEM_FENCE);"]
            h //= 2
        return out

    j_part = [f"const {idx} pt = t / M, j = t - pt * M;" if T == 1 else f"const {idx} j = t / P, pt = t - j * P;"]
    task = [*j_part, f"const {idx} C = (K + P - 1) / P, k0 = min(pt * C, K);",
            *lanes("k0 + v", "min(k0 + C, K)", element), "a0 = acc0;" + (" b0 = best0;" if arg else "")]
    lines = prologue(spec) + [signature(spec, REDUCE_NAME)]
    lines += [f"    const {idx} M = K ? n / K : 0, NT = M * P;", "    const int l = get_local_id(0);",
              f"    const int s = l / {T}, v = l - s * {T};  /* team, lane */",
              f"    __local {acc_t} sh[{W}];"] + ([f"    __local long shi[{W}];"] if arg else [])
    if many:
        lines += _scratch(spec) + [f"    __local int last[{S}];"]
    body = [f"const {idx} t = base + s;", "const int live = t < NT;",
            f"{acc_t} a0 = {zero};" + (" long b0 = -1;" if arg else ""),
            "if (live) {", *_indent(["{", *_indent(task), "}"]), "}", *tree()]
    if not many:
        body += ["if (live && v == 0) {", *_indent(_final(spec, "sh[l]", "shi[l]", "t")), "}"]  # P == 1: j = t
    else:
        at = "pt * M + j" if T == 1 else "t"
        publish = [*j_part, f"part[{at}] = sh[l];" + (f" part_i[{at}] = shi[l];" if arg else ""),
                   "mem_fence(CLK_GLOBAL_MEM_FENCE);",
                   "last[s] = atomic_inc(done + j) == P - 1;", "if (last[s]) done[j] = 0;"]
        where = "k * M + j" if T == 1 else "j * P + k"

        def gather(lane: int, offset: str, into: str) -> list[str]:
            at = where.replace("k", f"(k{offset})")
            return _fold(spec, lane, f"pv[{at}]", f"pi[{at}]", into)

        finish = [*j_part, f"__global volatile const {acc_t}* pv = part;"]
        finish += ["__global volatile const long* pi = part_i;"] if arg else []
        finish += [*lanes("v", "P", gather), "a0 = acc0;" + (" b0 = best0;" if arg else "")]
        body += ["if (v == 0) last[s] = 0;", "if (live && v == 0) {", *_indent(["{", *_indent(publish), "}"]), "}",
                 "barrier(CLK_LOCAL_MEM_FENCE);", f"a0 = {zero};" + (" b0 = -1;" if arg else ""),
                 "if (live && last[s]) {",
                 *_indent(["mem_fence(CLK_GLOBAL_MEM_FENCE);", "{", *_indent(finish), "}"]), "}",
                 *tree(), "if (live && last[s] && v == 0) {",
                 *_indent([*j_part, *_final(spec, "sh[l]", "shi[l]", "j")]), "}"]
    body.append("barrier(CLK_LOCAL_MEM_FENCE);  /* sh and last are reused by the next round */")
    loop = f"for ({idx} base = get_group_id(0) * {S}; base < NT; base += get_num_groups(0) * {S}) {{"
    return "\n".join(lines + ["    " + loop, *_indent(body, 2), "    }", "}"]) + "\n"
