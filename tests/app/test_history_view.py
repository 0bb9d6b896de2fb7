"""The History tab: a QAbstractTableModel over the store, newest first, filtered, searchable, with review."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QDate, Qt

from tutor.store import Store


def originals(model) -> list[str]:
    return [model.row(i)["original"] for i in range(model.rowCount())]


def test_history_shows_only_the_learners_rows_newest_first(make_window, filled_db, reads_done):
    window = make_window(db=filled_db)
    window.learner_bar.select("Ana")
    window.show_tab(1)
    reads_done()
    model = window.history.model
    assert originals(model) == [
        "You was late.",
        "I forgetted my keys.",
        "I am happy.",
        "She have a cat.",
        "He goed to school.",
    ]
    assert "I goes home." not in originals(model)  # Ben's row never reaches Ana's history
    assert window.history.count.text() == "5 corrections"
    columns = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(model.columnCount())]
    # the verdict next to the sentence (a narrow window never cuts it off), then the answer; any further field
    # the record shows comes after them
    assert columns[:7] == ["When", "Sentence", "Result", "Correct form", "Verb", "Tense", "Person"]
    result_column = columns.index("Result")
    assert model.index(0, result_column).data() == "mistake"
    assert model.index(1, result_column).data() == "out of scope"
    assert model.index(2, result_column).data() == "correct"
    assert "went" in model.index(4, result_column).data(Qt.ItemDataRole.ToolTipRole)


def test_filters_by_verb_tense_person_and_date(qtbot, make_window, filled_db, reads_done):
    window = make_window(db=filled_db)
    window.learner_bar.select("Ana")
    view = window.history
    view.verb.setCurrentIndex(view.verb.findData("be"))
    reads_done()
    assert originals(view.model) == ["You was late.", "I am happy."]
    view.tense.setCurrentIndex(view.tense.findData("past simple"))
    reads_done()
    assert originals(view.model) == ["You was late."]
    view.reset_filters()
    view.person.setCurrentIndex(view.person.findData("3rd singular"))
    reads_done()
    assert originals(view.model) == ["She have a cat.", "He goed to school."]
    view.reset_filters()
    view.since.setDate(QDate(2026, 1, 12))
    view.until.setDate(QDate(2026, 1, 13))
    view.since_check.setChecked(True)
    view.until_check.setChecked(True)
    reads_done()
    assert originals(view.model) == ["I am happy.", "She have a cat."]  # both ends included
    view.reset_filters()
    reads_done()
    assert view.model.rowCount() == 5


def test_search_box_finds_words_in_sentences(qtbot, make_window, filled_db):
    window = make_window(db=filled_db)
    window.learner_bar.select("Ana")
    view = window.history
    qtbot.keyClicks(view.search, "scho")
    qtbot.waitUntil(lambda: originals(view.model) == ["He goed to school."], timeout=3000)
    view.search.clear()
    qtbot.waitUntil(lambda: view.model.rowCount() == 5, timeout=3000)
    qtbot.keyClicks(view.search, "nothing like this")
    qtbot.waitUntil(lambda: view.count.text() == "No corrections match.", timeout=3000)


def test_long_histories_load_page_by_page(make_window, db_path, result_factory, monkeypatch, reads_done):
    from app.table_models import HistoryModel

    monkeypatch.setattr(HistoryModel, "PAGE", 10)
    with Store.open(db_path) as store:
        store.save_corrections(
            [
                result_factory(
                    f"She have {n} cats.",
                    ("have", "present simple", "3rd singular", "has", "ha"),
                    wrong="have",
                )
                for n in range(25)
            ],
            learner="Ana",
            created=datetime(2026, 2, 1),
        )
    window = make_window(db=db_path)
    window.learner_bar.select("Ana")
    model = window.history.model
    reads_done()
    assert model.rowCount() == 10 and model.total == 25 and model.canFetchMore()
    model.fetchMore()
    reads_done()
    model.fetchMore()
    reads_done()
    assert model.rowCount() == 25 and not model.canFetchMore()
    assert len(set(originals(model))) == 25


def test_review_my_mistakes_re_asks_each_past_error(qtbot, make_window, filled_db, reads_done):
    window = make_window(db=filled_db)
    window.learner_bar.select("Ana")
    window.show_tab(1)
    qtbot.mouseClick(window.history.review_button, Qt.MouseButton.LeftButton)
    reads_done()
    practice = window.practice
    assert window.tabs.currentWidget() is practice
    assert not practice.review_bar.isHidden()
    assert practice.editor.toPlainText() == "You was late."  # newest mistake first
    assert "1 of 3" in practice.review_label.text()
    practice.review_next.click()
    assert practice.editor.toPlainText() == "She have a cat."
    practice.review_next.click()
    assert practice.editor.toPlainText() == "He goed to school."
    practice.review_next.click()
    assert practice.review_bar.isHidden()
    assert "finished" in window.messages.message("review")


def test_review_with_no_mistakes_says_so(make_window, filled_db, reads_done):
    window = make_window(db=filled_db)
    window.learner_bar.create("Cleo")
    reads_done()
    window.history.review_button.click()
    reads_done()
    assert "no mistakes" in window.messages.message("review")
    assert window.practice.review_bar.isHidden()


def test_a_retry_in_review_is_kept_apart_from_the_real_history(qtbot, make_window, filled_db, engine, reads_done):
    """Retries made in "review my mistakes" are stored as practice and do not count in the statistics."""
    from tutor.store import Store

    window = make_window(db=filled_db, tutor=engine)
    window.learner_bar.select("Ana")
    with Store.open(filled_db) as store:
        before = store.error_counts("Ana")
        n_before = store.count_history("Ana")
    window.show_tab(1)
    qtbot.mouseClick(window.history.review_button, Qt.MouseButton.LeftButton)
    reads_done()
    practice = window.practice
    practice.editor.setPlainText("He goed to the park.")  # the learner's retry, still wrong
    with qtbot.waitSignal(window.correction_done, timeout=60000):
        practice.submit()
    with Store.open(filled_db) as store:
        assert store.count_history("Ana") == n_before + 1
        newest = store.history("Ana", limit=1)[0]
        assert newest["kind"] == "review"
        assert store.error_counts("Ana") == before  # the retry's error is not counted
        assert all(row["kind"] != "review" for row in store.mistakes("Ana"))


def test_the_result_column_is_on_screen_at_800_by_600_in_spanish(make_window, filled_db, reads_done):
    from app.translation import install_language

    window = make_window(db=filled_db)
    install_language("es")
    window.resize(800, 600)
    window.learner_bar.select("Ana")
    window.show_tab(1)
    reads_done()
    table, model = window.history.table, window.history.model
    column = model.columns().index("is_correct")
    header = table.horizontalHeader()
    right = header.sectionViewportPosition(column) + header.sectionSize(column)
    assert model.headerData(column, Qt.Orientation.Horizontal) == "Resultado"
    assert header.sectionViewportPosition(column) >= 0 and right <= table.viewport().width()
