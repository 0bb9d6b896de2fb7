"""The teacher passphrase and learner PINs: scrypt hashes at N = 2^17 in the store, a persisted throttle."""

from __future__ import annotations

from pathlib import Path

import pytest

from tutor.store import Store
from tutor.store.lock import LockError, SecretLock, Throttled, hash_secret, verify_secret


def test_right_secret_verifies_and_a_wrong_one_does_not() -> None:
    stored = hash_secret("correct horse")
    assert verify_secret("correct horse", stored)
    assert not verify_secret("correct hors", stored)
    assert "correct horse" not in stored and stored.startswith("scrypt$17$8$1$")


def test_each_hash_has_its_own_salt() -> None:
    first, second = hash_secret("same"), hash_secret("same")
    assert first != second and len(first.split("$")[4]) == 32


def test_malformed_weak_or_old_hashes_never_verify() -> None:
    import hashlib

    weak = hashlib.scrypt(b"pw", salt=b"s" * 16, n=2**14, r=8, p=1, dklen=32)
    old_app_format = f"scrypt${(b's' * 16).hex()}${weak.hex()}"  # the QSettings hash of earlier versions
    for stored in ("", "plain", "md5$00$00", "scrypt$zz$00", old_app_format,
                   f"scrypt$14$8$1${(b's' * 16).hex()}${weak.hex()}"):
        assert not verify_secret("pw", stored)


def test_pins_have_a_minimum_length_and_a_throttle(store_target: Path | str) -> None:
    with Store.open(store_target) as store:
        store.ensure_learner("Dora")
        lock = SecretLock(store)
        with pytest.raises(LockError, match="at least 6"):
            lock.set_pin("Dora", "2468")
        lock.set_pin("dora", "246810")
        assert lock.has_pin("DORA") and not lock.teacher_set()
        for _ in range(3):
            assert not lock.check_pin("Dora", "000000")
        with pytest.raises(Throttled) as info:
            lock.check_pin("Dora", "246810")
        assert 0 < info.value.retry_after <= 1
    with Store.open(store_target) as store, pytest.raises(Throttled):  # persisted across a reopen
        SecretLock(store).check_pin("Dora", "246810")
