"""Teacher passphrase and learner PINs are stored as salted scrypt hashes."""

from app.passphrase import hash_secret, verify_secret


def test_right_passphrase_verifies_and_wrong_one_does_not():
    stored = hash_secret("correct horse")
    assert verify_secret("correct horse", stored)
    assert not verify_secret("correct hors", stored)
    assert "correct horse" not in stored


def test_each_hash_has_its_own_salt():
    first, second = hash_secret("same"), hash_secret("same")
    assert first != second
    assert first.startswith("scrypt$") and len(first.split("$")[1]) == 32


def test_malformed_stored_value_never_verifies():
    for stored in ("", "plain", "md5$00$00", "scrypt$zz$00"):
        assert not verify_secret("anything", stored)
