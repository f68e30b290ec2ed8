"""One chunked reader for every transcript scan (the index's lines, usage's blocks): lines cut by a
chunk's edge come whole, a line still being written is left for the next scan, offsets are exact."""

from __future__ import annotations

import io

import pytest

from claude_tui.history import scan


@pytest.mark.parametrize("chunk", [1, 3, 7, 64])
def test_lines_across_chunk_edges_come_whole_and_a_partial_line_waits(chunk: int, monkeypatch) -> None:
    monkeypatch.setattr(scan, "READ_CHUNK", chunk)
    data = b'{"a":1}\n\n{"bb":22}\n{"ccc":"still writ'
    blocks = list(scan.complete_blocks(io.BytesIO(data), 0))
    assert b"".join(block for block, _ in blocks) == data[:data.rfind(b"\n") + 1]
    assert all(block.endswith(b"\n") for block, _ in blocks)
    assert blocks[-1][1] == data.rfind(b"\n") + 1
    lines = list(scan._lines(io.BytesIO(data), 0))
    assert [line for line, _ in lines] == [b'{"a":1}', b"", b'{"bb":22}']
    assert [end for _, end in lines] == [8, 9, 19]
    # from an offset, as an appended transcript is read
    assert [line for line, _ in scan._lines(io.BytesIO(data), 9)] == [b'{"bb":22}']
