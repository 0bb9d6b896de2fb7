"""`grammar-tutor bench startup --json`: every figure measured in its own process, the ratios made from them."""

from __future__ import annotations

import json

from tutor.cli import main


def test_bench_startup_measures_the_floor_the_tutor_and_the_window(capsys):
    assert main(["bench", "startup", "--repeat", "1", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    for name in ("floor", "correct", "load", "window"):
        assert 50 < figures[f"{name}_peak_mb"] < 4000, (name, figures)
    assert 0 < figures["floor_s"] < figures["correct_s"], figures  # the tutor does all the floor does, and more
    assert 0 < figures["load_s"] < figures["correct_s"], figures
    assert 0 < figures["first_paint_s"] < figures["first_check_s"], figures
    ratio = figures["correct_s"] / figures["floor_s"]  # from figures rounded to 1 ms: within 1 %
    assert abs(figures["correct_over_floor"] - ratio) <= 0.01 * ratio
    assert abs(figures["correct_mb_above_floor"] - (figures["correct_peak_mb"] - figures["floor_peak_mb"])) < 0.01
