"""The store: learners, corrections with their latency, history queries and export, in a SQLite file
(sqlite-utils; the default) or a PostgreSQL database (a postgresql:// URL; psycopg 3).

    from tutor.store import Store
    with Store.open() as store:            # --db / $GRAMMAR_TUTOR_DB / user data folder
        uid = store.save_correction(result, learner="Ana")
        page = store.history("Ana", verb="go", limit=50)
"""

from tutor.store.paths import ENV_VAR, default_db_path, resolve_db, resolve_db_path
from tutor.store.store import Store

DEFAULT_LEARNER = "default"

__all__ = ["DEFAULT_LEARNER", "ENV_VAR", "Store", "default_db_path", "resolve_db", "resolve_db_path"]
