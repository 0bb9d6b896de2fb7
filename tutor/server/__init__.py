"""The class server: the tutor over HTTP for a class (FastAPI + uvicorn), its client and its offline outbox.

    grammar-tutor serve --token CLASSCODE [--host 0.0.0.0] [--workers 2]

`app` (routes), `pool` (bounded queue, one model per worker process), `records` (rows stored once),
`client` (ClassClient, ClassTutor), `outbox` (offline uploads), `loadtest` (`bench serve`),
`structured` (the per-request constraint as a plain JSON Schema for other inference servers).
"""
