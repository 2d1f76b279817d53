"""The floor of the stream's fan-out: a bare sse-starlette app
(EventSourceResponse over an asyncio queue per listener) that, when poked
(`POST /poke` with a status JSON), puts that payload on every listener's
queue; no token, no store, no worker thread. It is read by the same
listeners as the table server's stream (server.py's `fan_outs`), so the two
p99s differ by what the server adds."""
from __future__ import annotations

import asyncio


def bare_sse_app():
    """`GET /stream`: a first message at once (as the server's current
    status), then each poked payload, `id:` its number; `POST /poke`:
    the body to every open stream, answered with that number."""
    from sse_starlette.sse import EventSourceResponse
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    queues: set[asyncio.Queue] = set()
    sent = [0]

    async def stream(request):
        queue: asyncio.Queue = asyncio.Queue()
        queues.add(queue)

        async def messages():
            try:
                yield {"id": "0", "event": "status", "data": "{}"}
                while True:
                    seq, data = await queue.get()
                    yield {"id": str(seq), "event": "status", "data": data}
            finally:
                queues.discard(queue)
        return EventSourceResponse(messages(), ping=15)

    async def poke(request):
        data = (await request.body()).decode()
        sent[0] += 1
        for queue in list(queues):
            queue.put_nowait((sent[0], data))
        return JSONResponse({"seq": sent[0]})

    return Starlette(routes=[Route("/stream", stream), Route("/poke", poke, methods=["POST"])])
