"""An ssh ProxyCommand that adds a fixed one-way delay (a far-away machine on a loopback server).

    ProxyCommand python delay_proxy.py 127.0.0.1 PORT 0.1      # 100 ms each way: a 200 ms round trip

Bytes are forwarded in both directions, each chunk released ``delay`` seconds after it arrived, so
the round trip grows without throttling the stream (a delay line, not a sleep per chunk).
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
from collections import deque


def _pipe(read: object, write: object, delay: float, done: threading.Event) -> None:
    queue: deque[tuple[float, bytes]] = deque()
    ready = threading.Condition()

    def reader() -> None:
        while True:
            try:
                chunk = read()  # type: ignore[operator]
            except OSError:
                chunk = b""
            with ready:
                queue.append((time.monotonic() + delay, chunk))
                ready.notify()
            if not chunk:
                return

    threading.Thread(target=reader, daemon=True).start()
    while True:
        with ready:
            while not queue:
                ready.wait()
            due, chunk = queue.popleft()
        pause = due - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        if not chunk:
            break
        try:
            write(chunk)  # type: ignore[operator]
        except OSError:
            break
    done.set()


def main() -> None:
    host, port, delay = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    sock = socket.create_connection((host, port))
    done = threading.Event()
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()

    def to_socket(data: bytes) -> None:
        sock.sendall(data)

    def to_stdout(data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(stdout, view):]

    up = threading.Thread(target=_pipe, args=(lambda: os.read(stdin, 65536), to_socket, delay, done), daemon=True)
    down = threading.Thread(target=_pipe, args=(lambda: sock.recv(65536), to_stdout, delay, done), daemon=True)
    up.start()
    down.start()
    done.wait()  # either side closed: the connection is over


if __name__ == "__main__":
    main()
