"""Display labels that follow the UI language: a week is labelled by its Monday as a date a learner reads."""

from __future__ import annotations


def test_a_week_is_labelled_by_its_monday_in_the_ui_language(qapp):
    from app.labels import week_label
    from app.translation import install_language

    try:
        install_language("en")
        assert week_label("2026-11-30") == "30 Nov"
        install_language("es")
        assert week_label("2026-11-30") == "30 nov"
    finally:
        install_language("en")
    assert week_label("not a date") == "not a date"  # shown as stored rather than as a wrong date
