"""A minimal WebSocket client (RFC 6455) for benchmark (c): text frames only,
enough to talk to Daphne on loopback without another dependency."""

from __future__ import annotations

import asyncio
import base64
import os
import struct


class WebSocket:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def connect(cls, host: str, port: int, path: str, headers: dict[str, str]) -> WebSocket:
        reader, writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        lines = [
            f"GET {path} HTTP/1.1",
            f"Host: {host}:{port}",
            "Upgrade: websocket",
            "Connection: Upgrade",
            f"Sec-WebSocket-Key: {key}",
            "Sec-WebSocket-Version: 13",
            *(f"{k}: {v}" for k, v in headers.items()),
        ]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        status = await reader.readline()
        if b" 101 " not in status:
            raise ConnectionError(f"handshake refused: {status!r}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        return cls(reader, writer)

    async def send(self, text: str) -> None:
        await self._frame(0x81, text.encode())

    async def _frame(self, first: int, payload: bytes) -> None:
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", first, 0x80 | size)
        elif size < 65536:
            head = struct.pack("!BBH", first, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", first, 0x80 | 127, size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(head + mask + masked)
        await self.writer.drain()

    async def recv(self) -> str:
        parts: list[bytes] = []
        while True:
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", await self.reader.readexactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", await self.reader.readexactly(8))[0]
            payload = await self.reader.readexactly(size)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise ConnectionError("closed by the server")
            if opcode == 0x9:  # Daphne's keepalive ping: answer, or it closes the socket
                await self._frame(0x8A, payload)
                continue
            if opcode == 0xA:
                continue
            parts.append(payload)
            if first & 0x80:
                return b"".join(parts).decode()

    async def close(self) -> None:
        self.writer.close()
