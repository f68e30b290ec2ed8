"""A file's calls summed per local day and model, as `usage_sums` holds them, every call counted.

A first report counts every call where it was read, but for the few that more than one file records
(a fork's copy of its parent's, a side question's replay): so the scan sums its file's calls itself,
in the worker that read them, and :meth:`.index.UsageIndex._elect` takes out only the calls the
election set aside, rather than summing every call again in this process after the scan.
"""

from __future__ import annotations

from typing import Any

from claude_tui.protocol.pricing import counts_cost, model_prices

from .rows import Row

Sum = tuple[Any, ...]
"""(day, model, calls, inp, out, cread, cwrite, cost, unpriced, a_inp, a_out, a_cread, a_cwrite, a_cost):
a `usage_sums` row without its file id (the a_* columns: all the file's calls, here the same)."""


def file_sums(rows: list[Row]) -> list[Sum]:
    """The sums of ``rows`` per (day, model), each call's cost as `UsageIndex._sum_files` works it out
    (its own, else its tokens at list price, the same arithmetic) and added up in the rows' order."""
    groups: dict[tuple[str, str], list[Any]] = {}
    for _msg, _ts, model, inp, out, read, write_5m, write_1h, own, _side, _k, day, _kept in rows:
        group = groups.get((day, model))
        if group is None:
            group = groups[(day, model)] = [0, 0, 0, 0, 0, 0.0, 0, model_prices(model) if model else None]
        group[0] += 1
        group[1] += inp
        group[2] += out
        group[3] += read
        group[4] += write_5m + write_1h
        prices = group[7]
        if own is not None:
            group[5] += own
        elif prices is not None:
            group[5] += counts_cost(prices, inp, out, read, write_5m, write_1h)
        elif model and inp + out + read + write_5m + write_1h > 0:
            group[6] += 1
    return [(day, model, n, inp, out, read, write, cost, unpriced, inp, out, read, write, cost)
            for (day, model), (n, inp, out, read, write, cost, unpriced, _) in groups.items()]
