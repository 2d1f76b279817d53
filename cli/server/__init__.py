"""The table server (`combat serve`): the store on the table's network.
Players follow the order on their phones and declare for their own
combatants, by a token (docs/server.md). Imported only by
`combat serve`: no other command pays for Starlette or uvicorn.

- app.py: the Starlette routes (the API, the pages) and how errors answer;
- auth.py: the token a request carries (what it may do: projections/access.py);
- hub.py: the live stream, one status per appended batch, fanned out;
- handles.py: one store handle per worker thread;
- static/: the pages, plain HTML, CSS and JavaScript shipped in the package.
"""
