"""`grammar-tutor serve`: run the tutor as a class server over HTTP for machines that cannot run the model."""

from __future__ import annotations

import argparse
import os
import sys

from tutor.errors import TutorError

TOKEN_ENV = "GRAMMAR_TUTOR_TOKEN"
MIN_TOKEN_CHARS = 8


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `serve` subcommand."""
    p = sub.add_parser(
        "serve",
        help="run the tutor as an HTTP class server",
        description="Serve /health, /v1/check, /v1/correct, /v1/learners and /v1/learners/NAME/history. "
                    "Every /v1 call needs 'Authorization: Bearer TOKEN'. Listens on loopback unless --host says "
                    "otherwise. Every correction is stored in --db.",
    )
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default: 127.0.0.1, this machine only; 0.0.0.0 for the class network)")
    p.add_argument("--port", type=int, default=8765, help="TCP port (default: 8765; 0 picks a free one)")
    p.add_argument("--db", dest="serve_db", metavar="FILE|URL", default=None,
                   help="SQLite file, or postgresql://USER@HOST:PORT/DB shared by several servers, for every "
                        "learner's corrections (default: global --db, $GRAMMAR_TUTOR_DB, else the data folder)")
    p.add_argument("--token", default=None,
                   help=f"the class code learners' apps send (default: ${TOKEN_ENV}, which keeps it out of `ps`)")
    p.add_argument("--workers", type=int, default=1,
                   help="worker processes, each with its own model (default: 1; see docs/scale.md)")
    p.add_argument("--queue", type=int, default=64, help="requests that may wait for a worker (default: 64)")
    p.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Load the workers, then serve until interrupted; return the exit code."""
    token = args.token or os.environ.get(TOKEN_ENV, "")
    if len(token) < MIN_TOKEN_CHARS:
        raise TutorError(f"give a class code of at least {MIN_TOKEN_CHARS} characters with --token TOKEN "
                         f"(or ${TOKEN_ENV}); learners' apps send it with every request")
    if args.workers < 1 or args.queue < 1:
        raise TutorError("--workers and --queue must be at least 1")
    from tutor.server.app import create_app
    from tutor.server.pool import ModelPool
    from tutor.server.run import bind, is_loopback, serve_forever, url_of
    from tutor.store import Store

    sock = bind(args.host, args.port)  # before the models load: a taken port fails at once
    with Store.open(args.serve_db or getattr(args, "db", None)) as store:
        print(f"loading {args.workers} worker(s)…", file=sys.stderr, flush=True)
        pool = ModelPool(args.workers, model=args.model, queue_size=args.queue)
        try:
            app = create_app(store, pool, token)
            print(f"grammar-tutor class server on {url_of(sock)} (model {pool.info.name}, {pool.workers} "
                  f"worker(s), store {store.path})", file=sys.stderr, flush=True)
            if not is_loopback(args.host):
                print(f"listening on {args.host}: every machine that can reach it and knows the class code can "
                      "use it. The traffic is plain HTTP: use it on the school network only.", file=sys.stderr)
            serve_forever(app, sock)
        finally:
            pool.close()
            sock.close()
    return 0
