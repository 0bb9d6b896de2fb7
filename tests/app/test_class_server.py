"""The class menus: send my history as a bundle, import learners' files, and the class-server setting."""

from __future__ import annotations

from pathlib import Path

from app.views.class_server import ClassServerDialog, server_choice
from tutor.result import CorrectionResult
from tutor.store import Store


def _result(sentence: str) -> CorrectionResult:
    output = {"original": sentence, "verb": "go", "tense": "present simple", "person": "3rd singular",
              "correct_form": "goes", "spanish": "va"}
    return CorrectionResult(original=sentence, output=output, out_of_scope=False, is_correct=False, confidence=0.9)


def test_menus_are_there_with_shortcuts(make_window) -> None:
    window = make_window()
    menus = window.class_menus
    assert menus.send_action in window.file_menu.actions()
    assert menus.teacher_menu.title().replace("&", "") == "Teacher"
    assert menus.import_action in menus.teacher_menu.actions()
    assert all(a.shortcut().toString() for a in (menus.send_action, menus.import_action, menus.server_action))


def test_send_then_import_twice_reports_new_and_present(make_window, qtbot, tmp_path: Path) -> None:
    learner_db = tmp_path / "learner.db"
    with Store.open(learner_db) as store:
        store.save_corrections([_result("She go home"), _result("He go out")], learner="Ana")
    window = make_window(db=learner_db)
    window.learner = "Ana"
    bundle = tmp_path / "ana.grammar-tutor.json"
    window.class_menus.write_bundle(str(bundle))
    qtbot.waitUntil(lambda: "Saved 2 corrections" in window.class_menus.last_report, timeout=10000)
    assert bundle.exists()

    teacher = make_window(db=tmp_path / "teacher.db")
    teacher.class_menus.import_paths([str(bundle), str(bundle)])
    qtbot.waitUntil(lambda: "conflicts" in teacher.class_menus.last_report, timeout=10000)
    assert teacher.class_menus.last_report.startswith("2 new, 2 already present, 0 conflicts.")
    assert {x["name"] for x in teacher.store.learners()} == {"Ana"}


def test_a_damaged_file_is_reported(make_window, qtbot, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "grammar-tutor-bundle", "version": 1', encoding="utf-8")
    window = make_window()
    window.class_menus.import_paths([str(bad)])
    qtbot.waitUntil(lambda: "damaged" in window.class_menus.last_report, timeout=10000)
    assert "0 new" in window.class_menus.last_report


def test_server_setting_is_kept(settings, qtbot) -> None:
    assert server_choice(settings.q) is None
    dialog = ClassServerDialog(settings.q)
    qtbot.addWidget(dialog)
    dialog.use_server.setChecked(True)
    dialog.url.setText("http://127.0.0.1:8765")
    dialog.code.setText("class-code-5b")
    dialog.save()
    assert server_choice(settings.q) == ("http://127.0.0.1:8765", "class-code-5b")
